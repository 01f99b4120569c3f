"""The relevance judge on the site: the model page's relevance section
(site/pages/model/relevance.py: relevance by judge beside relevance by code, judged of eligible,
the judge's kappa, the caveats, the per-ability figures collapsed) and the methodology page's
section (site/pages/methodology/relevance_agreement.py: held-out first, dev and all and the
confusions collapsed, poor agreement said), in both languages, from a real scripted-judge run
(judges/scripted-relevance.yaml) written into a synthetic board; one line each without files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.core.judge_config import load_judge_config
from leaderboard.judge.relevance import LabelledRelevance
from leaderboard.judge.relevance_figures import (
    AGREEMENT_DIR,
    AGREEMENT_NAME,
    RESULTS_NAME,
    agreement_record,
    relevance_summary,
    write_agreement,
    write_relevance_results,
)
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.pages.methodology.relevance_agreement import SPLITS_ID, TABLE_ID
from leaderboard.site.pages.model.page import model_page
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, Output, judge_name
from tests.judge.test_relevance import JUDGE, judged, scored
from tests.site.zh_scan import _Reader, english_words
from tests.site_factory import make_repo


def _board(root: Path, limit: int | None, with_agreement: bool = True) -> Path:
    """One synthetic entry whose relevance_results.json holds the scripted judge's figures (its
    first `limit` answers judged), and the judge's agreement record (poor on purpose)."""
    root = make_repo(root, n_models=1, n=3, predictions=False)
    entry = root / "submissions" / "model-000"
    fp = json.loads((entry / "results.json").read_text(encoding="utf-8"))["provenance"]
    items, store = judged(root / "run", limit)
    judge = load_judge_config(JUDGE)
    summary = relevance_summary(judge, scored(), items, store, {})
    write_relevance_results(entry / RESULTS_NAME, "model-000", fp["fingerprint"], summary)
    if with_agreement:
        items, store = judged(root / "labelled")
        labels = [
            LabelledRelevance(it.key, "test" if i < 4 else "dev", i % 2 == 0, it)
            for i, it in enumerate(items)
        ]
        files = [root / "grounding_zh.jsonl"]
        files[0].write_text("", encoding="utf-8")
        record = agreement_record(judge, files, labels, "all", store, {}, 100)
        write_agreement(root / AGREEMENT_DIR / judge.id / AGREEMENT_NAME, record)
    return root


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _board(tmp_path_factory.mktemp("relevance"), limit=1)


def _section(page: str, heading: str) -> str:
    return page.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_model_page_shows_judge_beside_code(board: Path) -> None:
    data = load_site_data(board)
    (entry,) = data.submissions
    (summary,) = entry.relevance
    for lg in ("en", "zh"):
        section = _section(model_page(Context(data, Output(), lg), entry), ui(lg, "rel.h"))
        main = 'id="model-model-000-relevance"'
        assert main in section and 'id="model-model-000-relevance-abilities"' in section
        assert section.index("<details") > section.index(main)
        zh = next(r for r in summary.rows if r.lang == "zh" and r.ability == "all")
        assert ui(lg, "faith.judged_of", judged=zh.judged, eligible=zh.eligible) in section
        for col in ("rel.judge_share", "rel.code", "rel.combined"):
            assert ui(lg, col) in section
        partial = ui(lg, "rel.partial", lang=ui(lg, "lang.zh"), judged=2, eligible=4)
        assert partial in section
        name = esc(judge_name(summary.display_name))
        en_lang = ui(lg, "lang.en")  # no en label of the test part: unmeasured
        assert ui(lg, "rel.kappa_none", judge=name, lang=en_lang) in section


def test_the_methodology_page_shows_held_out_first(board: Path) -> None:
    data = load_site_data(board)
    (record,) = data.relevance_agreements
    for lg in ("en", "zh"):
        section = _section(
            methodology_page(Context(data, Output(), lg)), ui(lg, "relagree.heading")
        )
        assert section.index(f'id="{TABLE_ID}"') < section.index("<details")
        assert section.index("<details") < section.index(f'id="{SPLITS_ID}"')
        assert 'id="relevance-label-confusions"' in section
        test_zh = next(k for k in record.agreement if k.split == "test" and k.lang == "zh")
        assert f'<td data-sort="{test_zh.n}">{test_zh.n}</td>' in section
    en = _section(methodology_page(Context(data, Output(), "en")), ui("en", "relagree.heading"))
    assert "the agreement is not measured" in en or "agrees poorly" in en


def test_the_zh_sections_are_in_chinese(board: Path) -> None:
    data = load_site_data(board)
    (entry,) = data.submissions
    names = [entry.relevance[0].display_name, entry.name]
    for page, heading in (
        (model_page(Context(data, Output(), "zh"), entry), ui("zh", "rel.h")),
        (methodology_page(Context(data, Output(), "zh")), ui("zh", "relagree.heading")),
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
        model = _section(model_page(Context(data, Output(), lg), entry), ui(lg, "rel.h"))
        assert model.split("<details")[0].strip() == f"<p>{ui(lg, 'rel.none')}</p>"
        method = _section(methodology_page(Context(data, Output(), lg)), ui(lg, "relagree.heading"))
        assert method.split("\n### ")[0].strip().endswith(ui(lg, "relagree.none"))
