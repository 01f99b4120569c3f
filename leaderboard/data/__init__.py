"""Data: the official RGB files, verified by git blob id, and their records.

In: the RGB JSON files (downloaded, or copied with `data fetch --from DIR`). Out: validated
`Record`s per split (`splits.load_split`), the manifests (`manifest`) and `fetch`.
"""
