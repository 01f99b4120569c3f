"""The Systems page and the systems band of the home page: whole RAG pipelines (`backend: system`)
ranked apart from models.

Every figure comes from leaderboard.board.systems (which reads results.json's chain probe and the
recorded predictions); nothing is computed here but the display. The floor (a system citing no
passage) sits in the baseline band; a run over the stated error share is listed, marked, unranked.
"""

from __future__ import annotations

from leaderboard.backends.system_contract import API_FILE, openapi_text
from leaderboard.board.ranking import rank_ranges
from leaderboard.board.systems import MAX_ERROR_SHARE, Figure, SystemPair, SystemRow, SystemsBoard
from leaderboard.core.types import LANGS
from leaderboard.site.render.columns import column, columns
from leaderboard.site.render.coverage import system_phrase
from leaderboard.site.render.fmt import esc, pct, pct_ci, signed_pct
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Output, badge, front_matter, prefix_for, shown_name
from leaderboard.site.render.tables import Cell, Row, Table

PATH = "systems.md"
RATE_COLS = ("e2e_strict", "e2e_rgb", "recall", "retrieval_miss", "generation_miss")


def _rate(f: Figure) -> Cell:
    return Cell.rate(f.value, f.ci)


def _seconds(f: Figure) -> Cell:
    """Seconds with the interval underneath; exported with its bounds."""
    if f.value is None:
        return Cell.text(None)
    body = esc(f"{f.value:.2f} s")
    if f.ci is not None:
        body += f' <span class="lb-ci">{esc(f"[{f.ci[0]:.2f}, {f.ci[1]:.2f}]")}</span>'
    lo, hi = f.ci if f.ci else (None, None)
    return Cell({"value": f.value, "ci_low": lo, "ci_high": hi}, body, round(f.value, 6))


def _files(prefix: str, sid: str) -> str:
    base = f"{prefix}systems/{sid}/"
    links = [("model.yaml", "model.yaml"), ("results.json", "results.json")]
    return " · ".join(f'<a href="{esc(base + f)}">{esc(label)}</a>' for f, label in links)


def _system_cell(row: SystemRow, prefix: str, lg: str, coverage: str) -> Cell:
    """The system's name, badges and files; a partial entry's note is its short coverage phrase
    (render/coverage.py), as the models' tables show; the reasons in full are in results.json."""
    badges = ""
    note = ""
    if row.floor:
        tip = ui(lg, "systems.floor_tip")
        badges += " " + badge("baseline", ui(lg, "systems.badge_floor"), tip)
    elif not row.ranked:
        tip = ui(lg, "systems.unranked_tip", limit=f"{MAX_ERROR_SHARE:.0%}")
        badges += " " + badge("partial", ui(lg, "systems.badge_unranked"), tip)
    if row.partial_reasons:
        badges += " " + badge("partial", ui(lg, "badge.partial"), ui(lg, "badge.partial_tip"))
        note = ui(lg, "badge.partial_note", reasons=coverage)
    name = shown_name(row.id, row.name, lg)  # the floor's name describes a policy: translated
    html = esc(name) + badges + f'<br><span class="lb-ci">{_files(prefix, row.id)}</span>'
    return Cell(name, html, row.name, note)


def _row(row: SystemRow, rank: str, prefix: str, lg: str, coverage: str) -> Row:
    errors = Cell(
        {"value": row.errors, "share": row.error_share.value},
        esc(str(row.errors))
        + f' <span class="lb-ci">{esc(pct(row.error_share.value, lg=lg))} '
        + f"{esc(pct_ci(row.error_share.ci, lg))}</span>",
        row.errors,
    )
    return Row(
        {
            "rank": Cell.text(rank),
            "system": _system_cell(row, prefix, lg, coverage),
            "n": Cell.text(row.n, row.n),
            "e2e_strict": _rate(row.end_to_end["strict"]),
            "e2e_rgb": _rate(row.end_to_end["rgb"]),
            "recall": _rate(row.recall),
            "retrieval_miss": _rate(row.retrieval_miss),
            "generation_miss": _rate(row.generation_miss),
            "p50": _seconds(row.latency_p50),
            "p95": _seconds(row.latency_p95),
            "errors": errors,
        }
    )


def _ranks(board: SystemsBoard, lang: str) -> dict[str, str]:
    """Rank ranges of the ranked rows of one language from the strict paired comparisons."""
    rows = [r for r in board.rows if r.lang == lang and r.ranked]
    sig = {(p.a, p.b): p.sign for p in board.pairs if p.lang == lang and p.mode == "strict"}
    items = [(r.id, r.end_to_end["strict"].value) for r in rows]
    return {r.key: r.label for r in rank_ranges(items, sig)}


def systems_table(board: SystemsBoard, lang: str, prefix: str, lg: str = DEFAULT) -> Table:
    ranks = _ranks(board, lang)
    mine = [r for r in board.rows if r.lang == lang]
    results = {e.id: e.results for e in board.entries}
    cov = {r.id: system_phrase(lg, results[r.id], (lang,)) if r.id in results else "" for r in mine}
    rows = [_row(r, ranks.get(r.id, "—"), prefix, lg, cov[r.id]) for r in mine if not r.floor]
    floor = [_row(r, "—", prefix, lg, cov[r.id]) for r in mine if r.floor]
    ids = (*RATE_COLS, "p50", "p95", "errors")
    cols = columns(lg, "col.rank", "systems.system", "systems.n", *(f"systems.{k}" for k in ids))
    return Table(
        id=f"systems-{lang}",
        title=ui(lg, "systems.table_title", lang=ui(lg, f"lang.{lang}")),
        columns=tuple(cols),
        rows=tuple(rows),
        baseline_rows=tuple(floor),
        band_label="systems.floor_band",
        note=ui(lg, "systems.table_note", limit=f"{MAX_ERROR_SHARE:.0%}"),
        ui=lg,
    )


def _pair_row(p: SystemPair, names: dict[str, str], lg: str) -> Row:
    diff = esc(signed_pct(p.diff, lg))
    if p.ci is not None:
        diff += f' <span class="lb-ci">{esc(pct_ci(p.ci, lg))}</span>'
    verdict = {1: "systems.verdict_a", -1: "systems.verdict_b", 0: "systems.verdict_tie"}[p.sign]
    lo, hi = p.ci if p.ci else (None, None)
    return Row(
        {
            "lang": Cell.text(p.lang),
            "mode": Cell.text(ui(lg, f"mode.{p.mode}")),
            "a": Cell.text(names.get(p.a, p.a)),
            "b": Cell.text(names.get(p.b, p.b)),
            "diff": Cell({"value": p.diff, "ci_low": lo, "ci_high": hi}, diff, p.diff or 0.0),
            "n": Cell.text(p.n, p.n),
            "only_a": Cell.text(p.only_a, p.only_a),
            "only_b": Cell.text(p.only_b, p.only_b),
            "verdict": Cell.text(ui(lg, verdict)),
        }
    )


def pairs_table(board: SystemsBoard, lg: str = DEFAULT) -> Table:
    names = {e.id: shown_name(e.id, e.name, lg) for e in board.entries}
    keys = ("lang", "mode", "a", "b", "diff", "n", "only_a", "only_b", "verdict")
    cols = columns(lg, *(f"syspair.{k}" for k in keys))
    return Table(
        id="systems-paired",
        title=ui(lg, "systems.pairs_title"),
        columns=cols,
        rows=tuple(_pair_row(p, names, lg) for p in board.pairs),
        note=ui(lg, "systems.pairs_note"),
        ui=lg,
    )


def systems_page(board: SystemsBoard, out: Output, lg: str = DEFAULT) -> str:
    """The page with its interface in language `lg` (the same numbers in every language)."""
    prefix = prefix_for(PATH)
    parts = [front_matter() + f"# {ui(lg, 'systems.title')}\n", ui(lg, "systems.intro")]
    if not board.rows:
        parts.append("\n" + ui(lg, "systems.empty") + "\n")
    for lang in LANGS:
        parts.append(f"\n## {ui(lg, f'lang.{lang}')}\n")
        parts.append(out.table(systems_table(board, lang, prefix, lg), prefix))
    parts.append(f"\n## {ui(lg, 'systems.pairs_heading')}\n")
    parts.append(out.table(pairs_table(board, lg), prefix))
    if board.missing:
        parts.append("\n" + ui(lg, "systems.missing", reasons="; ".join(board.missing)) + "\n")
    parts.append(f"\n## {ui(lg, 'systems.contract_heading')}\n")
    parts.append(ui(lg, "systems.contract", spec=f"{prefix}systems/{API_FILE}"))
    return "\n".join(parts)


def band_table(board: SystemsBoard, prefix: str, lg: str = DEFAULT) -> Table:
    """The home page's band: one row per system, end-to-end (strict) per language."""
    by_id: dict[str, dict[str, SystemRow]] = {}
    for r in board.rows:
        by_id.setdefault(r.id, {})[r.lang] = r
    rows, floor = [], []
    results = {e.id: e.results for e in board.entries}
    for sid in sorted(by_id, key=lambda s: -max(_e2e(r) for r in by_id[s].values())):
        langs = by_id[sid]
        first = next(iter(langs.values()))
        shown = tuple(lang for lang in LANGS if lang in langs)
        cov = system_phrase(lg, results[sid], shown) if sid in results else ""
        cells = {"system": _system_cell(first, prefix, lg, cov)}
        for lang in LANGS:
            r = langs.get(lang)
            cells[lang] = _rate(r.end_to_end["strict"]) if r else Cell.text(None)
            cells[f"recall_{lang}"] = _rate(r.recall) if r else Cell.text(None)
        (floor if first.floor else rows).append(Row(cells))
    cols = [column("systems.system", lg)]
    for lang in LANGS:
        cols += columns(lg, "systems.band_e2e", "systems.band_recall", lang=lang)
    return Table(
        id="home-systems",
        title=ui(lg, "systems.band_title"),
        columns=tuple(cols),
        rows=tuple(rows),
        baseline_rows=tuple(floor),
        band_label="systems.floor_band",
        note=ui(lg, "systems.band_note"),
        filterable=False,
        ui=lg,
    )


def _e2e(r: SystemRow) -> float:
    return -1.0 if r.floor else r.end_to_end["strict"].value or 0.0


def systems_band(board: SystemsBoard, out: Output, lg: str = DEFAULT) -> str:
    """The section appended to the home page (empty without systems)."""
    if not board.rows:
        return ""
    head = f"\n## {ui(lg, 'systems.band_heading')}\n\n{ui(lg, 'systems.band_intro')}\n"
    return head + out.table(band_table(board, "", lg), "")


def system_files(board: SystemsBoard, out: Output) -> None:
    """The contract and every system's model.yaml, results.json and predictions, for download."""
    out.files[f"systems/{API_FILE}"] = openapi_text().encode("utf-8")
    for e in board.entries:
        out.files[f"systems/{e.id}/results.json"] = (e.dir / "results.json").read_bytes()
        if e.model_yaml is not None:
            out.files[f"systems/{e.id}/model.yaml"] = (e.dir / "model.yaml").read_bytes()
        if e.predictions_file is not None:
            name = e.predictions_file.name
            out.files[f"systems/{e.id}/{name}"] = e.predictions_file.read_bytes()
