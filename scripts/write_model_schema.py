"""Rewrite submissions/model.schema.json from the pydantic model of model.yaml.

Run after changing a field in leaderboard/core/submission.py or settings.py:
    python scripts/write_model_schema.py
tests/site/test_submission_ref.py fails until the committed copy matches the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from leaderboard.site.pages.submission_ref import SCHEMA_FILE, schema_text  # noqa: E402

if __name__ == "__main__":
    target = REPO / "submissions" / SCHEMA_FILE
    target.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {target.relative_to(REPO)}")
