"""Rule options of the ``classic-duel`` physical attacks and movement (reference.md 1-4,
reference-classic-combat.md 13.1, 14.3 and 15).

:class:`ClassicPhysicalRules` is registered for game ``classic`` and the ``classic-duel``
model, so ``--rule NAME=VALUE`` and ``btsim rules --game classic`` list it like every other
Classic option. The damage formulas and to-hit bases themselves come from the physical-attack
declarations (:mod:`sim.classic.attacks`, :mod:`sim.classic.damage`) under the duel's
:class:`~sim.classic.rules.ClassicRules` (``DuelScenario.classic_rules``), which the duel reads
as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sim.classic.rules  # noqa: F401 - ClassicRules registers first: the game's main group
from sim import options
from sim.options import opt


@dataclass(frozen=True)
class ClassicPhysicalRules:
    """One reading of each open point of physical attacks and movement in the duel."""

    duel_attacks: str = opt(
        "all", allowed=("all", "punch-kick"), ref="1.3",
        doc="physical attacks the duel's 'best' policy may choose at range 1",
        readings={"all": "punch, kick, physical weapon (hatchet), push, charge (moved walk or "
                  "run) and death from above (moved jump)",
                  "punch-kick": "punch and kick only (btsim 0.1 duel)"})
    knockdown_value: str = opt(
        "fall", allowed=("fall", "fall-and-prone", "none"), ref="4.2-4.4",
        doc="what 'best' counts for making the target fall",
        readings={"fall": "the target's expected fall damage (P(hit) x P(target fails the PSR) "
                  "x ceil(tons/10))",
                  "fall-and-prone": "that plus the damage of one more kick-sized hit, the value "
                  "of a prone target (-2 to be hit next turn, no physical attack back)",
                  "none": "damage only (net of self-risk)"})
    hip_mp_rounding: str = opt(
        "ceil", allowed=("ceil", "floor"), ref="14.3",
        doc="walking MP after one destroyed hip actuator (halved)",
        readings={"ceil": "rounded up (MegaMek BipedMek.getWalkMP)", "floor": "rounded down"})
    heat_reduces_jump: bool = opt(
        False, allowed=bool, ref="13.1",
        doc="heat's MP loss also lowers jumping MP",
        readings={False: "no: walking MP only (running recomputed from it; standard reading)",
                  True: "yes, jumping MP too"})
    move_damage_psr: bool = opt(
        True, allowed=bool, ref="15",
        doc="running with a damaged gyro or hip, or jumping with a damaged gyro or leg, "
            "forces a PSR",
        readings={True: "yes, one +0 PSR in the movement phase (reference 15, TW)",
                  False: "no (btsim 0.1 duel)"})

    def as_dict(self) -> dict[str, Any]:
        """Every option by name."""
        return options.effective(self)


options.register_group("classic", ClassicPhysicalRules, models=("classic-duel",))

#: Option names (duel parameters).
OPTION_NAMES: tuple[str, ...] = tuple(ClassicPhysicalRules.__dataclass_fields__)
