"""Which part of the protocol one invocation runs: the `run` command's --limit, --languages,
--abilities, --noise-rates and --allow-partial-data as one frozen value.

One object instead of five parameters threaded through the CLI, the runner, the dry run and the
plan (as inspect_ai's `TaskRunOptions` groups its options): a new selection option is one field
here and one use in `plan.build_plan`, not an edit to every signature on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from leaderboard.core.types import Ability, Lang


@dataclass(frozen=True)
class Selection:
    """None everywhere = the submission's own run plan (its model.yaml `run:` block).

    limit: only the first N records of each split; languages / abilities: a subset (probes
    included); noise_rates: rates per ability replacing the plan's; allow_partial_data: use
    partial stand-in files and skip splits whose data is absent (None: the YAML's choice).
    Sequences are stored as tuples and the rates as a read-only mapping, so a Selection can be
    shared and compared without being changed under its holder.
    """

    limit: int | None = None
    languages: tuple[Lang, ...] | None = None
    abilities: tuple[Ability, ...] | None = None
    noise_rates: Mapping[Ability, tuple[float, ...]] | None = None
    allow_partial_data: bool | None = None

    def __post_init__(self) -> None:
        # callers pass lists (from the CLI's comma lists, from tests); freeze them
        if self.languages is not None:
            object.__setattr__(self, "languages", tuple(self.languages))
        if self.abilities is not None:
            object.__setattr__(self, "abilities", tuple(self.abilities))
        if self.noise_rates is not None:
            frozen = {a: tuple(r) for a, r in self.noise_rates.items()}
            object.__setattr__(self, "noise_rates", MappingProxyType(frozen))
