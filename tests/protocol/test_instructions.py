"""The instruction-sensitivity track's instructions: every file loads, hashes and renders in both
languages; the official one is RGB's file; a variant differs from the official prompt only where
its file says."""

from __future__ import annotations

from importlib import resources

import pytest

from leaderboard.core.errors import ConfigError
from leaderboard.core.types import LANGS
from leaderboard.core.types import TestInstance as Instance
from leaderboard.data.manifest import git_blob_sha1
from leaderboard.protocol.instructions import (
    OFFICIAL,
    PANEL,
    alternative_ids,
    instruction_ids,
    load_instruction,
    official_texts,
)
from leaderboard.protocol.prompts import INSTRUCTION_BLOB_ID, build_request, prompt_sha256

REFUSAL = {
    "en": "I can not answer the question because of the insufficient information in documents.",
    "zh": "文档信息不足，因此我无法基于提供的文档回答该问题。",
}
ERROR = {
    "en": "There are factual errors in the provided documents.",
    "zh": "提供文档的文档存在事实性错误。",
}


def _inst(lang: str, docs: tuple[str, ...] = ("p1 {x}", "p2")) -> Instance:
    return Instance(
        lang=lang,
        ability="rejection",
        noise_rate=1.0,
        id=7,
        query="Q {QUERY}?",
        answer=("a",),
        docs=docs,
    )


def test_there_are_at_least_three_alternatives_and_the_official_comes_first() -> None:
    assert instruction_ids()[0] == OFFICIAL
    assert len(alternative_ids()) >= 3
    assert {"typo_fixed", "no_refusal", "abstain_user"} <= set(alternative_ids())


@pytest.mark.parametrize("instruction_id", instruction_ids())
def test_every_instruction_loads_hashes_and_renders_both_languages(instruction_id: str) -> None:
    ins = load_instruction(instruction_id)
    assert ins.id == instruction_id and len(ins.sha256) == 64
    for lg in ("en", "zh"):  # the site's languages: every text a reader sees
        assert ins.title[lg].strip() and ins.purpose[lg].strip() and ins.changes[lg].strip()
    for lang in LANGS:
        request = build_request(_inst(lang), instruction_id)
        assert request.messages[-1].role == "user"
        assert "p1 {x}\np2" in request.messages[-1].content  # the passages, as RGB joins them


def test_the_official_instruction_is_rgbs_file_byte_for_byte() -> None:
    packaged = resources.files("leaderboard.protocol") / "resources" / "instruction.yaml"
    assert git_blob_sha1(packaged.read_bytes()) == INSTRUCTION_BLOB_ID
    ins = load_instruction(OFFICIAL)
    assert ins.official and ins.differs_in == ()
    for lang in LANGS:
        assert ins.system(lang) == official_texts()[lang]["system"]
        # naming the official instruction builds exactly the request RGB's code builds
        assert build_request(_inst(lang), OFFICIAL) == build_request(_inst(lang))


def test_hashes_differ_between_instructions() -> None:
    hashes = [load_instruction(i).sha256 for i in instruction_ids()]
    assert len(set(hashes)) == len(hashes)


@pytest.mark.parametrize("instruction_id", alternative_ids())
@pytest.mark.parametrize("lang", LANGS)
def test_a_variant_differs_from_the_official_prompt_only_where_its_file_says(
    instruction_id: str, lang: str
) -> None:
    ins = load_instruction(instruction_id)
    official = build_request(_inst(lang))
    variant = build_request(_inst(lang), instruction_id)
    off = {m.role: m.content for m in official.messages}
    var = {m.role: m.content for m in variant.messages}
    differs = set()
    if off.get("system") != var.get("system"):
        differs.add("system")
    if off["user"] != var["user"]:
        differs.add("user")
        # the only change a variant may make to the user message: a preamble before RGB's
        assert var["user"].endswith(off["user"])
    assert differs == set(ins.differs_in), (instruction_id, lang)
    assert prompt_sha256(official) != prompt_sha256(variant)


@pytest.mark.parametrize("instruction_id", alternative_ids())
@pytest.mark.parametrize("lang", LANGS)
def test_a_variant_that_asks_for_refusal_keeps_rgbs_sentences(
    instruction_id: str, lang: str
) -> None:
    """The detectors look for RGB's refusal and error sentences: a variant that asks for them
    asks for them word for word (only `no_refusal` drops them, by design)."""
    text = "\n".join(m.content for m in build_request(_inst(lang), instruction_id).messages)
    if instruction_id == "no_refusal":
        assert REFUSAL[lang] not in text and ERROR[lang] not in text
    else:
        assert REFUSAL[lang] in text and ERROR[lang] in text


def test_closed_book_questions_have_no_instruction_to_vary() -> None:
    for ins in alternative_ids():
        assert build_request(_inst("zh", docs=()), ins) == build_request(_inst("zh", docs=()))


def test_an_unknown_instruction_is_one_line_naming_the_choices() -> None:
    with pytest.raises(ConfigError, match="unknown instruction 'nope': use one of rgb"):
        load_instruction("nope")


def test_the_panel_is_the_issue_s_panel() -> None:
    assert PANEL == (
        ("zh", "rejection", 1.0, 100),
        ("zh", "noise", 0.0, 100),
        ("zh", "counterfactual", 0.0, 50),
        ("en", "rejection", 1.0, 100),
        ("en", "noise", 0.0, 100),
        ("en", "counterfactual", 0.0, 50),
    )


def test_a_bad_instruction_file_is_one_line_naming_file_line_and_field(tmp_path, monkeypatch):
    import leaderboard.protocol.instructions as mod

    folder = tmp_path / "instructions"
    folder.mkdir()
    good = mod._resource("instructions", "typo_fixed.yaml").read_text("utf-8")
    (folder / "typo_fixed.yaml").write_text(good + "colour: red\n", encoding="utf-8")
    monkeypatch.setattr(mod, "_resource", lambda *parts: tmp_path.joinpath(*parts))
    mod.load_instruction.cache_clear()
    try:
        with pytest.raises(ConfigError) as err:
            mod.load_instruction("typo_fixed")
    finally:
        mod.load_instruction.cache_clear()
    line = good.count("\n") + 1
    assert str(err.value).startswith(
        f"leaderboard/protocol/resources/instructions/typo_fixed.yaml:{line}: field 'colour': "
        "unknown field; allowed here: id, official, track,"
    )
    assert "\n" not in str(err.value)
