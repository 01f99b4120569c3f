"""`instructions list|show|panel`: the instruction-sensitivity track from the command line: the
instructions (ids, what each changes, its hash), one instruction's texts, and the panel table
per model, language and instruction (strict; n and 95% intervals; paired differences from RGB's
instruction)."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.board.instructions import ModelPanel, instruction_panels
from leaderboard.board.load import load_entry
from leaderboard.cli.arguments import DATA_DIR_HELP, track_entries
from leaderboard.core.types import LANGS
from leaderboard.data.manifest import data_root
from leaderboard.protocol.instructions import instruction_ids, load_instruction
from leaderboard.stats.instruction_panel import Figure

instructions_app = typer.Typer(
    help="The instruction-sensitivity track: instructions, their texts, the panel table.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# the columns of the panel table: (ability, metric, header)
COLUMNS = (
    ("rejection", "refused", "refused"),
    ("rejection", "made_up", "made up"),
    ("rejection", "truthfulness", "truth (rej)"),
    ("noise", "accuracy", "accuracy"),
    ("noise", "over_refusal", "over-refusal"),
    ("counterfactual", "error_detection", "error det."),
    ("counterfactual", "repeated_fake", "repeats fake"),
)


@instructions_app.command("list")
def list_cmd() -> None:
    """Every instruction: id, what it changes, and the hash that enters the fingerprint."""
    for iid in instruction_ids():
        ins = load_instruction(iid)
        where = ", ".join(ins.differs_in) or "official"
        typer.echo(f"{iid:<14} {where:<13} {ins.sha256[:12]}  {ins.title['en']}")
        typer.echo(f"{'':<14} {ins.purpose['en']}")


@instructions_app.command("show")
def show_cmd(
    instruction: str = typer.Argument(..., help="An id from `instructions list`."),
) -> None:
    """The system message and user preamble of one instruction, per language."""
    ins = load_instruction(instruction)
    typer.echo(f"{ins.id}: {ins.title['en']} / {ins.title['zh']}\n{ins.changes['en']}")
    for lang in LANGS:
        system = ins.system(lang)
        typer.echo(f"\n[{lang}] system: {'(none)' if system is None else system}")
        if ins.user_preamble(lang):
            typer.echo(f"[{lang}] before RGB's user message: {ins.user_preamble(lang)!r}")


def _pct(f: Figure | None) -> str:
    """A figure in percent with its interval and n, then its paired difference from RGB's."""
    if f is None:
        return "—"
    ci = f" [{100 * f.ci[0]:.1f}, {100 * f.ci[1]:.1f}]" if f.ci else ""
    diff = ""
    if f.diff is not None:
        d_ci = f" [{100 * f.diff_ci[0]:+.1f}, {100 * f.diff_ci[1]:+.1f}]" if f.diff_ci else ""
        diff = f" Δ{100 * f.diff:+.1f}{d_ci}"
    return f"{100 * f.value:.1f}{ci} n={f.n}{diff}"


def render_panel(panel: ModelPanel) -> str:
    """One model's panel as Markdown tables, one per language."""
    by = {(f.lang, f.instruction, f.ability, f.metric): f for f in panel.figures}
    lines = [f"## {panel.name} (strict; 95% intervals; Δ: minus RGB's instruction, paired)"]
    for lang in LANGS:
        rows = [i for i in panel.instructions if any(k[:2] == (lang, i) for k in by)]
        if not rows:
            continue
        lines.append(f"\n{lang}  | instruction | " + " | ".join(h for *_, h in COLUMNS) + " |")
        lines.append("|---|" + "---|" * (len(COLUMNS) + 1))
        for iid in rows:
            cells = [_pct(by.get((lang, iid, a, m))) for a, m, _ in COLUMNS]
            lines.append(f"| {lang} | {iid} | " + " | ".join(cells) + " |")
        for s in panel.sensitivity:
            if s.lang == lang:
                lines.append(
                    f"sensitivity ({lang}, rejection truthfulness over {s.instructions} "
                    f"instructions, on the {s.n} questions all answered): range "
                    f"{100 * s.range:.1f} points; worst "
                    f"{100 * s.low:.1f} ({s.low_instruction}), best {100 * s.high:.1f} "
                    f"({s.high_instruction})"
                )
    return "\n".join(lines)


@instructions_app.command("panel")
def panel_cmd(
    submissions: list[Path] | None = typer.Argument(
        None, help="Entry folders (default: every submissions/*/ with an instructions/ folder)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """The panel table per model, language and instruction: refusal, made up, truthfulness on
    rejection; accuracy and over-refusal on noise 0.0; error detection and repeated fake on
    counterfactual; each with n and its interval, and its paired difference from RGB's."""
    folders = track_entries(
        submissions, "instructions", "rgb-leaderboard run SUB --instruction ID --panel"
    )
    panels = instruction_panels([load_entry(f) for f in folders], data_root(data_dir))
    typer.echo("\n\n".join(render_panel(p) for p in panels))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add the `instructions` group."""
    app.add_typer(instructions_app, name="instructions")
