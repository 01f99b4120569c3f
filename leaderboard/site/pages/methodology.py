"""The methodology page: what each number means in both scoring modes, the data audit, licence."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from leaderboard.board.load import SiteData
from leaderboard.board.ranking import is_trivial_baseline, score_entry
from leaderboard.core.types import LANGS
from leaderboard.scoring.audit import audit
from leaderboard.site.pages.scorer_agreement import agreement_section
from leaderboard.site.render.fmt import esc
from leaderboard.site.render.page import ABILITY_NAMES, Output, definitions
from leaderboard.site.render.tables import Cell, Column, Row, Table

TEXT = """
# Methodology

## What is measured

Each RGB instance is a question, its gold answer and a set of retrieved passages, some of them
*noise* (relevant-looking but without the answer). The model sees the passages and the question in
the RGB prompt (system instruction from the reference repository) and answers once, greedily.

- **Noise robustness**: accuracy at noise rates 0, 0.2, 0.4, 0.6 and 0.8 (share of noise passages).
- **Negative rejection**: noise rate 1.0, so no passage holds the answer; the rejection rate is the
  share of answers that refuse ("insufficient information").
- **Information integration**: the answer has several parts found in different passages; accuracy at
  noise rates 0, 0.2 and 0.4.
- **Counterfactual robustness**: the passages state a false fact. Error detection (ED) is the share
  of answers that flag the factual error; error correction (CR) the share of detected errors whose
  answer also gives the true fact (reference definition: corrected / detected); CR (all) is
  corrected and detected over all questions.

## Two scoring modes

**Reference (rgb) mode** reproduces the official RGB scorer (`evalue.py`) bit for bit, so numbers
compare with the paper: in Chinese every ASCII space is removed from the answer first; an answer
element counts as found when its lower-case form (or any alternative) is a substring of the
lower-cased answer; an answer containing 信息不足 / `insufficient information` is a rejection; one
containing 事实性错误 / `factual errors` detects the counterfactual error.

**Strict mode** is this leaderboard's corrected judgement (`leaderboard/scoring/`). Answer and
gold go through the same normal form (Unicode NFKC, casefold, punctuation and currency signs as
separators, `1,361` → `1361`, Traditional → Simplified characters, Chinese numerals and 万/亿
magnitudes by value: `十二` = `12`, `二〇二二` = `2022`, `百分之六点四` = `6.4%`, `一万四千` =
`1.4万`; `U.S.` = `US`; `$68.7bn` = `68.7 billion`; `Feb. 13th` = `February 13`; a minus sign is
kept, so `-2.3%` is not `2.3%`), and a match must respect number boundaries in both languages and
word boundaries in English, so `70` no longer matches inside `170`, nor `1月3日` inside `11月3日`,
nor `2` inside `2022`. The **answer part** is judged: a negated answer ("It is not Norway",
"答案不是X") is not credited, a true answer inside the fake answer only counts outside it, and a
response that is mostly verbatim passage text over two sentences or more (a *copy*), or a long
list of short candidates, gets no answer credit even when the gold string is inside it. Rejections
and error claims come from phrase tables per language (plus a Chinese negation-and-verb pattern)
but count only as the response's **own claim**: not in reported speech
("她表示无法确定是否参加下届比赛"), not as weak error words outside a sentence about the documents
("新冠疫苗存在错误信息传播的问题"), and a refusal is no rejection when the response gives an
answer before it or after a "but" ("The documents do not provide a date, but the winner is
Norway").

Where the modes disagree the site shows both. The home page **ranks by strict mode**; the reference
(rgb) scores stay beside every row and on every page, and the [reference-mode page](ranking-rgb.md)
orders the entries by them for comparison with the paper.

## The ranked (strict) ability and overall scores

The reference ability scores can be won without answering: always refusing scores 100% on
rejection, always claiming a factual error 50% on the counterfactual, so a constant answer out-ranks
real models. The strict ability scores are decisions measured against their false alarms, so that a
policy that ignores the question scores near 0:

- **Noise robustness / information integration**: mean over the noise rates of the share of
  answers that give the (every part of the) answer *and do not refuse*: an answer that also refuses
  is not a decision to answer.
- **Negative rejection**: Youden's J of the refusal decision. *Refusal rate* at noise rate 1.0
  minus the *over-refusal rate*, the mean refusal rate on the same questions at noise rates 0–0.8,
  where the answer is in the passages; floored at 0. Refusing everything scores 1 − 1 = 0, never
  refusing 0 − 0 = 0. Instances whose "negative" passages in fact hold the whole answer (the data
  audit's `answer_in_negative` findings below, reported upstream as RGB issue #8) are left out of
  the refusal rate, since refusing there is not the right answer; their refusal rate and count are
  shown apart on the rejection pages.
- **Counterfactual robustness**: mean of two terms. *Net error detection*: the error-claim rate on
  the counterfactual instances minus the error-claim rate on the noise instances (rates 0–0.8),
  whose passages hold no false fact, so an error claim there is a false alarm; floored at 0.
  Instances whose fake answer equals the true answer (`fake_equals_answer`) are left out of the
  detection term, as their passages are not wrong. *Accuracy*: the share of counterfactual answers
  that give the true answer without refusing. Claiming an error everywhere scores 1 − 1 = 0 on the
  first term; refusing scores 0 on the second.
- **Overall**: mean of the four strict ability scores of the language, and only when every ability
  is measured in full on the official data files; otherwise the cell reads "—" with the reason and
  the entry is not ranked in that table (it still appears, unranked, with its ability scores). The
  same rule holds for the reference overall. The combined (zh + en) overall needs both.
- **zh − en overall**: the mean over the abilities scored in both languages of the zh − en ability
  difference, so both sides cover the same abilities (which ones is stated when not all four).

A difference of two rates is bootstrapped by pairing replicates: the rejection terms share the
question draws (same questions), the counterfactual terms come from different files with
independent draws, so either way replicate k of one minus replicate k of the other is a draw of
the difference. The per-prediction labels (correct, refusing, claiming an error) are the strict
mode's; the labels are not changed by these aggregates.

## Trivial baselines

Scripted answer policies (the `scripted` backend, `leaderboard/backends/policies.py`), run by the
same runner on every offline split (`submissions/baseline-*`), show the floor a model has to beat.
They appear in a band under every ranking and ability table and are never ranked. The table below
is built from their committed `results.json`.

## Confidence intervals and ranks

**Intervals.** Every rate and score comes with a 95% Wilson score interval. A percentile bootstrap
alone collapses to [0, 0] when every answer is wrong (every replicate is then 0), claiming a
certainty 100 questions cannot give; the Wilson interval never collapses and stays close to its
nominal coverage near 0 and 1. Answers to one question at five noise rates are correlated, so a
score averaged over them rests on fewer independent observations than it has answers: the interval
is Wilson at the *effective n*, the sample size at which a proportion would have the variance that
the cluster bootstrap (resampling questions, so all noise rates of a question move together)
measures, n_eff = p(1 − p) / Var_boot. At exactly 0 or 1, where the bootstrap has no variance to
measure, n_eff is the number of questions (all answers to a question identical: the most
conservative case). For a single cell this is Wilson at the number of questions. Signed scores are
mapped onto [0, 1] for the same treatment. The zh − en difference joins the two languages'
intervals by Newcombe's method (the question sets are disjoint, so the estimates are independent);
results files written before those entries existed fall back to the normal approximation
sqrt(se_zh² + se_en²), marked † on the zh-versus-en page.

Coverage measured by seeded simulation (1,000 data sets per row, `python tests/test_intervals.py`):

| setting | true rate | Wilson at n_eff | percentile bootstrap |
|---|---|---|---|
| one cell, 100 questions | 0.005 | 0.922 | 0.402 |
| one cell, 100 questions | 0.01 | 0.930 | 0.651 |
| one cell, 100 questions | 0.5 | 0.938 | 0.945 |
| one cell, 100 questions | 0.99 | 0.946 | 0.637 |
| one cell, 100 questions | 0.995 | 0.923 | 0.397 |
| mean of 5 noise rates, 100 questions, ICC 0.5 | 0.01 | 0.965 | 0.808 |
| mean of 5 noise rates, 100 questions, ICC 0.5 | 0.5 | 0.950 | 0.942 |
| mean of 5 noise rates, 100 questions, ICC 0.5 | 0.99 | 0.961 | 0.788 |

(Wilson at the number of answers, ignoring that they come in clusters, covers 0.73 to 0.77 in the
clustered rows.)

**Ranks.** Ranks are ranges computed from paired comparisons: for every pair of ranked models the
score difference on the instances both answered gets a paired cluster-bootstrap interval (the same
question draws for both models, so question difficulty cancels). A model's best rank is 1 + the
number of models significantly better than it, its worst rank n − the number significantly worse.
On simulated models with known gaps (`python tests/test_ranked.py`, 200 runs) the ranges held every
true rank in 95.5% of runs and always separated a model 0.8 logits behind the leaders, which
overlapping unpaired intervals did in 50% of runs. `rgb-leaderboard compare` tests a pair with a
cluster sign-flip permutation test (questions, not instances, are the units; with one instance per
question it is the exact McNemar test).

**Unverified entries.** An entry is never ranked, and its rank cell reads *unverified* with the
reason, when its backend is scripted or fake (not a model), its model revision is not pinned to a
commit or a file hash, or it was produced from a working tree with uncommitted changes.

## Trust chain

`rgb-leaderboard verify` recomputes every `results.json` from its predictions with the current code
and data, checks every prediction's fingerprint and prompt hash against the instances rebuilt from
the data, and fails naming each differing cell; CI runs it on every submission. `results.json`
records the scoring version (a hash of the scoring and statistics code and phrase tables);
`rgb-leaderboard rescore SUBMISSION` rewrites it from the predictions after a scoring change,
without loading a model, and records that it did.

## Coverage and partial runs

`n` is the number of questions scored and coverage the share of instances run. A run is flagged
*partial* when it used `--limit`, skipped cells, or ran on a partial data file: the English noise
and rejection splits here come from the first 50 records of the original `en.json`
(`partial/en_head50.json`), because the refined English files are not available offline.

## Reported rows

Rows labelled *reported in paper* are the numbers printed in the RGB paper (loaded from
`submissions/<id>/reported.yaml`). They come from the original data files, older reference code and
sampled decoding, so they are shown for context and never ranked with measured results.
"""

LICENCE = """
## Data licence and citation

The RGB data is licensed **CC BY-NC-SA 4.0** by its authors; this site shows questions, passages and
answers from it for research, non-commercially, with attribution and under the same licence. The
data files are fetched by `rgb-leaderboard data fetch` and never committed to this repository.

Please cite the benchmark:

```
@inproceedings{chen2024benchmarking,
  title     = {Benchmarking Large Language Models in Retrieval-Augmented Generation},
  author    = {Chen, Jiawei and Lin, Hongyu and Han, Xianpei and Sun, Le},
  booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence},
  volume    = {38}, number = {16}, pages = {17754--17762}, year = {2024},
  doi       = {10.1609/aaai.v38i16.29728}
}
```
"""


def _as_dict(item: object) -> dict[str, object]:
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return dataclasses.asdict(item)
    if hasattr(item, "model_dump"):
        return item.model_dump()
    if isinstance(item, dict):
        return dict(item)
    return {"finding": str(item)}


def audit_section(root: Path | None, out: Output) -> str:
    """The data audit list (leaderboard.scoring.audit) as a filterable table, or why it is not
    shown."""
    head = (
        "\n## Data audit\n\nKnown problems in the data files, found by code "
        "(`rgb-leaderboard data audit`, leaderboard/scoring/audit.py):\n"
    )
    try:
        findings = list(audit(root)) if root is not None else []
    except Exception as exc:
        return head + f'\n<p class="lb-warn">Audit unavailable: {esc(exc)}</p>\n'
    if not findings:
        return head + "\n*No findings, or no data fetched: run `rgb-leaderboard data fetch`.*\n"
    rows = [_as_dict(f) for f in findings]
    keys: list[str] = []
    for r in rows:
        keys.extend(k for k in r if k not in keys)
    table = Table(
        id="data-audit",
        title="Data audit findings",
        columns=tuple(Column(k, k, k == "id") for k in keys),
        rows=tuple(
            Row({k: Cell.text(_plain(r.get(k)), r.get(k) if k == "id" else None) for k in keys})
            for r in rows
        ),
        note=f"{len(rows)} findings.",
    )
    return head + out.table(table, "")


def _plain(value: object) -> object:
    if value is None or isinstance(value, str | int | float):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


BASELINE_COLUMNS = (
    ("rgb", "overall", "score", "rgb overall"),
    ("strict", "overall", "score", "strict overall"),
    ("strict", "noise", "score", "strict noise"),
    ("strict", "rejection", "score", "strict rejection"),
    ("strict", "integration", "score", "strict integration"),
    ("strict", "counterfactual", "score", "strict counterfactual"),
    ("strict", "rejection", "over_refusal", "over-refusal"),
    ("strict", "counterfactual", "ed_false_alarm", "error claims on noise"),
)


def baseline_table(data: SiteData) -> Table | None:
    """Every trivial baseline's reference overall and strict scores, per language."""
    subs = [s for s in data.submissions if is_trivial_baseline(s.results)]
    if not subs:
        return None
    rows = []
    for s in subs:
        for lang in LANGS:
            cells = {"model": Cell.text(s.name, s.name), "lang": Cell.text(lang)}
            for mode, ability, metric, _label in BASELINE_COLUMNS:
                e = score_entry(s.results, lang, ability, mode, metric)
                key = f"{mode}_{ability}_{metric}"
                if e is None or e.value is None:
                    cells[key] = Cell.missing(None if e is None else e.note)
                else:
                    cells[key] = Cell.rate(e.value, e.ci)
            rows.append(Row(cells))
    cols = [Column("model", "Baseline"), Column("lang", "Lang")]
    cols += [Column(f"{m}_{a}_{k}", label, True) for m, a, k, label in BASELINE_COLUMNS]
    return Table(
        id="trivial-baselines",
        title="Trivial baselines",
        columns=tuple(cols),
        rows=tuple(rows),
        note="Scores in %, 95% CI underneath, from submissions/baseline-*/results.json. en noise "
        "and rejection run on the 50-record partial file and en integration is not available "
        "offline, so en has no overall score.",
    )


def methodology_page(data: SiteData, out: Output) -> str:
    parts = [TEXT]
    table = baseline_table(data)
    if table is not None:
        parts.append(out.table(table, ""))
    parts.append(agreement_section(out))
    for mode in ("rgb", "strict"):
        defs = definitions(data, mode)
        if defs:
            parts.append(f"\n### Score definitions ({mode} mode, from the results files)\n")
            parts.append(
                '\n<dl class="lb-defs">'
                + "".join(
                    f"<dt>{esc(ABILITY_NAMES.get(a, a))}</dt><dd>{esc(d)}</dd>"
                    for a, d in sorted(defs.items())
                )
                + "</dl>\n"
            )
    parts.append(audit_section(data.root, out))
    parts.append(LICENCE)
    return "\n".join(parts)
