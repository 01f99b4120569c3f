"""Language profiles: the per-language behaviour of the strict scorer is data (`profile:` in
scoring/phrases/<lang>.yaml), so a third language loads and scores without touching code."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaderboard.core.errors import DataError
from leaderboard.core.types import TestInstance
from leaderboard.scoring.normalize import normalize
from leaderboard.scoring.phrases import KINDS, phrase_table
from leaderboard.scoring.profile import ENV_DIRS, profile
from leaderboard.scoring.score import score_both

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "phrases"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_profile_word_lists_are_in_normal_form(lang: str) -> None:
    """profile.py sits below normalize, so its words are written in normal form."""
    prof = profile(lang)
    for neg in (prof.answer_negation, prof.negated_claim):
        for word in neg.words + neg.cancel:
            assert normalize(word, lang) == word, word  # type: ignore[arg-type]
    assert all(normalize(a, lang) == a for a in prof.articles)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_kind_has_a_pattern(lang: str) -> None:
    table = phrase_table(lang)
    assert {k.name for k in KINDS} <= set(table.patterns)
    assert set(table.phrases) == {k.name for k in KINDS}


def _de(query: str, answer: tuple[str, ...], fake: tuple[str, ...] = ()) -> TestInstance:
    ability = "counterfactual" if fake else "noise"
    return TestInstance("de", ability, 0.0, 0, query, answer, (), fake)  # type: ignore[arg-type]


def test_a_third_language_loads_and_scores_without_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/fixtures/phrases/de.yaml, found through $RGB_LEADERBOARD_PHRASES: the normal form,
    answer matching with negation, refusals, error claims and token F1 all follow its profile."""
    monkeypatch.setenv(ENV_DIRS, str(FIXTURES))
    prof = profile("de")
    assert prof.word_boundaries and prof.tokens == "words" and "die" in prof.articles
    assert normalize("Die   ANTWORT: Norwegen!", "de") == "die antwort norwegen"  # type: ignore[arg-type]
    inst = _de("Wer gewann?", ("Norwegen",))
    cases = {
        "Die Antwort ist Norwegen.": (True, False, False),
        "Es ist nicht Norwegen.": (False, False, False),
        "Nicht Schweden, sondern Norwegen.": (True, False, False),
        "Norwegens Team": (False, False, False),  # word boundaries
        "Die Dokumente enthalten nicht genügend Informationen.": (False, True, False),
        "Die Dokumente haben das nicht erwähnt.": (False, True, False),
        "Die Dokumente enthalten sachliche Fehler. Die Antwort ist Norwegen.": (True, False, True),
        "Die Angabe in den Dokumenten ist falsch, es war Norwegen.": (True, False, True),
        "Die Dokumente enthalten keine sachliche Fehler.": (False, False, False),
    }
    for text, (correct, rejected, error) in cases.items():
        got = score_both(text, inst)["strict"]
        assert (got.correct, got.rejected, got.error_detected) == (correct, rejected, error), text
    # articles are not tokens: "die antwort ist norwegen" has 3 tokens, one of them gold
    f1 = score_both("Die Antwort ist Norwegen.", inst)["strict"].token_f1
    assert f1 == pytest.approx(0.5)
    fake = _de("Wer gewann?", ("Norwegen",), ("Norwegen-Schweden",))
    assert not score_both("Es war Norwegen-Schweden.", fake)["strict"].correct


def test_an_unknown_language_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_DIRS, str(FIXTURES))
    with pytest.raises(DataError, match="no phrase file for language 'xx'"):
        profile("xx")


def test_a_bad_profile_names_the_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (FIXTURES / "de.yaml").read_text("utf-8").replace("short_item: 30", "short_item: 0")
    (tmp_path / "qq.yaml").write_text(text, "utf-8")
    monkeypatch.setenv(ENV_DIRS, str(tmp_path))
    with pytest.raises(DataError, match=r"qq\.yaml: field profile\.short_item"):
        profile("qq")
