"""Trust: the checks that make a committed result re-derivable, apart from producing it.

In: a submission folder written by `run` (model.yaml, predictions, results.json) and the data.
Out: verdicts and rewritten results. `verify` recomputes results.json from the predictions and
fails naming each differing cell; `rescore` rewrites results.json with the current scoring code;
`repair` fixes recorded answers in place (a trailing U+FFFD) and records that it did.
"""
