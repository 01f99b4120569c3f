"""Board: every submission folder of the repository as data an analyst or the site can use.

In: `submissions/*/` (model.yaml, results.json, predictions) and the paper's reported rows. Out: a
`Board` of tidy pandas DataFrames (`frames.load_board`), the loaded submissions (`load`) and the
ranking with rank ranges (`ranking`).
"""
