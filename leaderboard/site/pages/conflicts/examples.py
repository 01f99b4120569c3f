"""The conflict page's example browser: for a few questions per language and condition, the
passages in the order the model read them (the true and the altered passage marked by role, with
the source each came from), the question, the true and the planted answer, and each entry's answer
with its outcome label.

The instances are rebuilt as the runs built them (run.plan.conflict_instances) and joined by key
to the committed answers (ConflictRun.predictions); the label is scoring.conflict_outcome's. The
choice is made once per build (`pick_examples`, into `SiteData.extra[EXAMPLES]`): per language and
condition the questions the measured models answered most differently (then the most models, then
the lowest id), so that the examples show what sways a model rather than what every model does
alike. Every piece of data and model text is escaped and marked as quoted (`lb-quote`, `lang`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from leaderboard.board.conflicts import OFFICIAL, ConflictPanel
from leaderboard.board.load import Entry
from leaderboard.board.ranking import is_trivial_baseline
from leaderboard.core.errors import DataError
from leaderboard.core.types import CONFLICT, LANGS, TestInstance
from leaderboard.protocol.conflicts import condition_ids, load_condition
from leaderboard.protocol.instructions import load_instruction
from leaderboard.run.plan import conflict_instances
from leaderboard.scoring.conflict_outcome import conflict_outcome
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.i18n import ui
from leaderboard.site.render.page import Context, badge, shown_name

EXAMPLES = "conflict_examples"  # SiteData.extra key: the build's list of Example
PER_CONDITION = 2  # questions shown per language and condition
CLIP = 700  # characters of an answer shown (a pasted passage runs long); the rest is counted
ORDER = ("t1f1", "f1t1", "t1f1_same", "t2f1", "t1f2", "true_only", "fake_only")


@dataclass(frozen=True)
class ShownAnswer:
    """One entry's answer to one example, with its outcome label."""

    entry_id: str
    name: str
    instruction: str
    prediction: str
    label: str
    failed: bool
    baseline: bool  # a trivial baseline's (the floor), shown apart


@dataclass(frozen=True)
class Example:
    instance: TestInstance
    answers: tuple[ShownAnswer, ...]


def _instances(root: Path) -> dict[str, TestInstance]:
    out: dict[str, TestInstance] = {}
    for lang in LANGS:
        try:
            _, built, _ = conflict_instances(root, lang, condition_ids())
        except DataError:  # no data file here: no examples of that language
            continue
        out |= {i.key: i for i in built}
    return out


def _labels(panels: Sequence[ConflictPanel], floor: set[str]) -> dict[str, dict[str, str]]:
    """key -> {entry: label} of the models' answers under RGB's instruction (the choice reads
    the outcomes the board already computed)."""
    out: dict[str, dict[str, str]] = {}
    for p in panels:
        if p.entry_id in floor:
            continue
        for a in p.answers.get(OFFICIAL, ()):
            key = f"{a.lang}/{CONFLICT}/{a.condition}/{a.id}"
            out.setdefault(key, {})[p.entry_id] = a.outcome.label
    return out


def _answers(entries: Sequence[Entry], inst: TestInstance) -> tuple[ShownAnswer, ...]:
    shown = []
    for e in entries:
        for run in e.conflicts:
            for r in run.predictions:
                if r.key != inst.key:
                    continue
                failed = r.error is not None
                label = "other" if failed else conflict_outcome(r.prediction, inst).label
                shown.append(
                    ShownAnswer(
                        e.id,
                        e.name,
                        run.instruction,
                        r.prediction,
                        label,
                        failed,
                        is_trivial_baseline(e.results),
                    )
                )
    return tuple(shown)


def pick_examples(
    entries: Sequence[Entry],
    panels: Sequence[ConflictPanel],
    root: Path,
    per_condition: int = PER_CONDITION,
) -> list[Example]:
    """A few answered questions per language and condition (module docstring), with every
    entry's answers to them; [] when no entry has conflict answers."""
    measured = [e for e in entries if e.conflicts]
    if not measured:
        return []
    floor = {e.id for e in measured if is_trivial_baseline(e.results)}
    labels = _labels(panels, floor)
    answered = {r.key for e in measured for run in e.conflicts for r in run.predictions}
    instances = _instances(root)
    out: list[Example] = []
    for lang in LANGS:
        for cond in (*ORDER, *(c for c in condition_ids() if c not in ORDER)):
            keys = [
                k
                for k, i in instances.items()
                if i.lang == lang and i.condition == cond and k in answered
            ]

            def rank(k: str) -> tuple[int, int, int]:
                by = labels.get(k, {})
                return (-len(set(by.values())), -len(by), instances[k].id)

            for k in sorted(keys, key=rank)[:per_condition]:
                out.append(Example(instances[k], _answers(measured, instances[k])))
    return out


def examples(ctx: Context) -> list[Example]:
    found = ctx.data.extra.get(EXAMPLES)
    return list(found) if isinstance(found, list | tuple) else []


# --- rendering ---------------------------------------------------------------------------------


def _quote(text: str, lang: str, css: str = "") -> str:
    cls = f"lb-quote {css}".strip()
    return f'<span class="{cls}" lang="{esc(lang)}">{esc(text)}</span>'


def _answer_text(answer: object) -> list[str]:
    """The alternatives of an answer field (a string, a list, or groups of lists), flat."""
    if isinstance(answer, str):
        return [answer]
    if isinstance(answer, list | tuple):
        return [t for a in answer for t in _answer_text(a)]
    return [] if answer is None else [str(answer)]


def _passages(inst: TestInstance, lg: str) -> str:
    items = []
    for i, doc in enumerate(inst.docs):
        role = inst.roles[i] if i < len(inst.roles) else "noise"
        source = inst.sources[i] if i < len(inst.sources) else ""
        mark = badge(f"role-{role}", ui(lg, f"conf.role.{role}"), ui(lg, f"conf.role_tip.{role}"))
        where = f" <code>{esc(source)}</code>" if source else ""
        items.append(
            f'<li class="lb-passage lb-passage-{esc(role)}">{mark}{where} '
            f"{_quote(doc, inst.lang)}</li>"
        )
    return f'<ol class="lb-passages">{"".join(items)}</ol>'


def _answer_html(a: ShownAnswer, lang: str, lg: str, prefix: str) -> str:
    name = esc(shown_name(a.entry_id, a.name, lg))
    who = f'<a href="{prefix}models/{esc(a.entry_id)}.md">{name}</a>'
    if a.instruction != OFFICIAL:
        who += f" · {esc(load_instruction(a.instruction).title.get(lg) or a.instruction)}"
    label = badge(f"out-{a.label}", ui(lg, f"conf.label.{a.label}"), ui(lg, f"conf.tip.{a.label}"))
    if a.failed:
        body = f'<span class="lb-clipped">{esc(ui(lg, "conf.failed"))}</span>'
    else:
        text = a.prediction if len(a.prediction) <= CLIP else a.prediction[:CLIP] + "…"
        body = _quote(text, lang, "lb-output")
        if len(a.prediction) > CLIP:
            clipped = ui(lg, "conf.clipped", shown=CLIP, n=len(a.prediction))
            body += f'<span class="lb-clipped">{esc(clipped)}</span>'
        if not a.prediction.strip():
            body = f'<span class="lb-clipped">{esc(ui(lg, "conf.empty"))}</span>'
    return f"<li>{who} {label}<br>{body}</li>"


def example_html(ex: Example, lg: str, prefix: str) -> str:
    """One question: what the model read, what is true, what was planted, what each answered."""
    inst = ex.instance
    sep = ui(lg, "sep.list")
    gold = sep.join(_answer_text(inst.answer))
    fake = sep.join(_answer_text(inst.fakeanswer))
    question, true, planted = (
        f"<strong>{esc(ui(lg, f'conf.ex_{k}'))}</strong>" for k in ("question", "gold", "fake")
    )
    head = (
        f"<p>{question} {_quote(inst.query, inst.lang)} <code>{esc(inst.key)}</code></p>"
        f"<p>{true} {_quote(gold, inst.lang, 'lb-gold')}"
        f" · {planted} {_quote(fake, inst.lang, 'lb-fake')}</p>"
    )
    models = [a for a in ex.answers if not a.baseline]
    floor = [a for a in ex.answers if a.baseline]
    parts = [f'<div class="lb-item">{head}', _passages(inst, lg)]
    if models:
        items = "".join(_answer_html(a, inst.lang, lg, prefix) for a in models)
        parts.append(f'<ul class="lb-answers">{items}</ul>')
    else:
        parts.append(f'<p class="lb-note">{esc(ui(lg, "conf.ex_no_model"))}</p>')
    if floor and not models:  # the floor's answers only until a model has answered
        items = "".join(_answer_html(a, inst.lang, lg, prefix) for a in floor)
        summary = esc(ui(lg, "conf.ex_floor", n=len(floor)))
        parts.append(
            f'<details><summary>{summary}</summary><ul class="lb-answers">{items}</ul></details>'
        )
    parts.append("</div>")
    return "".join(parts)


def examples_section(ctx: Context, prefix: str) -> str:
    """The browser: per language, one collapsed block per condition."""
    lg = ctx.lg
    shown = examples(ctx)
    if not shown:
        return ""
    parts = [f"\n## {ui(lg, 'conf.examples_h')}\n", esc(ui(lg, "conf.examples_lead")) + "\n"]
    for lang in LANGS:
        mine = [e for e in shown if e.instance.lang == lang]
        if not mine:
            continue
        parts.append(f"\n### {ui(lg, f'lang.{lang}')}\n")
        conds = list(dict.fromkeys(e.instance.condition for e in mine))
        for cond in conds:
            group = [e for e in mine if e.instance.condition == cond]
            title = load_condition(cond).title.get(lg) or cond
            summary = esc(ui(lg, "conf.ex_summary", title=title, n=len(group)))
            body = "".join(example_html(e, lg, prefix) for e in group)
            parts.append(
                f'\n<details class="lb-examples"><summary>{summary} <code>{esc(cond)}</code>'
                f"</summary>{body}</details>\n"
            )
    return "\n".join(parts)
