"""Classic damage state and damage application (reference-classic-combat.md 14).

- :mod:`.layout`: what each critical slot of a 'Mech holds (kinds, items, explosives).
- :mod:`.state`: the state array (one row per trial) and its named columns.
- :mod:`.choose`: where the dice come from (Monte Carlo draws or exact branching).
- :mod:`.apply`: applying damage groups, criticals, explosions and destruction.
- :mod:`.outcome`: summaries of a weighted set of states (the ``hit`` result).
"""

from sim.classic.damage_state.apply import (
    DamageModel,
    apply_group,
    apply_group_from_side,
    explode,
    side_outcomes,
)
from sim.classic.damage_state.choose import ExactChooser, SampleChooser
from sim.classic.damage_state.layout import LOCS, Layout, build_layout
from sim.classic.damage_state.state import fresh

__all__ = ["DamageModel", "apply_group", "apply_group_from_side", "explode", "side_outcomes",
           "ExactChooser", "SampleChooser", "LOCS", "Layout", "build_layout", "fresh"]
