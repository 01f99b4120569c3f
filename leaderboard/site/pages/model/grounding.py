"""The model page's "where the answers came from" section: per language and ability, how many
answers are correct and grounded in a passage shown, correct from memory, wrong and taken from a
passage (by its role), invented, refused, error claimed or undetermined (the correct x grounded
table), then the figures with their intervals, omission on the integration questions among them;
and, for an entry with conflict-track answers, the same check per instruction, language and
condition (how many answers are taken from the altered passage). Read from results.json
(`grounding`, `grounding_scores`; a conflict folder's `conflict_grounding_scores`, computed by
scoring/grounding.py and stats/grounding.py); strict mode."""

from __future__ import annotations

from leaderboard.board.load import Entry
from leaderboard.core.schema import GroundingScore
from leaderboard.site.pages.model.tables import ability_name, model_table
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc, pct, pct_ci
from leaderboard.site.render.i18n import DEFAULT, table, ui
from leaderboard.site.render.page import Output
from leaderboard.site.render.tables import Cell, Row, Table
from leaderboard.stats.grounding import BUCKETS  # the partition's parts, in the table's order

# the figures shown, in order (stats.grounding.FIGURES)
FIGURES = (
    "grounded",
    "invented",
    "made_up",
    "from_passage",
    "from_noise",
    "from_altered",
    "invented_of_made_up",
    "copied_noise",
    "undetermined",
    "relevant",
    "omission",
)
# the conflict track's figures shown, in order (stats.grounding.CONFLICT_FIGURES)
CONFLICT_FIGURES = (
    "made_up",
    "copied_altered",
    "copied_noise",
    "invented",
    "grounded",
    "undetermined",
)


def _keys(sub: Entry) -> list[tuple[str, str]]:
    """(language, ability) in the order results.json lists the cells."""
    return list(dict.fromkeys((c.lang, c.ability) for c in sub.results.grounding))


def counts_table(sub: Entry, lg: str) -> Table:
    """Correct x grounded: per language and ability (all noise rates), the number of answers in
    each part of the partition, and n."""
    rows = []
    for lang, ability in _keys(sub):
        cells_of = [c for c in sub.results.grounding if (c.lang, c.ability) == (lang, ability)]
        cells = {
            "lang": Cell.text(ui(lg, f"lang.{lang}")),
            "ability": Cell.text(ability_name(ability, lg)),
        }
        for b in BUCKETS:
            count = sum(getattr(c, b) for c in cells_of)
            cells[b] = Cell.text(count, count)
        n = sum(c.n for c in cells_of)
        cells["n"] = Cell.text(n, n)
        rows.append(Row(cells))
    ids = ("col.lang", "model.ability", *(f"grc.{b}" for b in BUCKETS), "gr.n")
    return model_table(
        sub,
        "grounding",
        "gr.counts_title",
        columns(lg, *ids),
        rows,
        lg,
        "gr.counts_note",
        filterable=False,
    )


def figures_table(sub: Entry, lg: str) -> Table:
    """The figures per language and ability, each a rate with its interval (n in the tooltip
    of the download, as results.json records it)."""
    got = {(s.lang, s.ability, s.metric): s for s in sub.results.grounding_scores}
    rows = []
    for lang, ability in _keys(sub):
        cells = {
            "lang": Cell.text(ui(lg, f"lang.{lang}")),
            "ability": Cell.text(ability_name(ability, lg)),
        }
        for metric in FIGURES:
            cells[metric] = Cell.score(got.get((lang, ability, metric)))
        made_up = got.get((lang, ability, "made_up"))
        n = made_up.n if made_up is not None else 0
        cells["n"] = Cell.text(n, n)
        rows.append(Row(cells))
    ids = ("col.lang", "model.ability", *(f"gr.{m}" for m in FIGURES), "gr.n")
    return model_table(
        sub,
        "grounding-figures",
        "gr.figures_title",
        columns(lg, *ids),
        rows,
        lg,
        "gr.figures_note",
        filterable=False,
    )


def _lead(sub: Entry, lg: str) -> str:
    """Per language, the rejection answers' made-up share split into invented and copied from a
    noise passage."""
    got: dict[tuple[str, str], GroundingScore] = {
        (s.lang, s.metric): s for s in sub.results.grounding_scores if s.ability == "rejection"
    }
    lines = []
    for lang in dict.fromkeys(k[0] for k in got):
        if (lang, "made_up") not in got:
            continue
        values = {
            m: pct(got[(lang, m)].value, lg=lg) if (lang, m) in got else "—"
            for m in ("made_up", "invented", "copied_noise", "undetermined")
        }
        lines.append(
            ui(
                lg,
                "gr.lead",
                lang=esc(ui(lg, f"lang.{lang}")),
                n=got[(lang, "made_up")].n,
                **values,
            )
        )
    return "".join(f"\n<p>{line}</p>\n" for line in lines)


def _omission_lead(sub: Entry, lg: str) -> str:
    """Per language, the omission share of the integration answers, with its interval and n."""
    lines = []
    for s in sub.results.grounding_scores:
        if s.ability != "integration" or s.metric != "omission":
            continue
        lines.append(
            ui(
                lg,
                "gr.omission_lead",
                lang=esc(ui(lg, f"lang.{s.lang}")),
                omission=pct(s.value, lg=lg),
                ci=pct_ci(s.ci, lg),
                n=s.n,
            )
        )
    return "".join(f"\n<p>{line}</p>\n" for line in lines)


def condition_name(condition: str, instruction: str, lg: str) -> str:
    """A condition's short name on the conflict page, the track's own instruction named."""
    key = f"conf.short.{condition}"
    name = ui(lg, key) if key in table(DEFAULT) else condition
    return name if instruction == "rgb" else ui(lg, "conf.short.aware", cond=name)


def conflict_table(sub: Entry, lg: str) -> Table | None:
    """The conflict track's grounding per instruction, language and condition: made up, taken
    from the altered passage, copied from noise, invented (shares of all the answers), grounded
    (of the correct ones), undetermined, and n; None without conflict grounding figures."""
    rows = []
    for run in sub.conflicts:
        got = {(s.lang, s.condition, s.metric): s for s in run.results.conflict_grounding_scores}
        for c in run.results.conflict_grounding:
            cond = condition_name(c.condition, run.instruction, lg)
            cells = {
                "lang": Cell.text(ui(lg, f"lang.{c.lang}")),
                "condition": Cell.text(cond, cond),
            }
            for metric in CONFLICT_FIGURES:
                cells[metric] = Cell.score(got.get((c.lang, c.condition, metric)))
            cells["n"] = Cell.text(c.n, c.n)
            rows.append(Row(cells))
    if not rows:
        return None
    ids = ("col.lang", "conf.condition", *(f"gr.{m}" for m in CONFLICT_FIGURES), "gr.n")
    return model_table(
        sub,
        "grounding-conflicts",
        "gr.conflict_title",
        columns(lg, *ids),
        rows,
        lg,
        "gr.conflict_note",
        filterable=False,
    )


def grounding_section(sub: Entry, out: Output, prefix: str, lg: str, docs_href: str) -> str:
    """The section, or "" for an entry whose results.json has no grounding (scored before) and
    no conflict-track grounding."""
    conflicts = conflict_table(sub, lg)
    if not sub.results.grounding and conflicts is None:
        return ""
    link = f'<a href="{esc(docs_href)}">{esc(ui(lg, "gr.docs"))}</a>'
    parts = [f"\n## {ui(lg, 'gr.h')}\n", f"\n<p>{ui(lg, 'gr.intro', link=link)}</p>\n"]
    if sub.results.grounding:
        parts += [_lead(sub, lg), _omission_lead(sub, lg), out.table(counts_table(sub, lg), prefix)]
        summary = esc(ui(lg, "gr.details"))
        parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
        parts.append(out.table(figures_table(sub, lg), prefix).strip("\n"))
        parts.append("</details>\n")
    if conflicts is not None:
        parts.append(f"\n<p>{ui(lg, 'gr.conflict_lead')}</p>\n")
        parts.append(out.table(conflicts, prefix))
    return "".join(parts)
