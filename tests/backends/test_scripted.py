"""The in-package scripted backend honours the Backend contract; its baseline policies answer from
the passages the request carries (real RGB instances through build_request)."""

from __future__ import annotations

import pytest

from leaderboard.backends.base import Backend, missing_dependency
from leaderboard.backends.policies import _LIST_SEP, ERROR_CLAIM, REFUSAL, candidates
from leaderboard.backends.registry import load_backend
from leaderboard.backends.scripted import ScriptedBackend, echo_question
from leaderboard.core.settings import ScriptedSettings
from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig
from leaderboard.protocol.prompts import build_request, system_prompt
from leaderboard.scoring.score import detects_error, is_rejection


def req(text: str) -> ChatRequest:
    return ChatRequest((ChatMessage("system", "sys"), ChatMessage("user", text)))


def test_cycles_responses_and_records_calls() -> None:
    fake = ScriptedBackend(["a", "b"])
    assert isinstance(fake, Backend)
    cfg = GenerationConfig()
    first = fake.generate([req("1"), req("2"), req("3")], cfg)
    second = fake.generate([req("4")], cfg)
    assert [c.text for c in first + second] == ["a", "b", "a", "b"]
    assert len(fake.calls) == 2 and fake.calls[1][0] == (req("4"),)
    assert fake.requests_seen == 4
    assert all(c.error is None and c.completion_tokens == 1 for c in first)


def test_failures_are_completions_never_dropped() -> None:
    fake = ScriptedBackend(["ok"], fail_indices=[1, 3])
    out = fake.generate([req(str(i)) for i in range(3)], GenerationConfig())
    out += fake.generate([req("3"), req("4")], GenerationConfig())
    assert [c.error is not None for c in out] == [False, True, False, True, False]
    assert "request #3" in (out[3].error or "")

    def boom(r: ChatRequest) -> str:
        if "bad" in r.messages[-1].content:
            raise RuntimeError("responder failed")
        return "fine"

    out = ScriptedBackend(boom).generate([req("good"), req("bad")], GenerationConfig())
    assert out[0].text == "fine" and out[1].error == "RuntimeError: responder failed"


def test_echo_strategy_and_token_budget() -> None:
    fake = ScriptedBackend(policy="echo")
    prompt = "Document:\nsome docs\n\nQuestion:\n谁获得了2022年诺贝尔文学奖？"
    (c,) = fake.generate([req(prompt)], GenerationConfig())
    assert c.text == "谁获得了2022年诺贝尔文学奖？" == echo_question(req(prompt))
    long = ScriptedBackend(["w " * 50]).generate([req("x")], GenerationConfig(max_new_tokens=5))
    assert long[0].text == "w w w w w"


def test_load_backend_builds_scripted_from_submission() -> None:
    sub = Submission(
        id="f",
        display_name="F",
        model="fake-model",
        backend="scripted",
        scripted=ScriptedSettings(responses=["x", "y"], fail_indices=[0]),
    )
    backend = load_backend(sub)
    out = backend.generate([req("1"), req("2")], sub.generation.to_config())
    assert out[0].error and out[1].text == "y"
    assert backend.describe().as_dict()["model"] == "fake-model"


def test_missing_optional_dependency_message_says_what_to_install() -> None:
    try:
        import leaderboard_h3_no_such_module  # type: ignore[import-not-found]  # noqa: F401
    except ImportError as exc:
        err = missing_dependency("hf", exc)
    assert "leaderboard_h3_no_such_module" in str(err)
    assert "pip install 'rgb-leaderboard[hf]'" in str(err)


# ------------------------------------------------------------------------- baseline policies


def _instance(root, lang: str, ability: str, rate: float, index: int = 0):
    from leaderboard.protocol.instances import build_instances

    _, instances = build_instances(
        root, lang, ability, noise_rates=[rate], allow_partial=True, limit=index + 1
    )
    return instances[index]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_policies_answer_from_the_passages_the_request_carries(data_root, lang: str) -> None:
    """Every policy on a real instance, through the request build_request makes for the runner."""
    inst = _instance(data_root, lang, "counterfactual" if lang == "en" else "noise", 0.0)
    request = build_request(inst)
    assert request.passages == inst.docs and request.lang == lang
    cfg = GenerationConfig(max_new_tokens=100_000)

    def answer(policy: str) -> str:
        (c,) = ScriptedBackend(policy=policy).generate([request], cfg)
        assert c.error is None
        return c.text

    assert answer("empty") == ""
    assert answer("refuse") == REFUSAL[lang]
    assert answer("refuse_error") == f"{REFUSAL[lang]} {ERROR_CLAIM[lang]}"
    assert answer("copy_all") == "\n".join(inst.docs)
    assert answer("copy_first") == inst.docs[0]
    listed = answer("candidates").split(_LIST_SEP[lang])
    assert listed and all(any(c in d for d in inst.docs) for c in listed)
    assert len(set(listed)) == len(listed)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_reference_sentences_are_quoted_from_the_rgb_instruction(lang: str) -> None:
    """The refusal and error sentences are the ones the RGB system prompt asks for, so the
    reference scorer counts them (rgb mode) and the baselines show the instructed behaviour."""
    prompt = system_prompt(lang)
    assert REFUSAL[lang] in prompt and ERROR_CLAIM[lang] in prompt
    assert is_rejection(REFUSAL[lang], lang, "rgb")
    assert detects_error(ERROR_CLAIM[lang], lang, "rgb")


CANDIDATE_CASES = [
    (
        "zh",
        "2022年1月3日，梅西在卡塔尔以3:1击败法国，获得《世界杯》冠军。",
        ["2022年1月3日", "梅西", "卡塔尔", "法国", "《世界杯》"],
    ),
    ("zh", "营收增长百分之六点四，达到1,313,851万元。", ["1,313,851万元"]),
    (
        "en",
        "On January 3, 2022 the Bank of England raised rates to 0.5%.",
        ["January 3, 2022", "Bank of England", "0.5%"],
    ),
    ("en", "Lionel Messi scored 2 goals.", ["Lionel Messi", "2"]),
]


@pytest.mark.parametrize(("lang", "text", "expected"), CANDIDATE_CASES)
def test_candidates_lists_numbers_dates_and_names(
    lang: str, text: str, expected: list[str]
) -> None:
    found = candidates((text,), lang)
    missing = [e for e in expected if e not in found]
    assert not missing, (missing, found)


def test_a_policy_without_the_language_is_a_failed_generation_not_a_crash() -> None:
    (c,) = ScriptedBackend(policy="refuse").generate([req("x")], GenerationConfig())
    assert c.text == "" and "language" in (c.error or "")


def test_rules_answer_by_content_before_the_policy() -> None:
    backend = ScriptedBackend(["fallback"], rules=[("信息不足", "No"), (r"(?i)paris", "Yes")])
    requests = [
        ChatRequest((ChatMessage("system", "paris"), ChatMessage("user", "答案：信息不足"))),
        ChatRequest((ChatMessage("user", "It is PARIS"),)),
        ChatRequest((ChatMessage("user", "Rome"),)),
    ]
    texts = [c.text for c in backend.generate(requests, GenerationConfig())]
    assert texts == ["No", "Yes", "fallback"]  # only the last user message is matched
    assert backend.describe().as_dict()["rules"] == 2
