"""The message tables of the site languages (leaderboard/site/messages/*.yaml) and the translated
pages: same keys and placeholders, Chinese punctuation, the same numbers in both languages.

Translated so far (issue 16): the home page (index), the reference-mode page (ranking-rgb) and
zh versus en (zh-vs-en), with their tables, badges and notes, and the navigation
(site/mkdocs.yml). Also translated (group pages_b): the methodology page with the
scorer-agreement table, the retrieval page and its per-question pages, From retrieval to answer
(retrieval-to-answer) and the submission reference (field descriptions from
site/messages/submission_fields/zh.yaml); and (group pages_a) the eight ability pages
(abilities/<lang>-<ability>, with their decision tables and charts), every model page and the
models index (models/), the instance browser (instances/, its pages, index and the strings of
assets/lb.js) and the downloads page. Every other page falls back to its English text in the
Chinese site.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
import string
from pathlib import Path

import pytest

from leaderboard.board.load import load_site_data
from leaderboard.core.schema import ProbeEntry, Results
from leaderboard.retrieval.results import RESULTS_DIR, load_retrieval_board
from leaderboard.site.build import build_site, render
from leaderboard.site.pages.home import home_page
from leaderboard.site.pages.methodology.page import methodology_page
from leaderboard.site.pages.retrieval.page import retrieval_page
from leaderboard.site.pages.retrieval.questions import question_pages
from leaderboard.site.pages.retrieval_to_answer import probes_page
from leaderboard.site.pages.submission_ref import reference_page
from leaderboard.site.pages.zh_en.page import zh_vs_en_page
from leaderboard.site.render.i18n import SITE_LANGS, localized, table, ui, ui_count
from leaderboard.site.render.page import Context, Output, Page
from tests.site_factory import make_repo

REPO = Path(__file__).resolve().parents[2]
CJK = "\u4e00-\u9fff"
# ASCII punctuation touching a Chinese character: in Chinese prose it should be full-width
HALF_WIDTH = re.compile(rf"[{CJK}][,;:!?()]|[,;:!?()][{CJK}]")
TERMS = ("噪声鲁棒性", "否定拒答", "信息整合", "反事实鲁棒性")


def _figures(zh: str) -> str:
    """A Chinese page's figures as the English page writes them: a zh page prints a negative
    number with U+2212 and joins negative bounds with "至" (issue 26); the numbers are the same."""
    return zh.replace("\u2212", "-").replace(" 至 ", " to ")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_the_same_keys_and_placeholders():
    en = table("en")
    for lang in SITE_LANGS:
        t = table(lang)
        assert set(t) == set(en), lang
        for key, text in t.items():
            assert _fields(text) == _fields(en[key]), (lang, key)


def test_chinese_prose_uses_full_width_punctuation_and_the_rgb_terms():
    zh = table("zh")
    for key, text in zh.items():
        # code and link targets (a page, or a {placeholder} filled with one) stay ASCII
        prose = re.sub(r"`[^`]*`|\]\((?:[^)]*\.md|\{\w+\})\)|\([^)]*\.md\)", "", text)
        assert not HALF_WIDTH.search(prose), (key, HALF_WIDTH.search(prose).group(0))
    for term in TERMS:
        assert term in zh["home.intro"]
    assert [zh[f"short.{a}"] for a in ("noise", "rejection", "integration", "counterfactual")] == [
        *TERMS
    ]


def test_missing_key_falls_back_to_english_and_unknown_language_fails():
    assert ui("zh", "col.n") == "n"
    with pytest.raises(KeyError):
        table("fr")
    assert localized("index.md", "en") == "index.md"
    assert localized("index.md", "zh") == "index.zh.md"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return load_site_data(make_repo(tmp_path_factory.mktemp("i18n"), n_models=3, n=4))


def test_translated_pages_show_the_same_numbers(data):
    zh, en = Context(data, Output(), "zh"), Context(data, Output())
    pages = {
        "index.zh.md": home_page(zh, "strict"),
        "ranking-rgb.zh.md": home_page(zh, "rgb"),
        "zh-vs-en.zh.md": zh_vs_en_page(zh),
    }
    english = {
        "index": home_page(en, "strict"),
        "ranking-rgb": home_page(en, "rgb"),
        "zh-vs-en": zh_vs_en_page(en),
    }
    for path, en in english.items():
        zh = _figures(pages[f"{path}.zh.md"])
        sort = re.compile(r'data-sort="([^"]*)"')
        numbers = re.compile(r'<span class="lb-ci">([^<]*)</span>|>(-?\d+\.\d)<')
        assert sort.findall(zh) == sort.findall(en) and sort.findall(en)
        assert numbers.findall(zh) == numbers.findall(en)
        assert re.findall(r'id="([^"]+)"', zh) == re.findall(r'id="([^"]+)"', en)
    zh = pages["index.zh.md"]
    assert "# RGB 中英双语 RAG 鲁棒性排行榜" in zh and "筛选行" in zh and "## 中文（zh）" in zh
    assert "Filter rows" not in zh and "Download:" not in zh and "trivial baseline" not in zh
    zhen = pages["zh-vs-en.zh.md"]
    assert "# 中文与英文对比" in zhen and "表现更稳的语言" in zhen and "Holds up better" not in zhen


# ---- group pages_b: methodology, retrieval, From retrieval to answer, submission reference ----
PROBE_METRICS = {
    "chain": (
        "recall_at_k",
        "accuracy_given_support",
        "end_to_end",
        "loss_retrieval",
        "loss_generation",
        "retrieval_miss",
        "generation_miss",
        "correct",
        "correct_without_support",
    ),
    "replacement": ("own_accuracy", "memory_accuracy", "context_reliance", "refusal"),
    "cliff": ("largest_drop", "below_half_at"),
}
GROUP_B = ("method.", "agree.", "retr.", "probes.", "subref.")


def _probes(seed: int) -> list[ProbeEntry]:
    """Every probe figure of both languages and modes, seeded (the synthetic results have none);
    one language never falls below half (below_half_at None: the "none" cell)."""
    rng = random.Random(seed)
    out = []
    for lang in ("zh", "en"):
        for mode in ("rgb", "strict"):
            for probe, metrics in PROBE_METRICS.items():
                for metric in metrics:
                    v = round(rng.random(), 4)
                    value, ci, rates = v, (max(0.0, v - 0.1), min(1.0, v + 0.1)), ()
                    if metric == "largest_drop":
                        rates = (0.2, 0.4)
                    if metric == "below_half_at":
                        value, ci = (0.6 if lang == "zh" else None), None
                    out.append(
                        ProbeEntry(
                            lang=lang,
                            mode=mode,
                            probe=probe,
                            metric=metric,
                            value=value,
                            ci=ci,
                            n_questions=9,
                            rates=rates,
                            definition=f"{probe} {metric}",
                        )
                    )
    return out


@pytest.fixture(scope="module")
def probed(data):
    """The synthetic entries with probe figures, so the probes tables have rows."""
    subs = tuple(
        dataclasses.replace(s, results=s.results.model_copy(update={"probes": _probes(i)}))
        for i, s in enumerate(data.submissions)
    )
    return dataclasses.replace(data, submissions=subs)


@pytest.fixture(scope="module")
def board():
    """The committed retrieval results (retrieval/): every table and heat map of the page."""
    found = load_retrieval_board(REPO / RESULTS_DIR)
    assert found.results and found.paired and found.grids
    return found


def _pages_b(data, board) -> dict[str, tuple[str, str]]:
    """Docs path -> (English page, page in zh) of every page of group pages_b."""
    two = board.model_copy(update={"results": board.results[:2]})
    questions = question_pages(Context(dataclasses.replace(data, root=None), Output(), "en", two))
    pages = (
        Page("methodology.md", methodology_page),
        Page("retrieval-to-answer.md", probes_page),
        Page("retrieval.md", retrieval_page),
        Page("submission-reference.md", reference_page),
        *questions,
    )
    docs = {}
    for lg in SITE_LANGS:
        ctx = Context(data, Output(), lg, board)
        docs[lg] = {localized(p.path, lg): p.build(ctx) for p in pages}
    zh, en = docs["zh"], docs["en"]
    assert set(zh) == {localized(p, "zh") for p in en}  # one .zh.md for each page
    return {p: (en[p], zh[localized(p, "zh")]) for p in en}


def test_pages_b_show_the_same_numbers_in_both_languages(probed, board):
    sort = re.compile(r'data-sort="([^"]*)"')
    numbers = re.compile(r'<span class="lb-ci">([^<]*)</span>|>(-?\d+\.\d)<|\| (0\.\d+) \|')
    for path, (en, zh) in _pages_b(probed, board).items():
        zh = _figures(zh)
        assert sort.findall(zh) == sort.findall(en), path
        assert numbers.findall(zh) == numbers.findall(en), path
        assert re.findall(r'id="([^"]+)"', zh) == re.findall(r'id="([^"]+)"', en), path
        assert re.findall(r'(?:src|href)="([^"]+)"', zh) == [
            h.replace(".svg", "-zh.svg") if "charts/" in h else h
            for h in re.findall(r'(?:src|href)="([^"]+)"', en)
        ], path
    assert sort.findall(_pages_b(probed, board)["retrieval-to-answer.md"][1])


def _english_phrases() -> list[tuple[str, str]]:
    """Each English value of group pages_b longer than three words, cut at its placeholders and
    Markdown line breaks (the pieces are what could show through untranslated)."""
    out = []
    for key, text in table("en").items():
        if not key.startswith(GROUP_B):
            continue
        for piece in re.split(r"\{[^}]*\}|\n", text):
            piece = piece.strip(" -*")
            if len(piece.split()) > 3:
                out.append((key, piece))
    return out


def test_no_english_interface_text_of_group_b_in_the_zh_pages(probed, board):
    phrases = _english_phrases()
    assert len(phrases) > 50
    for path, (en, zh) in _pages_b(probed, board).items():
        shown = [(k, p) for k, p in phrases if p in en]
        assert shown, path  # the check reads the pages' own strings
        leaked = [(k, p) for k, p in shown if p in zh]
        assert not leaked, (path, leaked[:3])
        assert re.search(rf"[{CJK}]{{4}}", zh)


@pytest.mark.parametrize(
    ("key", "must"),
    [
        ("method.measured", TERMS),
        ("method.strict", ("严格模式", "约登指数", "过度拒答率")),
        ("method.modes", ("参考模式（rgb）", "严格模式")),
        ("probes.intro", ("检索失误", "生成失误", "上下文依赖度", "否定拒答")),
        ("retr.intro", ("P@k", "R@k", "MRR", "NDCG@k")),
    ],
)
def test_group_b_terms(key, must):
    """The RGB terms and the metric symbols as zh.yaml already uses them."""
    for term in must:
        assert term in table("zh")[key], (key, term)


def test_untrusted_text_stays_escaped_in_the_zh_pages(probed, board):
    """The synthetic model 000 is named with an XSS payload; the audit and the probe tables show
    model names, the retrieval pages ranked passage references."""
    for path, (_, zh) in _pages_b(probed, board).items():
        assert "<script>alert" not in zh, path
    zh = _pages_b(probed, board)["retrieval-to-answer.md"][1]
    assert "&lt;script&gt;" in zh


@pytest.mark.slow
def test_the_build_writes_each_zh_page_and_the_switch_keeps_the_page(tmp_path):
    """A real mkdocs build: every page of group pages_b exists under zh/ in Chinese, and the
    language switch of each page points at the same page in the other language."""
    root = make_repo(tmp_path, n_models=2, n=3)
    shutil.copytree(REPO / RESULTS_DIR / "en_fact", root / RESULTS_DIR / "en_fact")
    path = root / "submissions" / "model-001" / "results.json"
    res = Results.model_validate_json(path.read_text(encoding="utf-8"))
    path.write_text(res.model_copy(update={"probes": _probes(1)}).model_dump_json(), "utf-8")
    built = build_site(root)
    checks = {
        "methodology.html": "# 评测方法",
        "retrieval.html": "检索",
        "retrieval-to-answer.html": "从检索到回答",
        "submission-reference.html": "提交文件参考",
        "retrieval/en_fact-pool-bm25.html": "每个问题的段落排序",
    }
    for page, text in checks.items():
        zh = (built / "zh" / page).read_text(encoding="utf-8")
        en = (built / page).read_text(encoding="utf-8")
        assert text.lstrip("# ") in zh and text.lstrip("# ") not in en, page
        assert re.search(r'hreflang="zh"[^>]*|lang="zh"', zh), page
        depth = "../" * page.count("/")
        assert f'href="{depth}../{page}"' in zh or f'href="../{depth}{page}"' in zh, page
    heat = built / "zh" / "charts" / "retrieval-grid-en_fact-bm25-R-5-zh.svg"
    assert "块大小" in heat.read_text(encoding="utf-8")
    bars = built / "zh" / "charts" / "chain-attribution-rgb-zh.svg"
    assert "检索失误" in bars.read_text(encoding="utf-8")
    probes = (built / "zh" / "retrieval-to-answer.html").read_text(encoding="utf-8")
    assert "charts/chain-attribution-rgb-zh.svg" in probes and "上下文依赖度" in probes
    assert "Context reliance" not in probes and "retrieval miss" not in probes


# The pages of message group pages_a: (English docs path pattern, a Chinese string each must show)
GROUP_A_PAGES = (
    (r"abilities/(zh|en)-noise\.md", "噪声比例"),
    (r"abilities/(zh|en)-integration\.md", "信息整合"),
    (r"abilities/(zh|en)-rejection\.md", "过度拒答率"),
    (r"abilities/(zh|en)-counterfactual\.md", "错误检测率"),
    (r"models/model-\d+\.md", "全部评测单元"),
    (r"models/index\.md", "个实测条目"),
    (r"instances/(zh|en)-[a-z]+-\d\.\d\.md", "个实例"),
    (r"instances/index\.md", "实例浏览器"),
    (r"downloads\.md", "每张表格"),
)
NUMBER_PATTERNS = (
    re.compile(r'data-sort="([^"]*)"'),
    re.compile(r'<span class="lb-ci">([^<]*)</span>|>(-?\d+\.\d)<'),
    re.compile(r'id="([^"]+)"'),
    re.compile(r'href="([^"]+)"'),
    re.compile(r'<img src="([^"]+)"'),
)


@pytest.fixture(scope="module")
def rendered(data):
    return render(data)


def _group_a(out) -> list[str]:
    paths = [
        p
        for p in sorted(out.pages)
        if ".zh." not in p and any(re.fullmatch(pat, p) for pat, _ in GROUP_A_PAGES)
    ]
    assert len(paths) >= 8 + 2 + 2 + 2, paths
    return paths


def _english_phrases_a(
    files: tuple[str, ...] = ("en.yaml", "en/abilities_models_instances.yaml"),
) -> list[str]:
    """The literal text (placeholders cut out) of every English entry of the shared table and of
    group pages_a that is longer than three words, raw and HTML-escaped as the pages carry it."""
    from importlib import resources

    import yaml

    from leaderboard.site.render.fmt import esc

    root = resources.files("leaderboard.site") / "messages"
    entries = [v for f in files for v in yaml.safe_load((root / f).read_text("utf-8")).values()]
    phrases = set()
    for text in entries:
        for piece in re.split(r"\{[^}]*\}", str(text)):
            piece = piece.strip(" .,:;()")
            if len(piece.split()) > 3:
                phrases |= {piece, esc(piece)}
    return sorted(phrases)


def test_every_group_a_page_has_a_chinese_version_in_chinese(rendered):
    for path in _group_a(rendered):
        zh = rendered.pages.get(localized(path, "zh"))
        assert zh is not None, f"{path} has no Chinese version"
        expected = next(word for pat, word in GROUP_A_PAGES if re.fullmatch(pat, path))
        assert expected in zh, (path, expected)


@pytest.mark.parametrize("phrase", _english_phrases_a())
def test_no_english_interface_phrase_left_on_the_chinese_pages(rendered, phrase):
    for path in _group_a(rendered):
        assert phrase not in rendered.pages[localized(path, "zh")], (path, phrase)


def test_group_a_pages_show_the_same_numbers_in_both_languages(rendered):
    """Sort keys, figures and CIs, element ids, links and chart files in the same order; the
    instance pages embed the same manifest (models, counts, data parts)."""
    for path in _group_a(rendered):
        en, zh = rendered.pages[path], _figures(rendered.pages[localized(path, "zh")])
        for pattern in NUMBER_PATTERNS[:3]:
            assert pattern.findall(zh) == pattern.findall(en), (path, pattern.pattern)
        # the same files (downloads, data parts, model pages); a chart in its own language
        en_links = NUMBER_PATTERNS[3].findall(en) + NUMBER_PATTERNS[4].findall(en)
        zh_links = NUMBER_PATTERNS[3].findall(zh) + NUMBER_PATTERNS[4].findall(zh)
        assert [u.replace("charts/zh/", "charts/") for u in zh_links] == en_links, path
        if path.startswith("instances/") and path != "instances/index.md":
            manifests = [
                json.loads(re.search(r'id="lb-instances-data">(.*?)</script>', t).group(1))
                for t in (en, zh)
            ]
            for m in manifests:
                m.pop("pass_rule")
            assert manifests[0] == manifests[1], path


def test_chinese_charts_are_drawn_with_chinese_labels(rendered):
    svgs = {p: b.decode("utf-8") for p, b in rendered.files.items() if p.startswith("charts/zh/")}
    assert "charts/zh/zh-noise-rgb.svg" in svgs and "charts/zh/model-model-001-noise.svg" in svgs
    assert "charts/zh/en-rejection.svg" in svgs and "charts/zh/zh-counterfactual.svg" in svgs
    noise = svgs["charts/zh/zh-noise-rgb.svg"]
    assert "噪声比例" in noise and "准确率（%）" in noise and "noise rate" not in noise
    assert "论文报告值" in noise and "reported in paper" not in noise
    assert "拒答率（%）" in svgs["charts/zh/en-rejection.svg"]
    english = rendered.files["charts/zh-noise-rgb.svg"].decode("utf-8")
    assert "noise rate" in english and "噪声比例" not in english


def test_instance_browser_strings_come_from_the_page(rendered):
    """assets/lb.js holds no interface words: every one is in #lb-instances-ui, per language."""
    from importlib import resources

    from leaderboard.site.pages.instances.page import JS_KEYS

    js = (resources.files("leaderboard.site") / "assets" / "lb.js").read_text("utf-8")
    literals = re.findall(r'"([^"\\]*)"', js)
    for key in JS_KEYS:
        assert f'"{key}"' in js, f"lb.js never shows {key}"
        for piece in re.split(r"\{[^}]*\}", ui("en", f"inst.js.{key}")):
            if len(piece.split()) > 1:  # a phrase of the table written into the script
                assert not any(piece.strip() in lit for lit in literals), (key, piece)
    for lg, probe in (("en", "Show more"), ("zh", "显示更多")):
        page = rendered.pages[localized("instances/zh-noise-0.0.md", lg)]
        strings = json.loads(re.search(r'id="lb-instances-ui">(.*?)</script>', page).group(1))
        assert set(strings) == set(JS_KEYS) and strings["show_more"] == probe


def test_counts_read_right_in_both_languages():
    assert [ui_count("en", "inst.n_models", n) for n in (0, 1, 2)] == [
        "0 models",
        "1 model",
        "2 models",
    ]
    assert ui_count("zh", "inst.n_models", 1) == "1 个模型"
    assert ui_count("en", "model.index_count", 1) == "1 measured submission."


def test_untrusted_names_stay_escaped_on_the_chinese_pages(rendered):
    for path in _group_a(rendered):
        zh = rendered.pages[localized(path, "zh")]
        assert "<script>alert" not in zh, path
        assert set(re.findall(r"<script[^>]*>", zh)) <= {
            '<script type="application/json" id="lb-instances-data">',
            '<script type="application/json" id="lb-instances-ui">',
        }, path
