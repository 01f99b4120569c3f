"""Judge: the paper's LLM-judged Rej* and ED* on a run's answers, beside (never inside) the scores.

In: a submission's recorded predictions, a judge model.yaml (judges/*.yaml) and the labelled set.
Out: `judgements.jsonl` (cached, resumable verdicts; `run`), `judge_results.json` (`summary`),
and Cohen's kappa against the labels (`agreement`, `kappa`).
"""
