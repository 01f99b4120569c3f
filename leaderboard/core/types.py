"""Frozen value types shared by every stage of the pipeline.

They are plain dataclasses (not pydantic) because they never come from outside: data files and YAML
are validated at the edge (data/records.py, core/submission.py, core/schema.py) and converted into
these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Lang = Literal["en", "zh"]
# The four RGB abilities, plus the probes (chain: retrieve-then-generate over the question's own
# pool; replacement: passages of unrelated questions; closedbook / closedbook_fact: the questions
# of the noise / counterfactual file asked with no passage, what the model knows by itself).
# Probes are selected, run, stored and scored like abilities but never enter the RGB ability or
# overall scores.
Ability = Literal[
    "noise",
    "rejection",
    "integration",
    "counterfactual",
    "chain",
    "replacement",
    "closedbook",
    "closedbook_fact",
    "conflict",
]
Mode = Literal["rgb", "strict"]
Role = Literal["system", "user", "assistant"]

LANGS: tuple[Lang, ...] = ("zh", "en")
ABILITIES: tuple[Ability, ...] = ("noise", "rejection", "integration", "counterfactual")
PROBES: tuple[Ability, ...] = ("chain", "replacement", "closedbook", "closedbook_fact")
# the probes whose instances carry no passage (the model answers from what it knows)
CLOSED_BOOK: tuple[Ability, ...] = ("closedbook", "closedbook_fact")
# The knowledge-conflict track (protocol/conflicts.py): the fact files' questions asked with true
# and altered passages side by side, one condition per passage mix. Like a probe it never enters
# the RGB scores; unlike one, its instances are keyed by condition (TestInstance.key).
CONFLICT: Ability = "conflict"
MODES: tuple[Mode, ...] = ("rgb", "strict")

# The RGB protocol: which noise rates each ability is evaluated at (paper, Section 4).
DEFAULT_NOISE_RATES: dict[Ability, tuple[float, ...]] = {
    "noise": (0.0, 0.2, 0.4, 0.6, 0.8),
    "rejection": (1.0,),
    "integration": (0.0, 0.2, 0.4),
    "counterfactual": (0.0,),
}  # the probes (PROBES) have no noise rate: their instances carry 0.0 (the key format)

# An answer is a string, a list of required strings, or a list whose elements are strings or lists
# of alternatives. Stored as tuples so records stay immutable.
AnswerElement = str | tuple[str, ...]
Answer = tuple[AnswerElement, ...]


@dataclass(frozen=True)
class Record:
    """One validated line of an RGB data file; immutable so instance building cannot mutate it."""

    id: int
    query: str
    answer: Answer  # normalised: a bare string answer becomes a one-element tuple
    # groups (tuple of tuples) in *_int
    positive: tuple[str, ...] | tuple[tuple[str, ...], ...]
    negative: tuple[str, ...]
    positive_wrong: tuple[str, ...] = ()  # *_fact only
    fakeanswer: Answer = ()  # *_fact only
    raw_answer: object = None  # the answer exactly as in the file, for display


@dataclass(frozen=True)
class TestInstance:
    """What one model call sees: the question and the passages, in the order shown."""

    __test__ = False  # not a pytest test class despite the name

    lang: Lang
    ability: Ability
    noise_rate: float
    id: int
    query: str
    answer: Answer
    docs: tuple[str, ...]
    fakeanswer: Answer = ()
    # where each passage came from, for probes ("positive[2]", "zh_refine.json#17 positive[0]");
    # empty for the RGB abilities, whose passages come from the record itself
    sources: tuple[str, ...] = ()
    # the conflict track only: the condition's id, the role of each passage in the order shown
    # ("true", "fake", "noise") and the seed its slots were drawn with
    condition: str = ""
    roles: tuple[str, ...] = ()
    seed: int | None = None
    # a system's chain instance only (it shows no passages: the system retrieves its own): the
    # question's own passages, which strict's copy rule reads in place of `docs`, so a system that
    # pastes what it retrieved is judged as a model that pastes what it was shown
    pool: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """Stable identity of an instance within a submission (used for resume and joins); a
        conflict instance is keyed by its condition where the others carry a noise rate."""
        if self.condition:
            return f"{self.lang}/{self.ability}/{self.condition}/{self.id}"
        return f"{self.lang}/{self.ability}/{self.noise_rate:.1f}/{self.id}"


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True)
class ChatRequest:
    """A batch element for Backend.generate: one conversation, answered by one Completion.

    `passages` and `lang` repeat, as data, what the messages already show the model: the passages
    in the order shown and the instance's language. Model backends ignore them; the scripted
    baselines (backends/scripted.py) read them instead of parsing the prompt text back, which
    would depend on the template and on no passage containing the separator. They are not part of
    the prompt hash (prompts.prompt_sha256 covers the messages only). `question` is the bare
    question, all a `system` backend (a whole RAG pipeline) is sent, with `lang`.
    """

    messages: tuple[ChatMessage, ...]
    passages: tuple[str, ...] = ()
    question: str | None = None
    lang: Lang | None = None


@dataclass(frozen=True)
class GenerationConfig:
    """Decoding settings; greedy (temperature 0) unless a submission asks otherwise."""

    max_new_tokens: int = 256
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 2333

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


@dataclass(frozen=True)
class Completion:
    """One model answer. A failure is a Completion with `error` set, never a missing item."""

    text: str
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float | None = None
    # the mean natural-log probability of the answer's generated tokens (the end-of-generation
    # token included when it ended the answer; the prompt never): the model's own confidence,
    # for risk-coverage. None where the engine does not give it.
    mean_logprob: float | None = None
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Score:
    """How one prediction was judged in one scoring mode."""

    labels: tuple[int, ...]  # per answer element 1/0, or (-1,) when rejected (rgb semantics)
    correct: bool
    rejected: bool
    error_detected: bool
    token_f1: float | None = None
