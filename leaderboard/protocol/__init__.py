"""Protocol: what a model is shown, built exactly as the RGB reference code builds it.

In: `Record`s from `leaderboard.data`. Out: `TestInstance`s (`instances`: seeded passage
selection per noise rate) and `ChatRequest`s (`prompts`, from the reference
`resources/instruction.yaml`); the reference judge prompts and verdict parsing of the paper's
Rej* and ED* (`judge`, from `resources/judge_*.txt`).
"""
