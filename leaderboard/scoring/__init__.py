"""Scoring: one prediction against one instance, in `rgb` (reference-exact) and `strict` mode.

In: a prediction string and its `TestInstance`. Out: a `Score` per mode (`score.score_both`) and the
one definition of success and correction per ability (`outcome`). Pure functions over strings;
phrase tables and each language's profile are data in `phrases/<lang>.yaml`.
"""
