"""Board frames as download files: CSV that a spreadsheet cannot execute, and JSON records.

Display names and predictions are untrusted text; a CSV cell starting with = + - @ (or a tab or
carriage return) is read as a formula by spreadsheet programs, so such text cells get a leading
apostrophe (the OWASP CSV-injection advice). Numbers are never touched, so -0.12 stays a number.
"""

from __future__ import annotations

import json
import math

import pandas as pd

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """Text that would start a formula, prefixed with an apostrophe; anything else unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def to_csv(df: pd.DataFrame) -> str:
    """The frame as CSV (header, no index), text cells made spreadsheet-safe."""
    safe = df.copy()
    for col in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[col]) and not pd.api.types.is_bool_dtype(
            safe[col]
        ):
            safe[col] = safe[col].astype(object).map(spreadsheet_safe)
    return safe.to_csv(index=False, lineterminator="\n")


def _plain(value: object) -> object:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return value


def to_json(df: pd.DataFrame) -> str:
    """The frame as a JSON list of records (NaN as null), stable key order."""
    records = [
        {str(k): _plain(v) for k, v in row.items()} for row in df.astype(object).to_dict("records")
    ]
    return json.dumps(records, ensure_ascii=False, indent=1) + "\n"
