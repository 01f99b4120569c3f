"""RGB bilingual RAG leaderboard: reference-exact RGB instances, zh/en scoring, a static results site."""

__version__ = "0.1.0"
