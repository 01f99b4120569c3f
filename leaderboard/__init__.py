"""RGB bilingual RAG leaderboard: reference-exact RGB instances, zh/en scoring, a results site."""

__version__ = "0.1.0"
