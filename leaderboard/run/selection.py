"""Which part of the protocol one invocation runs: the `run` command's --limit, --languages,
--abilities, --noise-rates, --allow-partial-data and --instruction as one frozen value.

One object instead of five parameters threaded through the CLI, the runner, the dry run and the
plan (as inspect_ai's `TaskRunOptions` groups its options): a new selection option is one field
here and one use in `plan.build_plan`, not an edit to every signature on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from leaderboard.core.types import Ability, Lang
from leaderboard.protocol.instructions import OFFICIAL, PANEL, panel_limits


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
    # an alternative of the instruction-sensitivity track (protocol/instructions.py); None: RGB's
    instruction: str | None = None
    # records per ability, over `limit` for the abilities it names (the instruction panel)
    limits: Mapping[Ability, int] | None = None
    # the knowledge-conflict track (protocol/conflicts.py): the conditions to run, instead of the
    # abilities; None: not a conflict run
    conflicts: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # callers pass lists (from the CLI's comma lists, from tests); freeze them
        if self.languages is not None:
            object.__setattr__(self, "languages", tuple(self.languages))
        if self.abilities is not None:
            object.__setattr__(self, "abilities", tuple(self.abilities))
        if self.noise_rates is not None:
            frozen = {a: tuple(r) for a, r in self.noise_rates.items()}
            object.__setattr__(self, "noise_rates", MappingProxyType(frozen))
        if self.limits is not None:
            object.__setattr__(self, "limits", MappingProxyType(dict(self.limits)))
        if self.conflicts is not None:
            object.__setattr__(self, "conflicts", tuple(self.conflicts))
        if self.instruction == OFFICIAL:
            object.__setattr__(self, "instruction", None)  # one spelling of "RGB's own"

    def limit_for(self, ability: Ability) -> int | None:
        """How many records of each split of `ability` this selection runs (None: all)."""
        return (self.limits or {}).get(ability, self.limit)


def panel_selection(base: Selection = Selection()) -> Selection:
    """The instruction panel (protocol/instructions.PANEL) within `base`: its abilities and noise
    rates unless `base` names some, its records per ability capped by `base.limit`, and
    `base`'s languages, partial-data choice and instruction."""
    abilities = base.abilities or tuple(dict.fromkeys(a for _, a, _, _ in PANEL))
    rates: dict[Ability, tuple[float, ...]] = {}
    for _, ability, rate, _ in PANEL:
        rates[ability] = tuple(sorted({*rates.get(ability, ()), rate}))
    limits = {a: n if base.limit is None else min(n, base.limit) for a, n in panel_limits().items()}
    return replace(
        base,
        limit=None,
        abilities=abilities,
        noise_rates=base.noise_rates or rates,
        allow_partial_data=True if base.allow_partial_data is None else base.allow_partial_data,
        limits=limits,
    )
