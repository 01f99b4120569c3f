"""Run: a submission evaluated end to end, resumably, with provenance.

In: a submission folder (`model.yaml`), the protocol's instances and a backend. Out: the run's
folder, owned by `store.RunStore` (predictions.jsonl(.gz), per-rank shards and markers,
results.json).
Entry points: `runner.run_submission` (one process, returns Results), `dry_run.plan_submission`
(what a run would do; no backend), `shard.run_shard` (one process of a data-parallel launch), each
called with the submission and one `runner.RunOptions`. A `selection.Selection` says which part of
the protocol to run; `plan` lists the work, `generate`
drives the backend, `resume` reads what is done, `distributed` splits work over ranks, `assemble`
writes results.json.
"""
