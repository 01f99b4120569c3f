"""The statement judge on the site: the model page's faithfulness section
(site/pages/model/faithfulness.py: the figures with the judge's kappa, the low-kappa caveat, the
partial-coverage line, the counts collapsed) and the methodology page's section
(site/pages/methodology/faithfulness_agreement.py), in both languages, from a real scripted-judge
run (judges/scripted-statements.yaml) written into a synthetic board; one line each when no file
is committed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.core.judge_config import load_judge_config
from leaderboard.judge.faithfulness import LabelledStatement
from leaderboard.judge.faithfulness_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    RESULTS_NAME,
    agreement_record,
    faithfulness_summary,
    write_agreement,
    write_faithfulness_results,
)
from leaderboard.site.build import render
from leaderboard.site.pages.methodology.faithfulness_agreement import TABLE_ID
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.pages.model.page import model_page
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, Output
from tests.judge.test_faithfulness_figures import JUDGE, judged
from tests.site.zh_scan import _Reader, english_words
from tests.site_factory import make_repo


def _board(root: Path, limit: int | None, with_agreement: bool = True) -> Path:
    """One synthetic entry whose faithfulness_results.json holds the scripted judge's figures
    (its first `limit` statements judged), and the judge's agreement record."""
    root = make_repo(root, n_models=1, n=3, predictions=False)
    entry = root / "submissions" / "model-000"
    fp = json.loads((entry / "results.json").read_text(encoding="utf-8"))["provenance"]
    items, store = judged(root / "run", limit)
    judge = load_judge_config(JUDGE)
    summary = faithfulness_summary(judge, items, store, {})
    write_faithfulness_results(entry / RESULTS_NAME, "model-000", fp["fingerprint"], summary)
    if with_agreement:  # the labelled statements all judged (a store of their own)
        items, store = judged(root / "labelled")
        labels = [
            LabelledStatement(
                folder="f",
                key=it.key,
                lang=it.lang,
                statement=it.index,
                statement_text=it.statement,
                label="supported" if i % 2 else "unsupported",  # poor agreement on purpose
                split="test",
            )
            for i, it in enumerate(items)
        ]
        files = [root / "labels.jsonl"]
        files[0].write_text("", encoding="utf-8")
        record = agreement_record(judge, files, labels, "test", store, {}, 100)
        write_agreement(root / AGREEMENT_DIR / judge.id / AGREEMENT_NAME, record)
    return root


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _board(tmp_path_factory.mktemp("faith"), limit=3)


def _section(page: str, heading: str) -> str:
    return page.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_model_page_shows_figures_kappa_and_caveats(board: Path) -> None:
    data = load_site_data(board)
    (entry,) = data.submissions
    (summary,) = entry.faithfulness
    (record,) = data.faithfulness_agreements
    for lg in ("en", "zh"):
        page = model_page(Context(data, Output(), lg), entry)
        section = _section(page, ui(lg, "faith.h"))
        assert 'id="model-model-000-faithfulness"' in section
        assert 'id="model-model-000-faithfulness-counts"' in section  # the counts, collapsed
        assert section.index("<details") > section.index('id="model-model-000-faithfulness"')
        zh_row = next(r for r in summary.rows if r.lang == "zh")
        judged_of = ui(lg, "faith.judged_of", judged=zh_row.judged_statements, eligible=6)
        assert judged_of in section
        kappa = next(k for k in record.agreement if k.lang == "zh")
        assert kappa.kappa is not None and kappa.kappa < 0.4
        assert f"{kappa.kappa:.2f}" in section
        assert (
            ui(
                lg,
                "faith.partial",
                lang=ui(lg, "lang.zh"),
                judged=4,
                eligible=6,
                answers=1,
                eligible_answers=3,
            )
            in section
        )
    # the page language's own words
    assert "read the code check's figures first" in _section(
        model_page(Context(data, Output(), "en"), entry), ui("en", "faith.h")
    )
    assert "请先看代码检查的数字" in _section(
        model_page(Context(data, Output(), "zh"), entry), ui("zh", "faith.h")
    )


def test_the_methodology_page_shows_the_agreement(board: Path) -> None:
    data = load_site_data(board)
    (record,) = data.faithfulness_agreements
    for lg in ("en", "zh"):
        section = _section(
            methodology_page(Context(data, Output(), lg)), ui(lg, "faithagree.heading")
        )
        assert f'id="{TABLE_ID}"' in section and 'id="faithfulness-label-confusions"' in section
        rows = re.findall(r"<tr><td>(.*?)</tr>", section)
        zh = next(r for r in rows if "<td>zh</td>" in r)
        k = next(k for k in record.agreement if k.lang == "zh")
        numbers = (k.n_labelled, k.n_stale, k.n, k.n_unparsable)
        assert "".join(f'<td data-sort="{v}">{v}</td>' for v in numbers) in zh
        assert f'data-sort="{round(k.kappa, 6)}"' in zh  # type: ignore[arg-type]
    out = render(load_site_data(board))
    assert f"downloads/{TABLE_ID}.json" in out.files


def test_the_zh_sections_are_in_chinese(board: Path) -> None:
    data = load_site_data(board)
    (entry,) = data.submissions
    names = [entry.faithfulness[0].display_name, entry.name]
    for page, heading in (
        (model_page(Context(data, Output(), "zh"), entry), ui("zh", "faith.h")),
        (methodology_page(Context(data, Output(), "zh")), ui("zh", "faithagree.heading")),
    ):
        section = _section(page, heading)
        reader = _Reader()
        reader.feed(re.sub(r"`([^`]*)`", r"<code>\1</code>", section))
        found = [w for _, text in reader.pieces for w in english_words(text, names)]
        assert not found, found


def test_without_files_the_sections_say_so(tmp_path: Path) -> None:
    data = load_site_data(make_repo(tmp_path, n_models=1, n=3, predictions=False))
    (entry,) = data.submissions
    for lg in ("en", "zh"):
        model = _section(model_page(Context(data, Output(), lg), entry), ui(lg, "faith.h"))
        assert model.split("<details")[0].strip() == f"<p>{ui(lg, 'faith.none')}</p>"
        method = _section(
            methodology_page(Context(data, Output(), lg)), ui(lg, "faithagree.heading")
        )
        assert method.split("\n### ")[0].strip().endswith(ui(lg, "faithagree.none"))


def test_an_unmeasured_judge_is_said_and_a_complete_run_is_not_partial(tmp_path: Path) -> None:
    data = load_site_data(_board(tmp_path, limit=None, with_agreement=False))
    (entry,) = data.submissions
    section = _section(model_page(Context(data, Output(), "en"), entry), ui("en", "faith.h"))
    assert "agreement with the hand labels is not measured" in section
    assert "partial," not in section
