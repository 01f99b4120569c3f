"""(being written)"""

from __future__ import annotations

import typer


def register(app: typer.Typer, data_app: typer.Typer) -> None:
    """Add this module's commands to the CLI."""
