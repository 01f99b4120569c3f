"""data/view.py: verify and rescore rebuild instances from the files a run recorded, so a partial
stand-in stays the stand-in after the official file has been fetched (the GitHub workflow fetches
en_refine.json online; the committed SmolLM2 en rows were made from partial/en_head50.json)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from leaderboard.core.errors import DataError
from leaderboard.data.splits import resolve_split
from leaderboard.data.view import recorded_view


@pytest.fixture
def root_with_official_en(rgb_root: Path, tmp_path: Path) -> Path:
    """A data root with the partial en file and an en_refine.json that is not the recorded one
    (bytes that fail the manifest check: the root itself must not silently use it)."""
    for rel in ("data_en/partial/en_head50.json", "data_en/en_fact.json", "data_zh/zh_refine.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(rgb_root / rel, tmp_path / rel)
    (tmp_path / "data_en" / "en_refine.json").write_text("{}\n", encoding="utf-8")
    return tmp_path


def test_view_holds_exactly_the_recorded_files(root_with_official_en: Path) -> None:
    names = {"partial/en_head50.json": "x", "zh_refine.json": "y", "not-a-manifest-file.json": "z"}
    with recorded_view(root_with_official_en, names) as view:
        files = sorted(str(p.relative_to(view)) for p in view.rglob("*") if p.is_file())
        assert files == ["data_en/partial/en_head50.json", "data_zh/zh_refine.json"]
        src = resolve_split(view, "en", "noise", allow_partial=True)
        assert src.name == "partial/en_head50.json" and not src.complete
        with pytest.raises(DataError):  # en_fact was not recorded: not visible
            resolve_split(view, "en", "counterfactual")
    assert not view.exists()  # the view is temporary
    with pytest.raises(DataError, match="does not match the manifest"):
        resolve_split(root_with_official_en, "en", "noise", allow_partial=True)


def test_verify_rebuilds_the_partial_entry_with_another_en_refine_present(
    root_with_official_en: Path, rgb_root: Path, tmp_path: Path
) -> None:
    """The committed SmolLM2 entry (en rows from the partial file) is rebuilt, every prediction
    matching its instance, from a root whose en_refine.json is not the recorded file."""
    from leaderboard.trust.verify import recompute  # the run layer, imported where used

    root = root_with_official_en
    for rel in ("data_zh/zh_int.json", "data_zh/zh_fact.json"):
        shutil.copyfile(rgb_root / rel, root / rel)
    entry = shutil.copytree(rgb_root / "submissions" / "smollm2-135m-instruct", tmp_path / "e")
    rc = recompute(entry, root)
    assert rc.new is not None and rc.problems == []
    assert "partial/en_head50.json" in rc.new.provenance.data_blob_ids
