"""`conflicts list|show|check|panel`: the knowledge-conflict track from the command line: the
conditions (what each shows, its hash), one condition's instances, the data check of the fact
files for conflict use, and the panel per model (outcome shares with n and 95 % intervals, the
paired effects of an altered passage, order, majority and the instruction, zh beside en, and the
prior). Answers are made with `rgb-leaderboard run SUB --conflicts [--instruction conflict_aware]`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.board.conflicts import OFFICIAL, ConflictPanel, conflict_panels
from leaderboard.board.load import load_entry
from leaderboard.cli.arguments import DATA_DIR_HELP, track_entries
from leaderboard.core.types import LANGS
from leaderboard.data.manifest import data_root
from leaderboard.data.splits import load_split
from leaderboard.protocol.conflicts import PANEL, condition_ids, conditions_sha256, load_condition
from leaderboard.run.plan import conflict_instances
from leaderboard.scoring.conflict_check import check_records
from leaderboard.scoring.conflict_labelled import agreement, conflict_labels
from leaderboard.scoring.conflict_outcome import LABELS
from leaderboard.stats.intervals import wilson_share

conflicts_app = typer.Typer(
    help="The knowledge-conflict track: conditions, the data check, the panel table.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@conflicts_app.command("list")
def list_cmd() -> None:
    """Every condition: id, the passages it shows, and what the fingerprint hashes."""
    typer.echo(f"conditions hash (enters a conflict run's fingerprint): {conditions_sha256()[:16]}")
    for cid in condition_ids():
        c = load_condition(cid)
        shown = " + ".join(c.passages) + f" + {5 - len(c.passages)} noise"
        typer.echo(
            f"{cid:<10} {shown:<28} sources={c.sources:<8} rotate={c.rotate:<9} {c.title['en']}"
        )
    for instruction, chosen in PANEL.items():
        typer.echo(f"panel: {instruction} on {', '.join(chosen or condition_ids())}")


@conflicts_app.command("show")
def show_cmd(
    condition: str = typer.Argument(..., help="A condition id from `conflicts list`."),
    lang: str = typer.Option("zh", "--lang", help="zh or en."),
    limit: int = typer.Option(2, "--limit", min=1, help="How many instances to print."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """A condition's first instances: each passage with its role and source, and how many
    questions the condition leaves out (and why)."""
    cond = load_condition(condition)
    _, instances, left = conflict_instances(data_root(data_dir), lang, [cond.id])  # type: ignore[arg-type]
    typer.echo(f"{cond.id}: {cond.title['en']}\n{cond.purpose['en']}")
    typer.echo(f"{len(instances)} {lang} instances; {len(left)} questions left out")
    for o in left[:10]:
        typer.echo(f"  left out: id {o.id}: {o.reason}")
    for inst in instances[:limit]:
        typer.echo(
            f"\n[{inst.key}] {inst.query}  answer {inst.answer!r}  planted {inst.fakeanswer!r}"
        )
        for role, src, doc in zip(inst.roles, inst.sources, inst.docs, strict=True):
            typer.echo(f"  {role:<5} {src:<18} {doc[:110]!r}")


@conflicts_app.command("check")
def check_cmd(data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP)) -> None:
    """The fact files checked for conflict use: every finding names file, record and passage;
    the records each finding takes out of the conditions it would corrupt."""
    root = data_root(data_dir)
    total = 0
    for lang in LANGS:
        source, records = load_split(root, lang, "conflict")
        findings, _ = check_records(records, lang)
        total += len(findings)
        for f in findings:
            where = f.passage or "(whole record)"
            typer.echo(f"{source.name}  id {f.id:<3} {where:<18} {f.kind:<18} {f.detail}")
    typer.echo(f"{total} finding(s)")


def _pct(value: float | None, ci: tuple[float, float] | None, n: int, signed: bool = False) -> str:
    if value is None:
        return "—"
    fmt = "{:+.1f}" if signed else "{:.1f}"
    interval = f" [{fmt.format(100 * ci[0])}, {fmt.format(100 * ci[1])}]" if ci else ""
    return f"{fmt.format(100 * value)}{interval} n={n}"


def render_panel(panel: ConflictPanel) -> str:
    """One model's panel as Markdown tables."""
    lines = [f"## {panel.name} (95% intervals)"]
    for instruction in panel.instructions:
        lines.append(f"\n### instruction {instruction}: every outcome's share, %")
        head = ["lang", "condition", *LABELS, "truthful", "flagged"]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        for lang in LANGS:
            for cond in condition_ids():
                cells = [
                    panel.figure(lang, cond, m, instruction)
                    for m in (*LABELS, "truthful", "flagged")
                ]
                if all(c is None for c in cells):
                    continue
                shown = [_pct(c.value, c.ci, c.n) if c else "—" for c in cells]
                lines.append(f"| {lang} | {cond} | " + " | ".join(shown) + " |")
        cov = [c for c in panel.coverage.get(instruction, ()) if c.answered < c.eligible]
        for c in cov:
            lines.append(f"partial: {c.lang}/{c.condition}: {c.answered} of {c.eligible} answered")
    lines.append("\n### paired effects (first minus second, points; zh-en: zh effect minus en)")
    lines.append("| effect | metric | zh | en | zh − en |")
    lines.append("|---|---|---|---|---|")
    names = sorted(
        {e.effect for e in (*panel.effects.get(OFFICIAL, ()), *panel.instruction_effects)}
    )
    for name in names:
        for metric in ("truthful", "misled"):
            cells = []
            for lang in ("zh", "en", "zh-en"):
                e = panel.effect(lang, name, metric)
                cells.append(_pct(e.value, e.ci, e.n, signed=True) if e else "—")
            lines.append(f"| {name} | {metric} | " + " | ".join(cells) + " |")
    if panel.prior:
        lines.append(
            "\n### prior: t1f1 outcome by the model's closed-book answer (RGB's instruction)"
        )
        lines.append("| lang | closed-book | n | truthful | misled | both_merged |")
        lines.append("|---|---|---|---|---|---|")
        rows: dict[tuple[str, str], dict[str, object]] = {}
        for lang, cond, group, fig in panel.prior:
            if cond == "t1f1":
                rows.setdefault((lang, group), {})[fig.metric] = fig
        for (lang, group), figs in sorted(rows.items()):
            t, m, b = (figs.get(k) for k in ("truthful", "misled", "both_merged"))
            n = t.n if t else 0  # type: ignore[union-attr]
            shown = [_pct(f.value, f.ci, f.n) if f else "—" for f in (t, m, b)]  # type: ignore[union-attr]
            lines.append(f"| {lang} | {group} | {n} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


@conflicts_app.command("panel")
def panel_cmd(
    submissions: list[Path] | None = typer.Argument(
        None, help="Entry folders (default: every submissions/*/ with a conflicts/ folder)."
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """The panel per model: every outcome's share per language and condition, the paired
    effects (an altered passage's cost, order, majority, the instruction) with zh beside en, and
    the outcome split by the model's closed-book answer."""
    folders = track_entries(submissions, "conflicts", "rgb-leaderboard run SUB --conflicts")
    panels = conflict_panels([load_entry(f) for f in folders], data_root(data_dir))
    typer.echo("\n\n".join(render_panel(p) for p in panels))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add the `conflicts` group."""
    app.add_typer(conflicts_app, name="conflicts")


@conflicts_app.command("agreement")
def agreement_cmd() -> None:
    """The outcome reader's agreement with the hand labels (scoring/labels/conflict_*.jsonl),
    per language, on the dev part and on the held-out test part, with Wilson intervals and the
    commonest confusions."""
    for lang in LANGS:
        items = conflict_labels(lang)  # type: ignore[arg-type]
        if not items:
            typer.echo(f"{lang}: no labelled conflict answers")
            continue
        for split in ("dev", "test", "all"):
            a = agreement(items, lang, split)  # type: ignore[arg-type]
            if not a.n:
                continue
            lo, hi = wilson_share(a.share, a.n)
            top = "; ".join(f"{h}->{g} {n}" for h, g, n in a.confusions[:4]) or "none"
            typer.echo(
                f"{lang} {split:<4} agreement {100 * a.share:.1f}% "
                f"[{100 * lo:.1f}, {100 * hi:.1f}] ({a.agree} of {a.n}); "
                f"confusions (hand->reader): {top}"
            )
