"""Errors users can act on.

Every error raised for bad input or a missing prerequisite is a LeaderboardError whose message says
what is wrong *and how to fix it*; the CLI prints the message (no traceback) and exits with code 2.
"""

from __future__ import annotations


class LeaderboardError(Exception):
    """Base class: the message is shown to the user as-is."""


class ConfigError(LeaderboardError):
    """A submission YAML or CLI option is invalid (message names file, line and field)."""


class DataError(LeaderboardError):
    """RGB data missing, unverified or malformed (message names file, line and field)."""


class BackendUnavailable(LeaderboardError):
    """A dependency or device a backend needs is missing (the message says what to install)."""


class ResultsError(LeaderboardError):
    """A predictions or results file is malformed or inconsistent (message names file and line)."""
