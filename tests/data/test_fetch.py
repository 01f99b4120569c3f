"""Data manifest, verification, fetching (local folder, real HTTP server) and validated loading."""

from __future__ import annotations

import http.server
import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from leaderboard.core.errors import DataError
from leaderboard.data.fetch import fetch_files as fetch
from leaderboard.data.manifest import (
    data_root,
    file_blob_sha1,
    git_blob_sha1,
    manifest,
    manifest_text,
    status,
)
from leaderboard.data.records import load_records
from leaderboard.data.splits import load_split, resolve_split

REPO = Path(__file__).resolve().parents[2]

OFFICIAL = {
    "en.json": "4938252230bb4ccfb7f43662e43c7f84f4c38e78",
    "en_refine.json": "de75ccaedd1c47249315002e7713d2f0a94cc2de",
    "en_int.json": "826c357bfa7df0264951e7787d248efcca4b6b60",
    "en_fact.json": "ffa989031e0d7d4e68b6c4bcab4820c74ffc4902",
    "zh.json": "2d3406d3eb5a7d9c885196bb17fa6ac6f1483b4d",
    "zh_refine.json": "6003c458bd6217636798e1810610432900ffdd21",
    "zh_int.json": "6e66066b0490cb8618fd5810e21134eadd8e3094",
    "zh_fact.json": "be725d61d5360bcb1afc0bab7f2238f6ba9942a7",
}
SHARED_FILES = {  # official file -> (lang, records)
    "zh_refine.json": ("zh", 300),
    "zh_int.json": ("zh", 100),
    "zh_fact.json": ("zh", 100),
    "en_fact.json": ("en", 100),
    "partial/en_head50.json": ("en", 50),
}


def _files_under(d: Path) -> set[str]:
    return {str(p.relative_to(d)) for p in d.rglob("*") if p.is_file()}


# ------------------------------------------------------------------------------------ manifest


def test_manifests_name_official_files_and_match_packaged_copy() -> None:
    for lang in ("en", "zh"):
        committed = (REPO / f"data_{lang}" / "MANIFEST.json").read_text(encoding="utf-8")
        assert committed == manifest_text(lang), "data_*/MANIFEST.json and the package copy differ"
        for e in manifest(lang):
            if e.official:
                assert OFFICIAL[e.name] == e.blob_id
                assert (
                    e.url
                    == f"https://raw.githubusercontent.com/chen700564/RGB/master/data/{e.name}"
                )
                assert e.optional == (e.name in ("en.json", "zh.json"))
    names = {e.name for lang in ("en", "zh") for e in manifest(lang) if e.official}
    assert names == set(OFFICIAL)
    (partial,) = [e for e in manifest("en") if not e.official]
    assert partial.name == "partial/en_head50.json" and not partial.complete
    assert partial.sha256 == "b6a31fcf1415bdbd47d69ca37180c18dd9d7fdaa55e45fe3f4726c6db0b98173"
    assert partial.stands_in_for == "en.json" and partial.records == 50


def test_git_blob_sha1_matches_git_hash_object(tmp_path: Path) -> None:
    assert git_blob_sha1(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    f = tmp_path / "x.json"
    f.write_bytes('{"query": "中文"}\n'.encode())
    if shutil.which("git"):
        out = subprocess.run(
            ["git", "hash-object", str(f)], capture_output=True, text=True, check=True
        )
        assert file_blob_sha1(f) == out.stdout.strip() == git_blob_sha1(f.read_bytes())


def test_shared_files_are_the_official_bytes(official_dir: Path) -> None:
    for name in ("zh_refine.json", "zh_int.json", "zh_fact.json", "en_fact.json"):
        assert file_blob_sha1(official_dir / name) == OFFICIAL[name]


# ------------------------------------------------------------------------------------- loading


@pytest.mark.parametrize("name", sorted(SHARED_FILES))
def test_every_real_shared_file_loads(official_dir: Path, name: str) -> None:
    records = load_records(official_dir / name)
    assert len(records) == SHARED_FILES[name][1]
    assert [r.id for r in records] == list(range(len(records)))
    for r in records:
        assert r.query and r.answer
        if "_int" in name:
            assert all(isinstance(g, tuple) and g for g in r.positive)
        else:
            assert all(isinstance(p, str) for p in r.positive)
        if "_fact" in name:
            assert len(r.positive_wrong) == len(r.positive) and r.fakeanswer


def test_real_quirks(official_dir: Path) -> None:
    raw = [json.loads(x) for x in (official_dir / "zh_int.json").read_text("utf-8").splitlines()]
    assert "asnwer1" in raw[0]  # the misspelled key of the official file is accepted and ignored
    ints = load_records(official_dir / "zh_int.json")
    mixed = [r for r in ints if {type(a) for a in r.answer} == {str, tuple}]
    assert mixed, "zh_int has answers mixing strings and lists of alternatives"
    fact = load_records(official_dir / "zh_fact.json")
    assert fact[0].raw_answer == raw_fact_answer(official_dir, 0)
    assert sum(1 for r in fact if not r.negative) == 3  # empty negatives load
    assert any(isinstance(r.raw_answer, str) and r.answer == (r.raw_answer,) for r in fact)


def raw_fact_answer(official_dir: Path, idx: int) -> object:
    line = (official_dir / "zh_fact.json").read_text("utf-8").splitlines()[idx]
    ans = json.loads(line)["answer"]
    return ans if isinstance(ans, str) else json.loads(json.dumps(ans))


GOOD = {"id": 0, "query": "q", "answer": ["a"], "positive": ["p"], "negative": ["n"]}
GOOD_INT = {**GOOD, "positive": [["p1", "p2"], ["p3"]]}
GOOD_FACT = {**GOOD, "answer": "a", "positive_wrong": ["w"], "fakeanswer": "f"}

MALFORMED = [
    # (file name, second line, expected field, expected text)
    ("x.json", '{"id": 1, "query": "q"', None, "not valid JSON"),
    ("x.json", '["a"]', None, "expected a JSON object"),
    ("x.json", {**GOOD, "id": "1"}, "id", "expected an integer, got a string"),
    ("x.json", {**GOOD, "id": True}, "id", "expected an integer"),
    ("x.json", {k: v for k, v in GOOD.items() if k != "query"}, "query", "is missing"),
    ("x.json", {**GOOD, "query": ""}, "query", "non-empty string"),
    ("x.json", {**GOOD, "answer": 3}, "answer", "expected a string or a list, got a int"),
    ("x.json", {**GOOD, "answer": []}, "answer", "empty list"),
    ("x.json", {**GOOD, "answer": ["a", 4]}, "answer", "item 1 is a int"),
    ("x.json", {**GOOD, "answer": [["a", 4]]}, "answer[0]", "item 1 is a int"),
    ("x.json", {**GOOD, "answer": [[]]}, "answer[0]", "empty list"),
    (
        "x.json",
        {**GOOD, "positive": {"a": 1}},
        "positive",
        "expected a list of strings, got an object",
    ),
    ("x.json", {**GOOD, "negative": ["n", None]}, "negative", "item 1 is null"),
    ("x.json", {k: v for k, v in GOOD.items() if k != "negative"}, "negative", "is missing"),
    ("x_int.json", GOOD, "positive[0]", "expected a list of strings, got a string"),
    ("x_int.json", {**GOOD_INT, "positive": [["p"], []]}, "positive[1]", "empty list"),
    (
        "x_fact.json",
        {**GOOD_FACT, "positive_wrong": ["w", "v"]},
        "positive_wrong",
        "has 2 passages",
    ),
    (
        "x_fact.json",
        {k: v for k, v in GOOD_FACT.items() if k != "fakeanswer"},
        "fakeanswer",
        "is missing",
    ),
    ("x.json", {**GOOD, "id": 0}, "id", "duplicate id 0 (first on line 1)"),
]


@pytest.mark.parametrize(("name", "line", "field", "text"), MALFORMED)
def test_malformed_line_names_file_line_and_field(
    tmp_path: Path, name: str, line: object, field: str | None, text: str
) -> None:
    first = GOOD_INT if "_int" in name else GOOD_FACT if "_fact" in name else GOOD
    body = json.dumps(first) + "\n\n" + (line if isinstance(line, str) else json.dumps(line)) + "\n"
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_records(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}:3: "), msg  # blank line 2 is skipped but still counted
    if field is not None:
        assert f"field '{field}': " in msg
    assert text in msg


def test_json_array_file_and_bad_bytes_and_empty(tmp_path: Path) -> None:
    arr = tmp_path / "arr.json"
    arr.write_text("[\n" + json.dumps(GOOD) + "\n]\n")
    with pytest.raises(DataError, match=r"arr.json:1: .*JSON Lines"):
        load_records(arr)
    bad = tmp_path / "bad.json"
    bad.write_bytes(json.dumps(GOOD).encode() + b"\n" + b'{"query": "\xff"}\n')
    with pytest.raises(DataError, match=r"bad.json:2: not valid UTF-8"):
        load_records(bad)
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    with pytest.raises(DataError, match="no records"):
        load_records(empty)
    with pytest.raises(DataError, match="file not found"):
        load_records(tmp_path / "nope.json")


def test_load_cache_follows_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(GOOD) + "\n")
    first = load_records(path)
    assert load_records(path) is first  # cached
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": 1}) + "\n")
    assert len(load_records(path)) == 2


# ------------------------------------------------------------------------------- roots and splits


def test_data_root_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RGB_DATA_DIR", raising=False)
    assert data_root(tmp_path) == tmp_path
    monkeypatch.setenv("RGB_DATA_DIR", str(tmp_path / "env"))
    assert data_root() == tmp_path / "env"
    monkeypatch.delenv("RGB_DATA_DIR")
    (tmp_path / "data_zh").mkdir()
    (tmp_path / "data_zh" / "MANIFEST.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    assert data_root() == tmp_path
    monkeypatch.chdir(tmp_path / "data_zh")
    assert data_root() == REPO


def test_status_and_resolve_on_repo_data(data_root: Path) -> None:
    rows = {(s.lang, s.name): s for s in status(data_root)}
    assert rows[("zh", "zh_refine.json")].verified and rows[("zh", "zh_refine.json")].records == 300
    src, recs = load_split(data_root, "zh", "integration")
    assert (src.name, src.complete, src.blob_id, src.expected_n) == (
        "zh_int.json",
        True,
        OFFICIAL["zh_int.json"],
        100,
    )
    assert len(recs) == 100 and isinstance(recs[0].positive[0], tuple)
    assert resolve_split(data_root, "zh", "rejection").name == "zh_refine.json"
    assert (
        resolve_split(data_root, "zh", "counterfactual", variant="original").name == "zh_fact.json"
    )


def _root_with(tmp_path: Path, official_dir: Path, names: list[str]) -> Path:
    root = tmp_path / "root"
    for name in names:
        lang = SHARED_FILES[name][0]
        dest = root / f"data_{lang}" / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(official_dir / name, dest)
    return root


def test_missing_split_message_and_partial_fallback(tmp_path: Path, official_dir: Path) -> None:
    root = _root_with(tmp_path, official_dir, ["partial/en_head50.json"])
    with pytest.raises(DataError) as err:
        resolve_split(root, "en", "noise")
    msg = str(err.value)
    assert "en_refine.json is missing" in msg and "rgb-leaderboard data fetch" in msg
    assert "--allow-partial-data" in msg and "internet" in msg
    src = resolve_split(root, "en", "rejection", allow_partial=True)
    assert (src.name, src.complete, src.blob_id, src.expected_n, src.n_records) == (
        "partial/en_head50.json",
        False,
        None,
        300,
        50,
    )
    assert src.file_blob_id == "2054180efbbc48252eaf9f417bbffa9eae58c683"
    assert resolve_split(root, "en", "noise", "original", allow_partial=True).complete is False
    with pytest.raises(DataError, match=r"en_int\.json is missing"):
        resolve_split(root, "en", "integration", allow_partial=True)
    with pytest.raises(DataError, match=r"zh_refine\.json is missing"):
        resolve_split(root, "zh", "noise", allow_partial=True)


def test_corrupted_file_on_disk_is_refused_by_resolve(tmp_path: Path, official_dir: Path) -> None:
    root = _root_with(tmp_path, official_dir, ["zh_fact.json"])
    path = root / "data_zh" / "zh_fact.json"
    path.write_bytes(path.read_bytes().replace("的".encode(), "地".encode(), 1))
    with pytest.raises(DataError, match=r"does not match the manifest.*data fetch"):
        resolve_split(root, "zh", "counterfactual")
    row = next(s for s in status(root) if s.name == "zh_fact.json")
    assert row.present and not row.verified and row.records is None


# ------------------------------------------------------------------------------- fetch (local)


def test_fetch_from_local_folder(tmp_path: Path, official_dir: Path) -> None:
    root = tmp_path / "root"
    rows = fetch(root, source=official_dir, progress=False)
    by = {(s.lang, s.name): s for s in rows}
    for name, (lang, n) in SHARED_FILES.items():
        assert by[(lang, name)].action == "copied" and by[(lang, name)].verified
        assert by[(lang, name)].records == n
    assert by[("en", "en_refine.json")].action == "missing"
    assert "not in" in by[("en", "en_refine.json")].detail
    assert (root / "data_zh" / "MANIFEST.json").read_text() == manifest_text("zh")
    assert not [p for p in root.rglob("*.part")]
    again = fetch(root, source=official_dir, progress=False)
    assert {s.action for s in again if s.verified} == {"already present"}


def test_fetch_refuses_corrupted_copy_and_keeps_good_file(
    tmp_path: Path, official_dir: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    shutil.copyfile(official_dir / "en_fact.json", src / "en_fact.json")
    good = (official_dir / "zh_fact.json").read_bytes()
    (src / "zh_fact.json").write_bytes(good.replace(b'"id": 3', b'"id": 33', 1))
    root = tmp_path / "root"
    with pytest.raises(DataError) as err:
        fetch(root, source=src, langs=["zh", "en"], progress=False)
    msg = str(err.value)
    assert "zh_fact.json" in msg and "refused" in msg and OFFICIAL["zh_fact.json"] in msg
    assert "data_en/en_fact.json" in msg  # what did succeed is said, and kept
    assert not (root / "data_zh" / "zh_fact.json").exists()
    assert (root / "data_en" / "en_fact.json").exists()
    assert _files_under(root / "data_zh") == {"MANIFEST.json"}
    # an existing good file is left untouched by a bad source
    (root / "data_zh" / "zh_fact.json").write_bytes(good)
    rows = fetch(root, source=src, langs=["zh"], progress=False)
    assert next(s for s in rows if s.name == "zh_fact.json").action == "already present"
    assert (root / "data_zh" / "zh_fact.json").read_bytes() == good


def test_fetch_with_nothing_available_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="none of the RGB data files"):
        fetch(tmp_path / "root", source=tmp_path / "empty", progress=False)
    with pytest.raises(DataError, match="not a folder"):
        fetch(tmp_path / "root", source=tmp_path / "nope", progress=False)


# --------------------------------------------------------------------------------- fetch (HTTP)


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder; /truncate/<name> promises the full length but sends half and hangs up."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/truncate/"):
            body = (Path(self.directory) / self.path.removeprefix("/truncate/")).read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    served = tmp_path / "served"
    served.mkdir()

    def handler(*args: object, **kwargs: object) -> _Handler:
        return _Handler(*args, directory=str(served), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_fetch_downloads_over_http(
    tmp_path: Path, official_dir: Path, http_server: tuple[str, Path]
) -> None:
    url, served = http_server
    shutil.copyfile(official_dir / "en_fact.json", served / "en_fact.json")
    (served / "partial").mkdir()
    shutil.copyfile(official_dir / "partial/en_head50.json", served / "partial/en_head50.json")
    root = tmp_path / "root"
    rows = fetch(root, langs=["en"], base_url=url, progress=True)
    by = {s.name: s for s in rows}
    assert by["en_fact.json"].action == "downloaded" and by["en_fact.json"].verified
    assert by["partial/en_head50.json"].action == "downloaded"
    assert by["en_refine.json"].action == "missing" and "404" in by["en_refine.json"].detail
    assert (root / "data_en" / "en_fact.json").read_bytes() == (
        official_dir / "en_fact.json"
    ).read_bytes()


def test_fetch_http_mismatch_and_interruption_leave_no_file(
    tmp_path: Path,
    official_dir: Path,
    http_server: tuple[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, served = http_server
    (served / "zh_fact.json").write_bytes((official_dir / "zh_fact.json").read_bytes()[:-100])
    root = tmp_path / "root"
    monkeypatch.setenv("RGB_DATA_BASE_URL", url)  # the environment variable also selects a mirror
    with pytest.raises(
        DataError, match=r"zh_fact.json has git blob .* refused \(nothing was written\)"
    ):
        fetch(root, langs=["zh"], progress=False)
    assert _files_under(root / "data_zh") == {"MANIFEST.json"}
    monkeypatch.delenv("RGB_DATA_BASE_URL")
    # interrupted transfer: the server announces the full size, sends half and closes
    shutil.copyfile(official_dir / "zh_fact.json", served / "zh_fact.json")
    with pytest.raises(DataError, match="interrupted"):
        fetch(root, langs=["zh"], base_url=f"{url}/truncate", progress=False)
    assert _files_under(root / "data_zh") == {"MANIFEST.json"}


def test_fetch_unreachable_server_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="failed or was interrupted"):
        fetch(
            tmp_path / "root",
            langs=["zh"],
            base_url="http://127.0.0.1:9",
            progress=False,
            timeout=5,
        )
