"""The knowledge-conflict page "When the passages disagree" in both languages, its example
browser, the model page's line and the home page's way in: over the committed answers of two
trivial baselines (their conflicts/rgb folders, rebuilt instances, real outcome labels) and a
small synthetic model entry (partial, with an answer holding markup)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import markdown
import pytest

from leaderboard.board.conflicts import ConflictPanel, conflict_panels
from leaderboard.board.load import load_site_data
from leaderboard.core.schema import ConflictCoverage, ConflictEffect, ConflictFigure
from leaderboard.scoring.conflict_outcome import LABELS
from leaderboard.site.pages.conflicts.examples import (
    EXAMPLES,
    Example,
    ShownAnswer,
    example_html,
    pick_examples,
)
from leaderboard.site.pages.conflicts.page import conflicts_page, home_link, model_line
from leaderboard.site.pages.conflicts.panels import PANELS, coverage_counts, eligible_counts
from leaderboard.site.pages.home import home_page
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import SITE_LANGS, ui
from leaderboard.site.render.page import Context, Output
from tests.site.zh_scan import _Reader, _svg_text, english_words, repository_data

BASELINES = ("baseline-copy-first", "baseline-refuse-error")
SCRIPT = "<script>alert('x')</script>"
SYNTH = "synthetic-model"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, repo_root: Path, data_root: Path) -> Path:
    root = tmp_path_factory.mktemp("conflicts")
    for b in BASELINES:
        shutil.copytree(repo_root / "submissions" / b, root / "submissions" / b)
    return root


@pytest.fixture(scope="module")
def built(repo: Path, data_root: Path):
    """The baselines' data as the build computes it: panels and examples."""
    data = load_site_data(repo)
    panels = conflict_panels(data.submissions, data_root)
    examples = pick_examples(data.submissions, panels, data_root)
    return data, panels, examples


def _synthetic(examples: list[Example]) -> tuple[ConflictPanel, Example]:
    """A model that answered 10 of zh t1f1's questions so far, and its answer with markup."""
    shares = {"true_only": 0.5, "fake_only": 0.3, "both_merged": 0.2}
    figures = tuple(
        ConflictFigure(
            lang="zh",
            condition="t1f1",
            metric=m,
            value=v,
            ci=(max(0.0, v - 0.2), min(1.0, v + 0.2)),
            n=10,
            definition="",
        )
        for m, v in [
            *((m, shares.get(m, 0.0)) for m in LABELS),
            ("truthful", 0.5),
            ("misled", 0.3),
            ("flagged", 0.0),
        ]
    )
    order = ConflictEffect(
        lang="zh",
        effect="order",
        metric="truthful",
        value=0.1,
        ci=(-0.05, 0.25),
        n=10,
        definition="",
    )
    cover = ConflictCoverage(lang="zh", condition="t1f1", eligible=79, left_out=21, answered=10)
    panel = ConflictPanel(
        entry_id=SYNTH,
        name="Synthetic <b>model</b>",
        figures={"rgb": figures},
        effects={"rgb": (order,)},
        coverage={"rgb": (cover,)},
    )
    base = next(e for e in examples if e.instance.lang == "zh" and e.instance.condition == "t1f1")
    answer = ShownAnswer(SYNTH, "Synthetic <b>model</b>", "rgb", SCRIPT, "other", False, False)
    return panel, Example(base.instance, (answer, *base.answers))


@pytest.fixture(scope="module")
def with_model(built):
    data, panels, examples = built
    panel, example = _synthetic(examples)
    extra = {**data.extra, PANELS: [panel, *panels], EXAMPLES: [example, *examples[1:]]}
    return dataclasses.replace(data, extra=extra), panel


def _ctx(data, lg: str, out: Output | None = None) -> Context:
    return Context(data, out or Output(), lg)


@pytest.mark.parametrize("lg", SITE_LANGS)
def test_baselines_only_first_screen_then_details(built, lg: str) -> None:
    data, panels, examples = built
    data = dataclasses.replace(data, extra={**data.extra, PANELS: panels, EXAMPLES: examples})
    out = Output()
    page = conflicts_page(_ctx(data, lg, out))
    assert ui(lg, "conf.h1") in page
    # the first screen: the lead, the bars (zh beside en), then the effects, then the details
    lead = page.index(esc(ui(lg, "conf.lead"))[:30])
    bars = page.index('class="lb-pair"')
    effects = page.index('id="conflict-effects"')
    details = page.index("<details")
    assert lead < bars < effects < details
    folder = "charts/" if lg == "en" else f"charts/{lg}/"
    assert sorted(out.pending_charts) == [f"{folder}conflicts-en.svg", f"{folder}conflicts-zh.svg"]
    # no model yet: said in a few words; the baselines are the floor band, never model rows
    assert esc(ui(lg, "conf.no_models")) in page
    table = next(t for t in out.tables if t.id == "conflict-effects")
    assert table.rows and not table.baseline_rows  # no model: the floor's rows, every one shown
    assert all(r.css == "lb-baseline-row" for r in table.rows)
    effects_shown = {r.cells["effect"].sort for r in table.rows}
    assert {"fake_cost", "order", "majority"} <= effects_shown
    ids = {t.id for t in out.tables}
    assert {"conflict-figures-zh", "conflict-figures-en", "conflict-coverage"} <= ids
    # the effects carry intervals and n in every language column (zh, en, zh − en)
    order = next(r for r in table.rows if r.cells["effect"].sort == "order")
    for key in ("truthful_zh", "truthful_en", "truthful_zh_en"):
        cell = order.cells[key].value
        assert cell["ci_low"] is not None and cell["n"] > 0
    # the example browser: the passages marked by role, the data quoted with its language
    assert ui(lg, "conf.examples_h") in page
    assert "lb-role-true" in page and "lb-role-fake" in page
    for lang in ("zh", "en"):
        assert f'<span class="lb-quote" lang="{lang}">' in page


def test_the_copy_first_floor_reads_its_own_answers(built) -> None:
    """Copying the first passage takes whichever side is read first: on t1f1 it gives the true
    answer only, on f1t1 the planted one only, never both, never a flag."""
    _, panels, _ = built
    p = next(p for p in panels if p.entry_id == "baseline-copy-first")
    for lang in ("zh", "en"):
        assert p.figure(lang, "t1f1", "fake_only").value == 0.0
        assert p.figure(lang, "f1t1", "true_only").value == 0.0
        assert p.figure(lang, "t1f1", "flagged").value == 0.0
        assert p.effect(lang, "order", "truthful").value > 0


@pytest.mark.parametrize("lg", SITE_LANGS)
def test_a_partial_model_is_said_and_its_answer_escaped(with_model, lg: str) -> None:
    data, panel = with_model
    out = Output()
    page = conflicts_page(_ctx(data, lg, out))
    # markup in a model's answer and name is text, never HTML
    assert SCRIPT not in page and "<b>model</b>" not in page
    assert esc(SCRIPT) in page and "Synthetic &lt;b&gt;model&lt;/b&gt;" in page
    # partial data in a few words, with what is answered of what is expected
    done, expected = coverage_counts(panel, eligible_counts(data.extra[PANELS]))
    assert done == 10 and expected > 10 * 79  # every condition of both instructions, zh and en
    name = "Synthetic <b>model</b>"
    assert esc(ui(lg, "conf.partial", name=name, done=done, expected=expected)) in page
    assert esc(ui(lg, "conf.no_models")) not in page  # a model is measured now
    effects = next(t for t in out.tables if t.id == "conflict-effects")
    assert effects.baseline_rows and all(r.css != "lb-baseline-row" for r in effects.rows)
    # its bars give n; the baselines stay out of the model bars
    charts = out.pending_charts.items()
    labels = next(args for path, (_, args) in charts if "conflicts-zh" in path)[0]
    assert labels and all("n = 10" in label for label in labels)
    table = next(t for t in out.tables if t.id == "conflict-figures-zh")
    assert [r.cells["n"].value for r in table.rows] == [10]


def test_an_answer_with_markup_is_quoted_text(with_model) -> None:
    data, _ = with_model
    example = data.extra[EXAMPLES][0]
    for lg in SITE_LANGS:
        html = example_html(example, lg, "")
        assert SCRIPT not in html
        assert f'<span class="lb-quote lb-output" lang="zh">{esc(SCRIPT)}</span>' in html
        assert ui(lg, "conf.label.other") in html


def test_model_line_and_home_link(built) -> None:
    data, panels, _ = built
    data = dataclasses.replace(data, extra={**data.extra, PANELS: panels})
    p = next(p for p in panels if p.entry_id == "baseline-copy-first")
    n_zh = p.figure("zh", "t1f1", "truthful").n
    for lg in SITE_LANGS:
        line = model_line(_ctx(data, lg), "baseline-copy-first", "../")
        assert 'href="../conflicts.md"' in line and f"n = {n_zh}" in line
        assert ui(lg, "lang.zh") in line and ui(lg, "lang.en") in line
        assert model_line(_ctx(data, lg), "no-such-entry", "../") == ""
        assert 'href="conflicts.md"' in home_link(_ctx(data, lg), "")
        assert 'href="conflicts.md"' in home_page(_ctx(data, lg))


def test_without_conflict_answers_the_page_says_so(repo: Path) -> None:
    data = load_site_data(repo)
    for lg in SITE_LANGS:
        page = conflicts_page(_ctx(data, lg))
        assert esc(ui(lg, "conf.none")) in page and "t1f1" in page
        assert home_link(_ctx(data, lg), "") == ""


def test_the_zh_page_says_everything_in_chinese(with_model, repo: Path) -> None:
    """zh_scan's reading of the zh page (its HTML as Markdown renders it) and of its charts."""
    data, _ = with_model
    out = Output()
    page = conflicts_page(_ctx(data, "zh", out))
    out.draw_charts()
    body = page.split("---\n", 2)[2]  # the front matter is not shown
    reader = _Reader()
    reader.feed(markdown.markdown(body, extensions=["md_in_html", "tables", "attr_list"]))
    strings = [*repository_data(repo), "Synthetic <b>model</b>", "Synthetic", SYNTH]
    found = [(w, t) for where, t in reader.pieces for w in english_words(t, strings)]
    for path, svg in out.files.items():
        found += [(w, path) for t in _svg_text(svg.decode()) for w in english_words(t, strings)]
    assert not found, found[:20]
