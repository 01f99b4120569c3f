"""Page generation units: ranking maths, escaping, tables, charts, loading, golden pages."""

from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from leaderboard.board.comparisons import Comparisons
from leaderboard.board.load import load_site_data
from leaderboard.board.ranking import unverified_reasons, zh_minus_en
from leaderboard.board.reported import load_reported
from leaderboard.core.errors import ResultsError
from leaderboard.core.schema import ScoreEntry
from leaderboard.core.types import ABILITIES, LANGS
from leaderboard.site.build import render
from leaderboard.site.pages.home import home_page, ranking_table
from leaderboard.site.pages.model.page import model_page
from leaderboard.site.render import charts
from leaderboard.site.render.fmt import esc, json_for_script, md_text
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, Output, model_size_and_quant
from leaderboard.site.render.tables import Cell, Column, Row, Table, render_html, to_csv, to_json
from leaderboard.stats.ranked import ScoreDifference
from tests.site_factory import XSS, make_predictions, make_repo, make_results, write_submission

FIXTURES = Path(__file__).parents[1] / "fixtures"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = make_repo(tmp_path_factory.mktemp("repo"), n_models=3, n=4)
    return load_site_data(root)


@pytest.fixture(scope="module")
def out(data):
    return render(data)


# ------------------------------------------------------------------------------ ranking maths


def test_unverified_entries_are_never_ranked(tmp_path):
    """An unpinned revision or a dirty tree: shown, badged, not ranked (a scripted backend is a
    trivial baseline, in its own band: test_trivial_baselines_sit_in_a_band_never_ranked)."""
    root = make_repo(tmp_path / "u", n_models=3, n=4, predictions=False)
    folder = root / "submissions" / "model-001"
    res = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    res["provenance"].update(model_revision="main", git_dirty=True)
    (folder / "results.json").write_text(json.dumps(res), encoding="utf-8")
    data = load_site_data(root)
    by_id = {s.id: s for s in data.submissions}
    reasons = unverified_reasons(by_id["model-001"].results)
    assert len(reasons) == 2 and "not pinned" in reasons[0] and "uncommitted" in reasons[1]
    assert "cleared by `rgb-leaderboard attest submissions/model-001`" in reasons[1]
    assert unverified_reasons(by_id["model-000"].results) == ()
    home = home_page(Context(data, Output()))
    ranking = home.split('id="ranking-zh-strict"')[1].split("</table>")[0]
    row = next(r for r in ranking.split("<tr") if "model-001" in r)
    assert 'class="lb-badge lb-unverified"' in row and "uncommitted or unrecorded code" in row
    zh = home_page(Context(data, Output(), lg="zh")).split('id="ranking-zh-strict"')[1]
    row = next(r for r in zh.split("</table>")[0].split("<tr") if "model-001" in r)
    assert "尚未核验" in row and "未固定到某个提交" in row and "not attested" not in row
    ranks = [r for r in ranking.split("<tr") if "model-00" in r and "model-001" not in r]
    assert all("unverified" not in r for r in ranks)


def _entry(value, ci):
    return ScoreEntry(
        lang="zh",
        mode="rgb",
        ability="overall",
        metric="score",
        value=value,
        ci=ci,
        n_questions=10,
        complete=True,
        definition="d",
    )


# ------------------------------------------------------------------------------ escaping


def test_json_for_script_cannot_close_the_script_block():
    payload = {"t": "</script><script>alert(1)</script><!-- & \u2028", "k": "中文"}
    text = json_for_script(payload)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == payload
    assert "中文" in text  # not \\u-escaped: pages stay readable and small


def test_esc_and_md_text():
    assert esc(XSS) == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert esc('a"b') == "a&quot;b"
    assert "<" not in md_text("*x* <b>[link](y)</b>")
    assert md_text("a_b*c") == r"a\_b\*c"


def test_no_page_contains_raw_untrusted_markup(out):
    for path, text in out.pages.items():
        assert "<script>alert" not in text, path
        # only our own script tags (the JSON data block, the browser's strings) may appear
        assert set(re.findall(r"<script[^>]*>", text)) <= {
            '<script type="application/json" id="lb-instances-data">',
            '<script type="application/json" id="lb-instances-ui">',
            '<script type="application/json" id="lb-compare-setup">',
        }, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out.pages["index.md"]


# ------------------------------------------------------------------------------ tables


def test_table_html_csv_json_roundtrip():
    table = Table(
        id="t",
        title="T <x>",
        columns=(Column("m", "Model"), Column("v", "Value", True, "def")),
        rows=(Row({"m": Cell.text("a<b"), "v": Cell.rate(0.5, (0.4, 0.6))}),),
        reported_rows=(Row({"m": Cell.text("paper"), "v": Cell.rate(0.7)}, "lb-reported-row"),),
    )
    html = render_html(table, "../")
    assert "a&lt;b" in html and 'data-sort="0.5"' in html and "40.0–60.0" in html
    assert html.count("<tbody") == 2 and 'class="lb-reported-body"' in html
    assert 'href="../downloads/t.csv"' in html
    csv_text = to_csv(table)
    assert csv_text.splitlines()[0] == "row_kind,m,v,v_ci_low,v_ci_high"
    assert "reported in paper,paper,0.7,," in csv_text
    doc = json.loads(to_json(table))
    assert doc["rows"][0] == {
        "row_kind": "measured",
        "m": "a<b",
        "v": 0.5,
        "v_ci_low": 0.4,
        "v_ci_high": 0.6,
    }


# ------------------------------------------------------------------------------ charts


def test_charts_are_deterministic_svg_with_text():
    series = [
        charts.Series("m1", (0.0, 0.2), (0.9, 0.8), (0.85, 0.7), (0.95, 0.9)),
        charts.Series("paper", (0.0, 0.2), (0.95, 0.9), reported=True),
    ]
    a = charts.noise_curve(series, "t")
    assert a == charts.noise_curve(series, "t")
    assert a.lstrip().startswith("<?xml") and "<svg" in a and "Date" not in a
    assert "paper (reported in paper)" in a


# ------------------------------------------------------------------------------ loading


def test_load_reports_file_and_field_of_bad_results(tmp_path):
    res = make_results("bad", n=2)
    d = write_submission(tmp_path, res)
    doc = json.loads((d / "results.json").read_text())
    doc["cells"][3]["accuracy"] = "high"
    (d / "results.json").write_text(json.dumps(doc))
    with pytest.raises(
        ResultsError, match=r"results\.json: invalid results file: field 'cells\.3\.accuracy"
    ):
        load_site_data(tmp_path)


def test_load_reports_line_of_bad_prediction(tmp_path):
    res = make_results("p", n=2)
    d = write_submission(tmp_path, res, make_predictions("p", 2), gz=True)
    lines = gzip.decompress((d / "predictions.jsonl.gz").read_bytes()).decode().splitlines()
    lines[4] = lines[4].replace('"prediction"', '"predicton"')
    (d / "predictions.jsonl.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    with pytest.raises(ResultsError, match=r"predictions\.jsonl\.gz:5: invalid prediction record"):
        load_site_data(tmp_path)


def test_load_rejects_folder_id_mismatch(tmp_path):
    d = write_submission(tmp_path, make_results("a", n=2))
    d.rename(tmp_path / "submissions" / "b")
    with pytest.raises(ResultsError, match="submission_id is 'a' but the folder is 'b'"):
        load_site_data(tmp_path)


def test_site_shows_the_prediction_the_runner_scored(tmp_path):
    """A repeated key is read by the run's store, as the runner reads it: the first record wins
    (a later one only replaces an earlier failure), so the page shows what results.json counts."""
    preds = make_predictions("r", 1)
    again = preds[0].model_copy(update={"prediction": "second try"})
    write_submission(tmp_path, make_results("r", n=1), [*preds, again], gz=False)
    sub = load_site_data(tmp_path).submissions[0]
    assert {p.key: p.prediction for p in sub.predictions}[preds[0].key] == preds[0].prediction
    assert len(sub.predictions) == len(preds)


def test_size_and_quantization(data):
    sub = data.submissions[0]
    assert model_size_and_quant(sub) == ("7B", "bf16")


def test_reported_yaml_matches_the_transcription_source(paper_reported: Path):
    ours = load_reported(REPO / "submissions" / "rgb-paper" / "reported.yaml")
    paper = yaml.safe_load(paper_reported.read_text())
    assert ours.source.citation == paper["citation"]
    assert [m.id for m in ours.models] == list(paper["models"])
    for m in ours.models:
        src = paper["models"][m.id]
        assert m.display_name == src["display_name"]
        for lang in ("zh", "en"):
            mine, theirs = m.lang(lang), src[lang]
            assert mine.noise == {float(k): v for k, v in theirs["noise"].items()}
            assert mine.integration == {float(k): v for k, v in theirs["integration"].items()}
            assert (mine.rejection.rej, mine.rejection.rej_star) == (
                theirs["rej"],
                theirs["rej_star"],
            )
            cf = theirs.get("counterfactual")
            assert (mine.counterfactual is None) == (cf is None)
            if cf:
                assert mine.counterfactual.model_dump() == cf


def test_reported_yaml_errors_name_the_field(tmp_path):
    bad = tmp_path / "reported.yaml"
    bad.write_text(
        "format: reported-v1\nsource: {citation: x}\nunits: percent\n"
        "models: [{id: a, display_name: A, zh: {noise: {0.0: high}}}]\n"
    )
    with pytest.raises(ResultsError, match=r"field models\.0\.zh\.noise\.0\.0"):
        load_reported(bad)


# ------------------------------------------------------------------------------ pages


def test_render_is_deterministic_and_complete(data, out):
    a, b = out, render(data)
    assert a.pages == b.pages and a.files == b.files
    expected = {
        "index.md",
        "ranking-rgb.md",
        "zh-vs-en.md",
        "methodology.md",
        "downloads.md",
        "models/index.md",
        "instances/index.md",
        "abilities/zh-noise.md",
        "abilities/en-counterfactual.md",
        "models/model-000.md",
        "instances/zh-noise-0.0.md",
    }
    assert expected <= set(a.pages)
    assert "downloads/ranking-zh-rgb.csv" in a.files
    assert "charts/zh-noise-rgb.svg" in a.files and "models/model-001/results.json" in a.files


def test_home_ranks_measured_and_separates_reported(out):
    home = out.pages["index.md"]
    for title in ("## Chinese (zh)", "## English (en)", "## Combined (zh + en)"):
        assert title in home
    assert "reported in paper" in home and "ChatGPT (gpt-3.5-turbo)" in home
    table = home.split('id="reported-paper"')[1]
    assert '<tbody class="lb-reported-body">' in table
    ranking = home.split('id="ranking-zh-strict"')[1].split("</table>")[0]
    assert "ChatGPT" not in ranking  # reported rows never enter a measured ranking
    assert "partial" in ranking and "7B" in ranking and "Coverage" in ranking
    assert "Overall (rgb)" in ranking  # the reference overall beside every ranked row
    assert "Ranked by the strict scores" in home and "ranking-rgb.md" in home


def _with_baseline(root, policy="refuse"):
    """Add a trivial baseline (scripted backend) to a synthetic repo."""
    res = make_results(f"baseline-{policy}", display_name=f"Baseline: {policy}", n=4)
    prov = res.provenance.model_copy(update={"backend": "scripted"})
    res = res.model_copy(update={"provenance": prov})
    folder = root / "submissions" / f"baseline-{policy}"
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(res.model_dump_json(indent=2), encoding="utf-8")
    return res


def test_trivial_baselines_sit_in_a_band_never_ranked(tmp_path):
    root = make_repo(tmp_path, n_models=2, n=4, predictions=False)
    _with_baseline(root, "refuse")
    out = render(load_site_data(root))
    pages = [out.pages["index.md"], out.pages["ranking-rgb.md"]]
    pages += [out.pages[f"abilities/{lang}-{a}.md"] for lang in LANGS for a in ABILITIES]
    for page in pages:
        for table in page.split('<table class="lb-table"')[1:]:
            body = table.split("</table>")[0]
            ranked = body.split('<tbody class="lb-band-head">')[0]
            assert "Baseline: refuse" not in ranked  # never among the measured rows
            if "Baseline: refuse" in body:
                band = body.split('<tbody class="lb-baseline-body">')[1]
                assert "Baseline: refuse" in band and "trivial baseline" in band
                assert "Trivial baselines" in body.split('<tbody class="lb-baseline-body">')[0]
    home = out.pages["index.md"]
    zh = home.split('id="ranking-zh-strict"')[1].split("</table>")[0]
    band = zh.split('<tbody class="lb-baseline-body">')[1]
    assert ">baseline<" in band and zh.count("lb-baseline-row") == 1
    ranks = zh.split('<tbody class="lb-band-head">')[0]
    assert "Model 000" in ranks and "Model 001" in ranks
    rows = json.loads(out.files["downloads/ranking-zh-strict.json"])["rows"]
    assert [r["row_kind"] for r in rows].count("trivial baseline") == 1
    method = out.pages["methodology.md"]
    assert 'id="trivial-baselines"' in method and "Baseline: refuse" in method


def test_ranked_entries_without_a_comparison_are_named_under_the_table(tmp_path):
    """A ranked entry lacking a paired comparison with another ranked one (a data file missing
    at build time) is named under its table, in both interface languages; fully compared
    tables, and boards rendered without comparisons, carry no such sentence."""
    data = load_site_data(make_repo(tmp_path, n_models=3, n=3, predictions=False))
    ids = [s.id for s in data.submissions]
    d = ScoreDifference(0.2, (0.1, 0.3), 3)
    every_pair = {(a, b): d for i, a in enumerate(ids) for b in ids[i + 1 :]}
    one_pair = {(ids[1], ids[2]): d}  # ids[0] was compared with neither: all three widen
    by_score = {("zh", "strict", "overall"): every_pair, ("en", "strict", "overall"): one_pair}
    compared = replace(data, comparisons=Comparisons(by_score, {ids[0]: "en noise left out"}))
    assert "narrowed" not in ranking_table(compared, "zh", "strict", "").note
    en = ranking_table(compared, "en", "strict", "")
    assert en.note.endswith(
        f" Rank ranges not narrowed for Model 000 {XSS}, Model 001, Model 002: a paired "
        "comparison with another "
        "ranked entry was not possible when the site was built (answers or a data file missing; "
        "the build's output says why), so these ranges may be wider than the answers warrant."
    )
    zh = ranking_table(compared, "en", "strict", "", lg="zh").note
    assert (
        f"。以下条目的名次区间未能通过配对比较收窄：Model 000 {XSS}、Model 001、Model 002。" in zh
    )
    assert "narrowed" not in ranking_table(data, "en", "strict", "").note  # no comparisons run


def test_missing_overall_reads_dash_with_the_reason(tmp_path):
    root = make_repo(tmp_path, n_models=1, n=4, predictions=False)
    path = root / "submissions" / "model-000" / "results.json"
    res = make_results("model-000", n=4)
    scores = [
        s.model_copy(update={"value": None, "ci": None, "note": "no zh overall: not measured: x"})
        if (s.lang, s.ability, s.mode) == ("zh", "overall", "strict")
        else s
        for s in res.scores
    ]
    path.write_text(res.model_copy(update={"scores": scores}).model_dump_json(), encoding="utf-8")
    home = render(load_site_data(root)).pages["index.md"]
    zh = home.split('id="ranking-zh-strict"')[1].split("</table>")[0]
    assert '<span class="lb-why">no zh overall: not measured: x</span>' in zh
    assert '<td data-sort="10000">—</td>' in zh  # unranked


def test_ability_page_has_curve_table_chart_and_reported_rows(out):
    page = out.pages["abilities/zh-noise.md"]
    assert "Acc. @ 0.8" in page and 'alt="Line chart: accuracy (%) against noise rate' in page
    assert '<tbody class="lb-reported-body">' in page and "95.7" in page  # ChatGPT zh noise 0.0
    strict, rgb = page.split("## Strict mode")[1].split("## Reference (rgb) mode")
    assert "reported in paper" not in strict  # the paper has no strict-mode numbers
    assert "lb-reported-body" in rgb  # the ranked mode first, the reference one after


def test_zh_vs_en_states_its_ci_method(out):
    page = out.pages["zh-vs-en.md"]
    assert "Newcombe's method" in page and "zh − en with its CI and n" in page
    assert "percentile bootstrap" not in page  # the method is not a bootstrap (issue 26)
    assert "zh − en" in page


def test_zh_minus_en_is_the_stored_bootstrap_entry_only():
    new = make_results("m", n=20)
    d = zh_minus_en(new, "noise", "rgb")
    stored = next(e for e in new.scores if (e.lang, e.ability, e.mode) == ("zh-en", "noise", "rgb"))
    assert (d.value, d.ci) == (stored.value, stored.ci)
    assert zh_minus_en(make_results("m", n=20, langs=("zh",)), "noise", "rgb") is None


def test_model_page_has_yaml_provenance_reproduce_downloads(out):
    page = out.pages["models/model-000.md"]
    assert "rgb-leaderboard run submissions/model-000/model.yaml" in page
    assert 'href="model-000/predictions.jsonl.gz"' in page
    assert "# a blank line above" in page and "fingerprint" in page
    heading = next(line for line in page.splitlines() if line.startswith("# "))
    assert "&lt;script&gt;" in heading and "<script>" not in heading


def test_model_page_says_which_machines_generated_the_answers(tmp_path):
    """A run resumed on another machine or llama.cpp build: the page names both, with counts,
    in both languages; a device name is untrusted text."""
    root = make_repo(tmp_path / "m", n_models=1, n=4, predictions=False)
    folder = root / "submissions" / "model-000"
    res = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    res["provenance"]["extra"]["predictions_in_results"] = 1100
    res["provenance"]["extra"]["invocations"] = [
        {
            "device": "cpu: Intel",
            "build": "AVX2 = 1 | AVX512 = 1 | LLAMAFILE = 1 |",
            "answers": 820,
            "seeded": True,
        },
        {
            "device": "cpu: <b>AMD</b>",
            "build": "AVX2 = 1 | AVX512 = 0 | LLAMAFILE = 0 |",
            "answers": 250,
        },
    ]
    (folder / "results.json").write_text(json.dumps(res), encoding="utf-8")
    data = load_site_data(root)
    (entry,) = [s for s in data.submissions if s.id == "model-000"]
    en, zh = (
        model_page(Context(data, Output()), entry),
        model_page(Context(data, Output(), lg="zh"), entry),
    )
    line = next(p for p in en.split("<p>") if p.startswith("Where the answers"))
    intel = '<span lang="en">Intel</span>'
    flags = '<span lang="en">AVX512 + AVX2 + LLAMAFILE</span>'
    assert f"CPU: {intel} (llama.cpp build: {flags}): 820 answers" in line
    amd = '<span lang="en">&lt;b&gt;AMD&lt;/b&gt;</span>'
    assert f'CPU: {amd} (llama.cpp build: <span lang="en">AVX2</span>): 250 answers' in line
    assert "the last of those runs recorded" in line and "30 answers from runs" in line
    assert "回答的生成环境：" in zh and "820 个回答" in zh and "；" in zh
    assert f"CPU：{intel}（llama.cpp 编译选项：{flags}）：820 个回答" in zh
    # no history recorded: no line
    plain = make_repo(tmp_path / "p", n_models=1, n=4, predictions=False)
    pdata = load_site_data(plain)
    assert "Where the answers" not in model_page(Context(pdata, Output()), pdata.submissions[0])


def test_instance_page_without_data_says_fetch(out):
    page = out.pages["instances/zh-noise-0.0.md"]
    assert "rgb-leaderboard data fetch" in page
    assert "search:\n  exclude: true" in page and "hide:\n  - toc" in page
    doc = json.loads(page.split('id="lb-instances-data">')[1].split("</script>")[0])
    assert doc["scored"] is False and doc["n_items"] == 4 and len(doc["models"]) == 3
    items = [
        item
        for ref in doc["parts"]
        for item in json.loads(out.files[f"instances/{ref['url']}"])["items"]
    ]
    assert len(items) == 4 and "items" not in doc
    assert items[0]["preds"]["model-000"]["t"]  # predictions still shown


def test_instance_data_parts_keep_every_item_in_order_within_the_budget(data):
    from leaderboard.site.pages.instances.parts import Group, group_data, split_parts

    group = Group("zh", "noise", 0.0)
    doc = group_data(data, group, None)
    one = len(json.dumps(doc["items"][0], ensure_ascii=False).encode("utf-8"))
    manifest, files = split_parts(group, doc, budget=one + 10)
    assert len(files) == len(manifest["parts"]) > 1
    items = []
    for ref in manifest["parts"]:
        part = json.loads(files[f"instances/{ref['url']}"])["items"]
        assert len(part) == ref["n"] and ref["url"].startswith("data/zh-noise-0.0/")
        items += part
    assert items == doc["items"] and manifest["n_items"] == len(items)
    assert {k: v for k, v in manifest.items() if k not in ("parts", "n_items")} == {
        k: v for k, v in doc.items() if k != "items"
    }


def test_instance_data_shows_the_start_of_a_long_answer_and_judges_the_whole(data):
    """A page holds at most SHOWN_CHARS of an answer or error (a 1 MB answer kept Chromium busy
    for minutes) with the full length beside it; pass/fail is judged on the whole answer."""
    from leaderboard.core.types import TestInstance
    from leaderboard.site.pages.instances.parts import SHOWN_CHARS, Group, group_data

    group = Group("zh", "noise", 0.0)
    sub = data.submissions[0]
    long_answer = "无关内容。" * 1000 + "答案是北京。"  # the answer only after the cut
    preds = list(sub.predictions)
    k = next(i for i, p in enumerate(preds) if p.key == "zh/noise/0.0/0")
    preds[k] = preds[k].model_copy(update={"prediction": long_answer, "error": "x" * 5000})
    j = next(i for i, p in enumerate(preds) if p.key == "zh/noise/0.0/1")
    preds[j] = preds[j].model_copy(update={"prediction": long_answer})
    one = replace(data, submissions=(replace(sub, predictions=tuple(preds)),))
    inst = {
        key: TestInstance("zh", "noise", 0.0, i, "首都？", ("北京",), ("北京是首都。",) * 5)
        for i, key in enumerate(("zh/noise/0.0/0", "zh/noise/0.0/1"))
    }
    items = group_data(one, group, inst)["items"]
    cut, whole = items[0]["preds"][sub.id], items[1]["preds"][sub.id]
    assert cut["t"] == long_answer[:SHOWN_CHARS] and cut["tn"] == len(long_answer)
    assert cut["e"] == "x" * SHOWN_CHARS and cut["en"] == 5000
    assert cut["strict"] == 0  # a generation error fails
    assert len(whole["t"]) == SHOWN_CHARS and "en" not in whole and whole["e"] is None
    assert whole["rgb"] == whole["strict"] == 1  # judged on the full text: 北京 is past the cut
    short = items[2]["preds"][sub.id]
    assert "tn" not in short and "en" not in short


def test_golden_home_page(tmp_path):
    """The home page of a fixed synthetic set; UPDATE_GOLDEN=1 rewrites the golden file."""
    root = make_repo(tmp_path / "g", n_models=3, n=4, predictions=False)
    home = home_page(Context(load_site_data(root), Output()))
    golden = FIXTURES / "site_home.md"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(home, encoding="utf-8")
    assert home == golden.read_text(encoding="utf-8")


def test_ci_with_negative_bounds_reads_unambiguously():
    from leaderboard.site.render.fmt import pct_ci

    assert pct_ci((0.035, 0.06)) == "3.5–6.0"
    assert pct_ci((-0.163, -0.086)) == "-16.3 to -8.6"
    assert pct_ci((-0.1, 0.05)) == "-10.0 to 5.0"
    assert pct_ci(None) == ""


def test_csv_cells_cannot_start_a_spreadsheet_formula():
    rows = tuple(
        Row({"m": Cell.text(name), "v": Cell.rate(-0.25)})
        for name in ('=HYPERLINK("http://x")', "+1", "-2", "@SUM(A1)", "\tx", "plain")
    )
    table = Table(
        id="t", title="T", columns=(Column("m", "Model"), Column("v", "V", True)), rows=rows
    )
    names = [line.split(",")[1] for line in to_csv(table).splitlines()[1:]]
    assert names[0].startswith("\"'=HYPERLINK") and names[1:5] == [
        "'+1",
        "'-2",
        "'@SUM(A1)",
        "'\tx",
    ]
    assert names[5] == "plain"
    assert to_csv(table).splitlines()[1].endswith(",-0.25,,")  # numbers keep their sign
    assert json.loads(to_json(table))["rows"][0]["m"] == '=HYPERLINK("http://x")'  # JSON is data


def test_page_title_and_chart_labels_are_single_line_text():
    from leaderboard.site.render.charts import label
    from leaderboard.site.render.page import front_matter

    fm = front_matter(title="</title><script>alert(1)</script>\n\u202eevil\x00" + "x" * 500)
    line = next(ln for ln in fm.splitlines() if ln.startswith("title: "))
    assert line.startswith('title: "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; evil')
    assert len(line) < 200 and "\u202e" not in line and "\\u0000" not in line
    assert label("$\\frac{a") == "$\\frac{a" and label("_x").endswith("_x") and label("_x") != "_x"
    assert len(label("y" * 1_000_000)) == 60


def test_partial_reasons_are_listed_once_under_each_table(tmp_path):
    """The partial badge keeps a short tooltip; a few words say what the entry covers, once
    under the table (the full list of reasons is on the model page only)."""
    from leaderboard.site.render.coverage import coverage_phrase

    root = make_repo(tmp_path / "p", n_models=2, n=4, predictions=False)
    res = make_results("model-009", "Half model", seed=9, n=4, expected_n=8)
    write_submission(root, res, None)
    data = load_site_data(root)
    half = next(s for s in data.submissions if s.id == "model-009")
    phrase = coverage_phrase("en", half.results)
    assert phrase.startswith("zh: 4 of 8 questions · en: "), phrase
    home = home_page(Context(data, Output()))
    table = home.split('id="wrap-ranking-zh-strict"')[1].split('<div class="lb-table-wrap"')[0]
    assert table.count(esc(phrase)) == 1
    tip = ui("en", "badge.partial_tip")
    assert f'title="{esc(tip)}"' in table and f'title="{esc(phrase)}"' not in table
    notes = table.split('<ul class="lb-note lb-cell-notes">')[1].split("</ul>")[0]
    item = "<li>" + esc(f"Model 000 {XSS}, Half model: {phrase}") + "</li>"
    assert item in notes and notes.count("Half model") == 1
    model = render(data).pages["models/model-009.md"]
    assert esc(phrase) in model.split("\n## ")[0]  # the header says it in a few words
    assert all(esc(r) in model for r in half.results.partial_reasons)  # the full list below
    # the zh-versus-en table (a row per model and ability) is compact: no tooltip, no "measured"
    from leaderboard.site.pages.zh_en.page import zh_vs_en_page

    diff = zh_vs_en_page(Context(data, Output())).split('id="wrap-zh-vs-en-strict"')[1]
    assert "lb-measured" not in diff and esc(tip) not in diff and "lb-cell-notes" in diff


def test_counts_use_the_singular_for_one(tmp_path):
    from leaderboard.site.render.fmt import count

    assert (count(1, "model"), count(0, "model"), count(2, "instance")) == (
        "1 model",
        "0 models",
        "2 instances",
    )
    root = make_repo(tmp_path / "one", n_models=1, n=2)
    out = render(load_site_data(root))
    assert "1 models" not in "".join(out.pages.values())
    assert ", 1 model." in out.pages["instances/zh-noise-0.0.md"]


def test_ranking_shows_whom_to_trust_and_folds_the_rest():
    """Per language: beside the strict overall, the made-up share, answer rate and truthfulness on
    the rejection questions (from results.json's `truthfulness`, with intervals); the abilities,
    the other mode and n one click away; the baseline band folded to its highest row."""
    data = load_site_data(Path(__file__).resolve().parents[2], with_predictions=False)
    html = home_page(Context(data, Output()))
    zh = html.split('id="ranking-zh-strict"')[1].split("</table>")[0]
    head = zh.split("</thead>")[0]
    labels = re.findall(r"<th [^>]*>([^<]+)</th>", head)
    assert labels[:6] == [
        "Rank",
        "Model",
        "Overall",
        "Made up, no answer in passages",
        "Answer rate, no answer in passages",
        "Truthfulness, no answer in passages",
    ], labels
    assert re.search(
        r'<th scope="col" data-sort-method="number" title="[^"]*" '
        r'class="lb-extra">Noise</th>',
        head,
    )
    s = next(e for e in data.submissions if e.id == "qwen2.5-coder-1.5b-instruct")
    wrong = next(
        t
        for t in s.results.truthfulness
        if (t.lang, t.ability, t.mode, t.metric) == ("zh", "rejection", "strict", "wrong")
    )
    row = next(r for r in zh.split("<tr") if s.id in r)
    assert f'data-sort="{round(wrong.value, 6)}"' in row and 'class="lb-ci"' in row


def test_baseline_band_folds_to_its_highest_row():
    rows = tuple(Row({"m": Cell.text(f"b{i}")}, "lb-baseline-row") for i in range(3))
    table = Table("t", "T", (Column("m", "M"),), (), baseline_rows=rows)
    html = render_html(table)
    band = html.split('class="lb-baseline-body">')[1]
    assert band.count("lb-band-more") == 2 and band.index("b0") < band.index("lb-band-more")
    assert 'class="md-button lb-band-toggle"' in html and 'data-show="Show all 3"' in html
