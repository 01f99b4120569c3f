"""Synthetic submissions for the site tests and benchmark: valid schema objects, deterministic.

Values are drawn from a seeded RNG so golden files stay stable; predictions include hostile strings
(`<script>`, `</script>`) and Chinese text, because the site must render both safely.
"""

from __future__ import annotations

import gzip
import random
import shutil
from collections.abc import Callable
from pathlib import Path

from leaderboard.core.schema import (
    Bootstrap,
    CellMetrics,
    PredictionRecord,
    Provenance,
    Results,
    ScoreEntry,
)
from leaderboard.core.types import ABILITIES, DEFAULT_NOISE_RATES, LANGS, MODES

XSS = "<script>alert(1)</script>"
REPO = Path(__file__).resolve().parents[1]


def _ci(rng: random.Random, value: float, n: int) -> tuple[float, float]:
    half = min(0.25, 1.0 / max(n, 1) ** 0.5) * rng.uniform(0.8, 1.2)
    return (round(max(0.0, value - half), 4), round(min(1.0, value + half), 4))


def _data_file(lang: str, ability: str) -> tuple[str, bool]:
    if lang == "en" and ability in ("noise", "rejection"):
        return "partial/en_head50.json", False
    stem = {
        "noise": "refine",
        "rejection": "refine",
        "integration": "int",
        "counterfactual": "fact",
    }
    return f"{lang}_{stem[ability]}.json", True


def make_results(
    sub_id: str,
    display_name: str | None = None,
    seed: int = 0,
    n: int = 10,
    expected_n: int | None = None,
    skill: float | None = None,
    langs: tuple[str, ...] = LANGS,
) -> Results:
    """A complete, schema-valid Results with cells for every split and noise rate in `langs`
    (and the zh-en entries when both languages are there)."""
    rng = random.Random(f"{sub_id}:{seed}")
    skill = rng.uniform(0.3, 0.9) if skill is None else skill
    cells: list[CellMetrics] = []
    scores: list[ScoreEntry] = []
    lang_overall: dict[tuple[str, str], float] = {}
    for lang in langs:
        for mode in MODES:
            penalty = 0.0 if mode == "rgb" else 0.05
            ability_values = []
            for ability in ABILITIES:
                data_file, complete = _data_file(lang, ability)
                accs = []
                for rate in DEFAULT_NOISE_RATES[ability]:
                    acc = max(
                        0.0, min(1.0, skill - 0.4 * rate - penalty + rng.uniform(-0.05, 0.05))
                    )
                    acc = round(acc, 4)
                    accs.append(acc)
                    rej = round(rng.uniform(0.0, 0.6), 4) if ability == "rejection" else 0.02
                    fact = ability == "counterfactual"
                    ed = round(rng.uniform(0.0, 0.5), 4) if fact else None
                    cells.append(
                        CellMetrics(
                            lang=lang,
                            ability=ability,
                            noise_rate=rate,
                            mode=mode,
                            n=n,
                            n_errors=0,
                            expected_n=expected_n or n,
                            data_file=data_file,
                            data_complete=complete,
                            accuracy=acc,
                            accuracy_ci=_ci(rng, acc, n),
                            rejection_rate=rej,
                            rejection_rate_ci=_ci(rng, rej, n),
                            over_refusal_rate=0.02 if ability in ("noise", "integration") else None,
                            ed=ed,
                            ed_ci=_ci(rng, ed, n) if fact else None,
                            cr=round(rng.uniform(0, 1), 4) if fact else None,
                            cr_ci=(0.0, 1.0) if fact else None,
                            cr_all=round(rng.uniform(0, 0.3), 4) if fact else None,
                            mean_output_chars=round(rng.uniform(20, 200), 1),
                            token_f1=None,
                        )
                    )
                value = {
                    "rejection": cells[-1].rejection_rate,
                    "counterfactual": cells[-1].ed or 0.0,
                }.get(ability, round(sum(accs) / len(accs), 4))
                ability_values.append(value)
                scores.append(
                    ScoreEntry(
                        lang=lang,
                        mode=mode,
                        ability=ability,
                        metric="score",
                        value=value,
                        ci=_ci(rng, value, n * len(accs)),
                        n_questions=n,
                        complete=complete,
                        definition=f"Synthetic {ability} score ({mode}).",
                    )
                )
            overall = round(sum(ability_values) / len(ability_values), 4)
            lang_overall[(lang, mode)] = overall
            scores.append(
                ScoreEntry(
                    lang=lang,
                    mode=mode,
                    ability="overall",
                    metric="score",
                    value=overall,
                    ci=_ci(rng, overall, 4 * n),
                    n_questions=4 * n,
                    complete=lang != "en",
                    definition=f"Mean of the ability scores ({mode}).",
                )
            )
    for mode in MODES:
        vals = [lang_overall[(lang, mode)] for lang in langs]
        value = round(sum(vals) / len(vals), 4)
        scores.append(
            ScoreEntry(
                lang="all",
                mode=mode,
                ability="overall",
                metric="score",
                value=value,
                ci=_ci(rng, value, 8 * n),
                n_questions=8 * n,
                complete=False,
                definition="Mean of the zh and en overall scores.",
            )
        )
    if set(langs) == {"zh", "en"}:
        scores += _differences(rng, scores, n)
    return Results(
        submission_id=sub_id,
        display_name=display_name or sub_id,
        partial=(expected_n or n) > n,
        partial_reasons=["--limit"] if (expected_n or n) > n else [],
        provenance=_provenance(sub_id),
        bootstrap=Bootstrap(method="percentile, cluster over question ids", resamples=1000, seed=1),
        cells=cells,
        scores=scores,
    )


def _differences(rng: random.Random, scores: list[ScoreEntry], n: int) -> list[ScoreEntry]:
    by = {(e.lang, e.mode, e.ability): e.value for e in scores if e.metric == "score"}
    out = []
    for mode in MODES:
        for ability in ("overall", *ABILITIES):
            d = round(by[("zh", mode, ability)] - by[("en", mode, ability)], 4)
            half = min(0.3, 1.4 / max(n, 1) ** 0.5) * rng.uniform(0.8, 1.2)
            out.append(
                ScoreEntry(
                    lang="zh-en",
                    mode=mode,
                    ability=ability,
                    metric="score",
                    value=d,
                    ci=(round(d - half, 4), round(d + half, 4)),
                    n_questions=2 * n,
                    complete=False,
                    definition="Synthetic zh - en difference.",
                )
            )
    return out


def _provenance(sub_id: str) -> Provenance:
    return Provenance(
        package_version="0.1.0",
        git_commit="0" * 40,
        git_dirty=False,
        command=f"rgb-leaderboard run submissions/{sub_id}/model.yaml",
        data_blob_ids={"zh_refine.json": "abc"},
        model=f"org/{sub_id}",
        model_revision="1" * 40,
        backend="hf",
        dtype="bfloat16",
        quantization={"mode": "none"},
        chat_template_sha256=None,
        chat_template_source="tokenizer",
        generation={"temperature": 0.0, "max_new_tokens": 256},
        seeds={"generation": 2333},
        batch_size=4,
        fingerprint=f"fp-{sub_id}",
        versions={"python": "3.11"},
        device="cpu",
        started="2025-01-01T00:00:00Z",
        finished="2025-01-02T03:04:05Z",
        wall_time_s=10.0,
        generation_time_s=9.0,
        prompt_tokens=1000,
        completion_tokens=100,
        tokens_per_s=11.1,
    )


def default_text(sub_id: str, key: str, idx: int) -> str:
    """Cycle through harmless, Chinese and hostile answers so every page sees all of them."""
    pool = [
        "The answer is Paris.",
        "答案是北京。",
        XSS,
        "</script><script>alert(2)</script>",
        "信息不足，无法回答。",
        "I can not answer the question because of the insufficient information.",
    ]
    return pool[(idx + len(sub_id)) % len(pool)]


def make_predictions(
    sub_id: str,
    n: int | dict[str, int] = 10,
    text: Callable[[str, str, int], str] = default_text,
    langs: tuple[str, ...] = LANGS,
) -> list[PredictionRecord]:
    out = []
    for lang in langs:
        for ability in ABILITIES:
            count = n if isinstance(n, int) else n[ability]
            for rate in DEFAULT_NOISE_RATES[ability]:
                for i in range(count):
                    key = f"{lang}/{ability}/{rate:.1f}/{i}"
                    out.append(
                        PredictionRecord(
                            key=key,
                            fingerprint=f"fp-{sub_id}",
                            lang=lang,
                            ability=ability,
                            noise_rate=rate,
                            id=i,
                            prompt_sha256="0" * 64,
                            passage_sha256=[],
                            prediction=text(sub_id, key, i),
                            created="2025-01-01T00:00:00Z",
                        )
                    )
    return out


def write_submission(
    root: Path,
    results: Results,
    predictions: list[PredictionRecord] | None = None,
    gz: bool = True,
    model_yaml: str | None = None,
) -> Path:
    d = root / "submissions" / results.submission_id
    d.mkdir(parents=True, exist_ok=True)
    (d / "results.json").write_text(results.model_dump_json(indent=1) + "\n", encoding="utf-8")
    if predictions is not None:
        lines = "".join(p.model_dump_json() + "\n" for p in predictions).encode("utf-8")
        if gz:
            (d / "predictions.jsonl.gz").write_bytes(gzip.compress(lines, mtime=0))
        else:
            (d / "predictions.jsonl").write_bytes(lines)
    (d / "model.yaml").write_text(
        model_yaml
        or f"id: {results.submission_id}\ndisplay_name: {results.display_name!r}\n"
        f"params: 7B\nbackend: hf\n\n# a blank line above\n",
        encoding="utf-8",
    )
    return d


def make_repo(
    root: Path, n_models: int = 3, n: int = 6, predictions: bool = True, reported: bool = True
) -> Path:
    """A repository folder: synthetic submissions, the real site/mkdocs.yml and reported.yaml."""
    (root / "site").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(REPO / "site" / "mkdocs.yml", root / "site" / "mkdocs.yml")
    if reported:
        rep = root / "submissions" / "rgb-paper"
        rep.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / "submissions" / "rgb-paper" / "reported.yaml", rep / "reported.yaml")
    for i in range(n_models):
        sub_id = f"model-{i:03d}"
        name = f"Model {i:03d}" if i else f"Model {i:03d} {XSS}"
        res = make_results(sub_id, name, seed=i, n=n, expected_n=n if i % 3 else 2 * n)
        write_submission(root, res, make_predictions(sub_id, n) if predictions else None)
    return root
