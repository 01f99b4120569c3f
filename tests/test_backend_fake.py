"""The in-package fake provider honours the Backend contract (for pipeline tests, dry runs)."""

from __future__ import annotations

from leaderboard.backends.base import Backend, load_backend, missing_dependency
from leaderboard.backends.fake import FakeBackend, echo_question
from leaderboard.core.settings import FakeSettings
from leaderboard.core.submission import Submission
from leaderboard.core.types import ChatMessage, ChatRequest, GenerationConfig


def req(text: str) -> ChatRequest:
    return ChatRequest((ChatMessage("system", "sys"), ChatMessage("user", text)))


def test_cycles_responses_and_records_calls() -> None:
    fake = FakeBackend(["a", "b"])
    assert isinstance(fake, Backend)
    cfg = GenerationConfig()
    first = fake.generate([req("1"), req("2"), req("3")], cfg)
    second = fake.generate([req("4")], cfg)
    assert [c.text for c in first + second] == ["a", "b", "a", "b"]
    assert len(fake.calls) == 2 and fake.calls[1][0] == (req("4"),)
    assert fake.requests_seen == 4
    assert all(c.error is None and c.completion_tokens == 1 for c in first)


def test_failures_are_completions_never_dropped() -> None:
    fake = FakeBackend(["ok"], fail_indices=[1, 3])
    out = fake.generate([req(str(i)) for i in range(3)], GenerationConfig())
    out += fake.generate([req("3"), req("4")], GenerationConfig())
    assert [c.error is not None for c in out] == [False, True, False, True, False]
    assert "request #3" in (out[3].error or "")

    def boom(r: ChatRequest) -> str:
        if "bad" in r.messages[-1].content:
            raise RuntimeError("responder failed")
        return "fine"

    out = FakeBackend(boom).generate([req("good"), req("bad")], GenerationConfig())
    assert out[0].text == "fine" and out[1].error == "RuntimeError: responder failed"


def test_echo_strategy_and_token_budget() -> None:
    fake = FakeBackend(strategy="echo")
    prompt = "Document:\nsome docs\n\nQuestion:\n谁获得了2022年诺贝尔文学奖？"
    (c,) = fake.generate([req(prompt)], GenerationConfig())
    assert c.text == "谁获得了2022年诺贝尔文学奖？" == echo_question(req(prompt))
    long = FakeBackend(["w " * 50]).generate([req("x")], GenerationConfig(max_new_tokens=5))
    assert long[0].text == "w w w w w"


def test_load_backend_builds_fake_from_submission() -> None:
    sub = Submission(
        id="f",
        display_name="F",
        model="fake-model",
        backend="fake",
        fake=FakeSettings(responses=["x", "y"], fail_indices=[0]),
    )
    backend = load_backend(sub)
    out = backend.generate([req("1"), req("2")], sub.generation.to_config())
    assert out[0].error and out[1].text == "y"
    assert backend.describe()["model"] == "fake-model"


def test_missing_optional_dependency_message_says_what_to_install() -> None:
    try:
        import leaderboard_h3_no_such_module  # type: ignore[import-not-found]  # noqa: F401
    except ImportError as exc:
        err = missing_dependency("hf", exc)
    assert "leaderboard_h3_no_such_module" in str(err)
    assert "pip install 'rgb-leaderboard[hf]'" in str(err)
