"""Run: a submission evaluated end to end, resumably, with provenance.

In: a submission folder (`model.yaml`), the protocol's instances and a backend. Out: the run's
folder, owned by `store.RunStore` (predictions.jsonl(.gz), per-rank shards and markers,
results.json).
`runner.run_submission` is the entry point; `plan` lists the work, `generate` drives the backend,
`resume` reads what is done, `distributed` splits work over ranks, `assemble` writes results.json.
"""
