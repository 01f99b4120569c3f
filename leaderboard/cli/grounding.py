"""`grounding`: where each entry's answers came from (scoring/grounding.py, stats/grounding.py):
per language and ability, the grounded share of the correct answers, the invented share (the
hallucination rate) beside the made-up share, and the wrong answers taken from a noise or an
altered passage, the omission share of the integration answers, each with its 95% interval and n,
as results.json stores them (`verify` recomputes them from the answers); a conflict-track folder
gets its table per language and condition (the share of all the answers taken from the altered
passage among its columns). With --answers, every answer's category, answer by answer (and, on
integration questions, the elements a passage holds that the answer omits).

`grounding-agreement` (beside `grounding`, as `judge-agreement` beside `judge`): the check against
the hand-labelled answers (scoring/labels/grounding_*.jsonl), per language, the held-out test part
first: category, source (from a passage or invented) and relevance agreement, each with its
Wilson interval, n and the pairs where the check differs."""

from __future__ import annotations

from pathlib import Path

import typer

from leaderboard.board.grounding_labelled import Agreement, agreements, label_comparisons
from leaderboard.cli.arguments import DATA_DIR_HELP
from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import ConflictGroundingScore, GroundingScore, Results
from leaderboard.core.types import LANGS
from leaderboard.data.manifest import data_root
from leaderboard.run.store import RunStore
from leaderboard.scoring.grounding import MODE, grounding, omitted
from leaderboard.scoring.outcome import outcome
from leaderboard.stats.intervals import wilson_share
from leaderboard.trust.verify import scored_answers

# the columns, in order: (metric, header)
COLUMNS = (
    ("grounded", "grounded (of correct)"),
    ("invented", "invented"),
    ("made_up", "made up"),
    ("from_noise", "from noise (of wrong)"),
    ("from_altered", "from altered (of wrong)"),
    ("invented_of_made_up", "invented (of made up)"),
    ("copied_noise", "copied from noise"),
    ("undetermined", "undetermined"),
    ("relevant", "relevant (date/number/person asked)"),
    ("omission", "omission (integration)"),
)
# the conflict track's columns, per language and condition
CONFLICT_COLUMNS = (
    ("grounded", "grounded (of correct)"),
    ("made_up", "made up"),
    ("copied_altered", "from altered"),
    ("copied_noise", "from noise"),
    ("invented", "invented"),
    ("from_altered", "from altered (of wrong)"),
    ("undetermined", "undetermined"),
)


def run_folders(paths: list[Path] | None) -> list[Path]:
    """The run folders named (a results.json stands for its folder), or every folder under
    submissions/ holding a results.json: entries and their track folders (instructions,
    conflicts) alike, since the check reads any run folder's answers."""
    if paths:
        return [p.parent if p.is_file() else p for p in paths]
    found = sorted(p.parent for p in Path("submissions").rglob("results.json"))
    if not found:
        raise ResultsError("no submissions/**/results.json under the current folder")
    return found


def _figure(s: GroundingScore | ConflictGroundingScore | None) -> str:
    if s is None:
        return "-"
    ci = f" [{100 * s.ci[0]:.1f}, {100 * s.ci[1]:.1f}]" if s.ci is not None else ""
    return f"{100 * s.value:.1f}{ci} n={s.n}"


def render_conflict_figures(name: str, results: Results, lang: str | None) -> str:
    """A conflict folder's table: a row per language and condition, a column per figure."""
    by = {(s.lang, s.condition, s.metric): s for s in results.conflict_grounding_scores}
    rows = [
        f"{name} (conflict track, strict; % [95% CI] n = answers in the denominator; "
        "from altered and from noise: of all the answers)",
        "",
        "| lang | condition | answers | " + " | ".join(h for _, h in CONFLICT_COLUMNS) + " |",
        "|---|---|---:|" + "---:|" * len(CONFLICT_COLUMNS),
    ]
    for c in results.conflict_grounding:
        if lang and c.lang != lang:
            continue
        cells = " | ".join(_figure(by.get((c.lang, c.condition, m))) for m, _ in CONFLICT_COLUMNS)
        rows.append(f"| {c.lang} | {c.condition} | {c.n:,} | {cells} |")
    return "\n".join(rows)


def render_figures(name: str, results: Results, lang: str | None, ability: str | None) -> str:
    """One markdown table per run folder: a row per language and ability, a column per figure
    (a conflict folder: per language and condition)."""
    if results.conflict_grounding:
        if ability and ability != "conflict":
            return f"{name}: conflict track (--ability conflict)"
        return render_conflict_figures(name, results, lang)
    if not results.grounding_scores:
        return f"{name}: no grounding figures in results.json (`rgb-leaderboard rescore {name}`)"
    by = {(s.lang, s.ability, s.metric): s for s in results.grounding_scores}
    answers = {}
    for c in results.grounding:
        answers[(c.lang, c.ability)] = answers.get((c.lang, c.ability), 0) + c.n
    rows = [
        f"{name} (strict; % [95% CI] n = answers in the denominator)",
        "",
        "| lang | ability | answers | " + " | ".join(h for _, h in COLUMNS) + " |",
        "|---|---|---:|" + "---:|" * len(COLUMNS),
    ]
    for key, n in answers.items():
        if (lang and key[0] != lang) or (ability and key[1] != ability):
            continue
        cells = " | ".join(_figure(by.get((*key, m))) for m, _ in COLUMNS)
        rows.append(f"| {key[0]} | {key[1]} | {n:,} | {cells} |")
    return "\n".join(rows)


def render_answers(folder: Path, root: Path, lang: str | None, ability: str | None) -> str:
    """Every answer of a run folder: key, strict outcome, category, passage role, span, reason,
    and the elements omitted (integration; "-" where omission is not defined), tab-separated,
    one answer a line."""
    lines = ["key\toutcome\tcategory\trole\tspan\treason\tomitted"]
    for item in scored_answers(folder, root):
        inst = item.instance
        if (lang and inst.lang != lang) or (ability and inst.ability != ability):
            continue
        g = grounding(item)
        missed = omitted(item)
        omits = "-" if missed is None else " | ".join(missed)
        row = (inst.key, outcome(item, MODE), g.category, g.role or "", g.span, g.reason, omits)
        lines.append("\t".join(row))
    return "\n".join(lines)


def grounding_cmd(
    submissions: list[Path] | None = typer.Argument(
        None,
        help="Run folders (default: every folder under submissions/ with a results.json: "
        "entries, instruction and conflict tracks).",
    ),
    lang: str | None = typer.Option(None, "--lang", help="Only this language (zh or en)."),
    ability: str | None = typer.Option(
        None, "--ability", help="Only this ability or probe (e.g. rejection)."
    ),
    answers: bool = typer.Option(
        False,
        "--answers",
        help="List every answer's category (recomputed from the answers and the data).",
    ),
    data_dir: Path | None = typer.Option(None, "--data-dir", help=DATA_DIR_HELP),
) -> None:
    """Print where each entry's answers came from: grounded share of the correct answers,
    invented (hallucination rate) beside made up, wrong answers taken from a noise or an altered
    passage, omission on integration questions, with 95% intervals and n (strict; results.json's
    figures, which verify recomputes); conflict-track folders per language and condition."""
    for i, folder in enumerate(run_folders(submissions)):
        sep = "\n" if i else ""
        if answers:
            typer.echo(sep + render_answers(folder, data_root(data_dir), lang, ability))
            continue
        results = RunStore(folder).read_results()
        typer.echo(sep + render_figures(folder.as_posix(), results, lang, ability))


def render_agreement(a: Agreement) -> str:
    """One agreement as a line: split, measure, share with its Wilson interval, count, and the
    pairs where the check differs (hand -> check), commonest first."""
    lo, hi = wilson_share(a.share, a.n)
    shown = "; ".join(f"{h} -> {c} {n}" for h, c, n in a.confusions) or "none"
    return (
        f"{a.lang} {a.split:<4} {a.measure:<9} {100 * a.share:.1f}% "
        f"[{100 * lo:.1f}, {100 * hi:.1f}] ({a.agree} of {a.n}); "
        f"confusions (hand -> check): {shown}"
    )


def agreement_cmd() -> None:
    """The grounding check against the hand labels (scoring/labels/grounding_*.jsonl), per
    language, the held-out test part first, then dev and all: the category (a wrong answer from a
    passage with the passage's role), the source of the wrong answers both place (from a passage
    or invented) and the relevance on date, number and who questions, each with its 95% Wilson
    interval, n and every confusion (hand -> check)."""
    for lang in LANGS:
        compared = label_comparisons(lang)  # type: ignore[arg-type]
        if not compared:
            typer.echo(f"{lang}: no labelled grounding answers")
            continue
        for a in agreements(compared, lang):  # type: ignore[arg-type]
            typer.echo(render_agreement(a))


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add `grounding` and `grounding-agreement`."""
    app.command("grounding")(grounding_cmd)
    app.command("grounding-agreement")(agreement_cmd)
