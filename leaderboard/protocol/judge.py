"""The RGB reference judge prompts (the paper's Rej* and ED*) and the parsing of a judge's verdict.

The two templates in resources/ are the reference repository's prompts (reject_evalue.py,
fact_evalue.py), byte for byte (source and hashes: resources/SOURCE.md). The reference has one
bilingual version of each, used for zh and en. They live in protocol/, beside the answering
prompts, and not in scoring/: no results.json number depends on them (scoring/ is hashed into the
scoring version, stats/version.py).

Verdicts are parsed in two ways, both kept:
- `parse_verdict`: robust. It reads the first line that takes a side (a leading yes/no, 是/否, or a
  verdict phrase such as "not addressed" / "has identified"), so a judge that keeps writing
  demonstrations after its answer is read by its answer. Text that takes no side, or both, is
  UNPARSABLE: never guessed, counted apart.
- `reference_decision`: the reference script's own substring rule ("not addressed" in the text;
  "has identified" or "Yes" in the text), for comparison with the paper's numbers.

Pure string work: no backend, no I/O beyond reading the packaged templates once.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources

from leaderboard.core.judge_schema import JudgeTask, Verdict

JUDGE_TASKS: tuple[JudgeTask, ...] = ("rejection", "error_detection")
# Which RGB ability's predictions each task judges.
TASK_ABILITY: dict[JudgeTask, str] = {"rejection": "rejection", "error_detection": "counterfactual"}
TEMPLATE_FILES: dict[JudgeTask, str] = {
    "rejection": "judge_reject.txt",  # reject_evalue.py `check`
    "error_detection": "judge_fact.txt",  # fact_evalue.py `check`
}
PARSER_VERSION = 1


@cache
def template(task: JudgeTask) -> str:
    """The reference template (a str.format template with {question} / {answer})."""
    ref = resources.files("leaderboard.protocol") / "resources" / TEMPLATE_FILES[task]
    return ref.read_bytes().decode("utf-8")


def template_sha256(task: JudgeTask) -> str:
    return hashlib.sha256(template(task).encode("utf-8")).hexdigest()


def judge_prompt(task: JudgeTask, question: str, answer: str) -> str:
    """The user message the reference sends (`prompt.format(question=..., answer=...)`)."""
    if task == "rejection":
        return template(task).format(question=question, answer=answer)
    return template(task).format(answer=answer)


def reference_decision(task: JudgeTask, text: str) -> bool:
    """The reference script's rule: rejected iff "not addressed" occurs; error detected iff
    "has identified" or "Yes" occurs (case-sensitive substrings, as there)."""
    if task == "rejection":
        return "not addressed" in text
    return "has identified" in text or "Yes" in text


@dataclass(frozen=True)
class ParsedVerdict:
    verdict: Verdict
    reason: str  # which signal decided it, or why it is unparsable


# A leading answer word, after optional markup and a label such as "Answer:" / "判断：".
_LABEL = r"(?:(?:answer|verdict|judge?ment|output|response|result|答案|回答|判断|结论)\s*[:：]\s*)?"
_LEAD_EN = re.compile(r"^[\s*_#>\"'`(\[-]*" + _LABEL + r"(yes|no)\b")
# a bare 是/对/否/不 counts only before punctuation or the end: 对于, 是否, 不确定 are not answers
_LEAD_ZH = re.compile(
    r"^[\s*_#>\"'`(\[-]*" + _LABEL + r"(不是|不对|是的|是|对|否|不)(?=[,，.。!！:：;；、\s]|$)"
)

_PHRASES: dict[JudgeTask, dict[str, re.Pattern[str]]] = {
    "rejection": {
        "no": re.compile(
            r"(?:\bnot|\bnever|\bcannot|n't)\s+(?:been\s+|be\s+|being\s+)?(?:fully\s+)?addressed\b"
            r"|\bunaddressed\b|\bnot\s+address(?:ed)?\b"
            r"|(?:没有|未|未能|无法|不能|不可以|不足以)(?:被)?(?:解决|回答)"
        ),
        "yes": re.compile(
            r"\b(?:is|are|was|were|been|be|being)\s+(?:fully\s+|successfully\s+)?addressed\b"
            r"|(?<![没未无不])(?:可以|能够|能|已经?|成功)(?:被)?(?:解决|回答)"
        ),
    },
    "error_detection": {
        "no": re.compile(
            r"\bfail(?:s|ed)?\s+to\s+identify\b"
            r"|(?:\bnot|n't|\bnever|\bcannot)\s+(?:\w+\s+)?identif(?:y|ied)\b"
            r"|(?:没有|未|未能|无法|不能)(?:成功)?(?:识别|发现|指出)"
        ),
        "yes": re.compile(
            r"\b(?:has|have|had|successfully|did|does|correctly)\s+(?:successfully\s+)?"
            r"identified\b|\bidentified\s+(?:the\s+|a\s+)?(?:factual\s+)?errors?\b"
            r"|(?<![没未无不])(?:已经?|成功)(?:地)?(?:识别|发现|指出)"
        ),
    },
}


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _line_verdict(task: JudgeTask, line: str) -> tuple[Verdict | None, str]:
    """(verdict, reason) of one line; (None, "") when it takes no side, "unparsable" when both."""
    found: dict[str, str] = {}
    lead = _LEAD_EN.match(line)
    if lead:
        found["lead"] = lead.group(1)
    else:
        lead_zh = _LEAD_ZH.match(line)
        if lead_zh:
            found["lead"] = "yes" if lead_zh.group(1) in ("是", "是的", "对") else "no"
    # a "no" phrase contains what a "yes" phrase looks for ("not been addressed"): blank it first
    neg = _PHRASES[task]["no"].search(line)
    rest = _PHRASES[task]["no"].sub(" ", line)
    pos = _PHRASES[task]["yes"].search(rest)
    if neg and pos:
        return "unparsable", f"both verdict phrases: {neg.group(0)!r} and {pos.group(0)!r}"
    if neg or pos:
        found["phrase"] = "no" if neg else "yes"
    sides = set(found.values())
    if len(sides) > 1:
        return "unparsable", f"leading {found['lead']!r} contradicts the verdict phrase"
    if not sides:
        return None, ""
    side = sides.pop()
    return side, "+".join(sorted(found))  # type: ignore[return-value]


def parse_verdict(task: JudgeTask, text: str) -> ParsedVerdict:
    """The judge's verdict: the first line that takes a side decides; never a guess."""
    for line in _normal(text).splitlines():
        line = line.strip()
        if not line:
            continue
        verdict, reason = _line_verdict(task, line)
        if verdict is not None:
            return ParsedVerdict(verdict, reason)
    return ParsedVerdict("unparsable", "no yes/no answer or verdict phrase")


def decision(task: JudgeTask, verdict: Verdict) -> bool | None:
    """What a verdict means for the metric: rejected (rejection: "No, not addressed") or error
    detected (error detection: "Yes, has identified"); None when unparsable."""
    if verdict == "unparsable":
        return None
    if task == "rejection":
        return verdict == "no"
    return verdict == "yes"
