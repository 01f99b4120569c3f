"""Core: the frozen value types, the error classes and the schemas of every file on disk.

In: nothing (the bottom layer; it imports no other subpackage). Out: `types` (Record, TestInstance,
ChatRequest, Completion, Score), `errors` (one-line, user-fixable errors), `schema` (predictions and
results.json), `submission` (model.yaml) and `yaml_lines` (YAML with line numbers for errors).
"""
