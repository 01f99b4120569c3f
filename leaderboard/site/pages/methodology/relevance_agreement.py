"""The methodology page's section on the relevance judge: what it reads and its limits, then each
committed judges/relevance/agreement/<judge id>/agreement.json (`relevance --labels`, recomputed
by `verify`): per language, on the held-out test part first, the observed agreement and Cohen's
kappa of relevant against not against the grounding labels, with n; the dev and all parts and the
confusion counts one click away. Where the kappa on the test part is low or undefined, a line
says so. One line when no file is committed."""

from __future__ import annotations

from collections.abc import Sequence

from leaderboard.core.judge_schema import RelevanceAgreement, RelevanceKappa
from leaderboard.site.pages.methodology.judge_agreement import kappa_cell
from leaderboard.site.render.columns import columns
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import DEFAULT, ui
from leaderboard.site.render.page import Output, judge_name
from leaderboard.site.render.tables import Cell, Row, Table

TABLE_ID = "relevance-label-agreement"
SPLITS_ID = "relevance-label-agreement-splits"
CONFUSION_ID = "relevance-label-confusions"
LABELS = ("relevant", "not_relevant")
JUDGE_SIDE = (*LABELS, "unparsable", "unjudged")
LOW_KAPPA = 0.4  # as the model pages' judges: below it the verdicts agree poorly


def _order(k: RelevanceKappa) -> tuple[int, int]:
    return (("test", "dev", "all").index(k.split), ("zh", "en").index(k.lang))


def _rows(records: Sequence[RelevanceAgreement], splits: tuple[str, ...], lg: str) -> list[Row]:
    rows = []
    for record in sorted(records, key=lambda r: r.judge_id):
        for k in sorted(record.agreement, key=_order):
            if k.split not in splits:
                continue
            observed = None if k.observed is None else round(100 * k.observed, 1)
            rows.append(
                Row(
                    {
                        "judge": Cell.text(judge_name(record.display_name)),
                        "split": Cell.text(ui(lg, f"relagree.split_{k.split}")),
                        "lang": Cell.text(k.lang),
                        "n_labelled": Cell.text(k.n_labelled, k.n_labelled),
                        "n": Cell.text(k.n, k.n),
                        "unparsable": Cell.text(k.n_unparsable, k.n_unparsable),
                        "observed": Cell(
                            k.observed,
                            esc("—" if observed is None else f"{observed:.1f}%"),
                            observed,
                        ),
                        "kappa": kappa_cell(k, lg),  # type: ignore[arg-type]
                    }
                )
            )
    return rows


_IDS = ("judge", "split", "lang", "n_labelled", "n", "unparsable", "observed", "kappa")


def agreement_table(
    records: Sequence[RelevanceAgreement],
    lg: str = DEFAULT,
    splits: tuple[str, ...] = ("test",),
    table_id: str = TABLE_ID,
    title: str = "relagree.title",
) -> Table:
    """A row per judge, split (of `splits`) and language: labelled, judged, unparsable, observed
    agreement, kappa with its interval."""
    return Table(
        id=table_id,
        title=ui(lg, title),
        columns=columns(lg, *(f"relagree.{i}" for i in _IDS)),
        rows=tuple(_rows(records, splits, lg)),
        note=ui(lg, "relagree.note"),
        ui=lg,
    )


def confusion_table(records: Sequence[RelevanceAgreement], lg: str = DEFAULT) -> Table:
    """The judge's verdict (rows) against the label (columns), per judge, split and language."""
    rows = []
    for record in sorted(records, key=lambda r: r.judge_id):
        for k in sorted(record.agreement, key=_order):
            for verdict in JUDGE_SIDE:
                counts = [k.confusion.get(f"{verdict}/{label}", 0) for label in LABELS]
                if verdict in ("unparsable", "unjudged") and not any(counts):
                    continue
                cells = {
                    "judge": Cell.text(judge_name(record.display_name)),
                    "split": Cell.text(ui(lg, f"relagree.split_{k.split}")),
                    "lang": Cell.text(k.lang),
                    "verdict": Cell.text(ui(lg, f"relagree.verdict_{verdict}")),
                }
                cells |= {label: Cell.text(n, n) for label, n in zip(LABELS, counts, strict=True)}
                rows.append(Row(cells))
    ids = ("relagree.judge", "relagree.split", "relagree.lang", "relagree.verdict")
    ids += tuple(f"relagree.label_{label}" for label in LABELS)
    return Table(
        id=CONFUSION_ID,
        title=ui(lg, "relagree.confusion_title"),
        columns=columns(lg, *ids),
        rows=tuple(rows),
        note=ui(lg, "relagree.confusion_note"),
        ui=lg,
    )


def poor_agreement(records: Sequence[RelevanceAgreement], lg: str = DEFAULT) -> list[str]:
    """One line per judge and language whose kappa on the held-out test part is below LOW_KAPPA
    or undefined."""
    lines = []
    for record in sorted(records, key=lambda r: r.judge_id):
        for k in sorted(record.agreement, key=_order):
            if k.split != "test":
                continue
            name = esc(judge_name(record.display_name))
            if k.kappa is None:
                lines.append(ui(lg, "relagree.kappa_none", judge=name, lang=k.lang, n=k.n))
            elif k.kappa < LOW_KAPPA:
                lines.append(
                    ui(lg, "relagree.kappa_low", judge=name, lang=k.lang, kappa=f"{k.kappa:.2f}")
                )
    return lines


def relevance_agreement_section(
    records: Sequence[RelevanceAgreement], out: Output, lg: str = DEFAULT
) -> str:
    """The section: what the judge reads and its limits, the held-out table, the poor-agreement
    lines, then dev, all and the confusions collapsed; or the line saying that no agreement file
    of the relevance judge is committed."""
    parts = [f"\n## {ui(lg, 'relagree.heading')}\n", f"\n{ui(lg, 'relagree.text')}\n"]
    if not records:
        return "".join(parts) + f"\n{ui(lg, 'relagree.none')}\n"
    parts.append(out.table(agreement_table(records, lg), ""))
    parts += [f"\n<p>{line}</p>\n" for line in poor_agreement(records, lg)]
    summary = esc(ui(lg, "relagree.details"))
    parts.append(f'\n<details class="lb-all"><summary>{summary}</summary>\n')
    splits = agreement_table(records, lg, ("dev", "all"), SPLITS_ID, "relagree.splits_title")
    parts.append(out.table(splits, "").strip("\n"))
    parts.append(out.table(confusion_table(records, lg), "").strip("\n"))
    parts.append("</details>\n")
    return "".join(parts)
