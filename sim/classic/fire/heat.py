"""The Classic heat scale and heat phase (reference part 2, 13.1-13.4) as data and small
vectorized functions.

Tables are indexed by heat level 0..HEAT_TOP (heat above HEAT_TOP reads the HEAT_TOP row; the
TW scale has no rows above 30). "Avoid" numbers are 2D6 targets; 0 = no roll needed.

Phase order (13.4), as the kernel (:mod:`.kernel`), the chain (:mod:`.markov`) and the
oracle (:mod:`sim.oracles.fire`) apply it: (1) build-up = weapons fired (Streak only on a
hit) + movement (a shut-down or exploded 'Mech adds none); (2) heat += build-up, then
-= min(heat, dissipation); (3) a shut-down 'Mech restarts below 14 or on 2D6 >= the avoid
number (never at 30+; C3: no TacOps modifier on restart); a running one shuts down at 30+
or on a failed avoid roll from 14 (one that restarted this phase does not roll); (4) from
19, a failed ammunition roll explodes a bin (C8 order; C27: also while shut down); (5) pilot
damage needs a destroyed life-support slot, which this model never has (C1 reported only).
"""

from __future__ import annotations

import numpy as np

#: Highest heat level with its own row; everything >= 30 reads row 30.
HEAT_TOP = 30
#: Heat at which shutdown is automatic (13.1 "30+").
AUTO_SHUTDOWN = 30
#: Heat below which a shut-down 'Mech restarts without a roll (13.4 step 3).
AUTO_RESTART_BELOW = 14
#: Heat from which the ammunition explosion check is made (13.4 step 4).
AMMO_CHECK_FROM = 19

_H = np.arange(HEAT_TOP + 1)
#: 13.1 MP loss (walking MP): floor(heat / 5).
MP_LOSS = (_H // 5).astype(np.int64)
#: 13.1 to-hit modifier: [h>=8] + [h>=13] + [h>=17] + [h>=24].
TO_HIT = ((_H >= 8).astype(np.int64) + (_H >= 13) + (_H >= 17) + (_H >= 24)).astype(np.int64)
#: 13.1 shutdown avoid number: 4 + 2 * floor((h - 14) / 4) for 14 <= h < 30; 0 below 14;
#: 13 (cannot avoid) at 30+ (automatic shutdown).
SHUTDOWN_AVOID = np.where(_H < 14, 0, np.where(_H >= 30, 13, 4 + 2 * ((_H - 14) // 4)))
#: 13.1 ammunition explosion avoid number: 4 / 6 / 8 from 19 / 23 / 28; 0 below 19.
AMMO_AVOID = np.where(_H < 19, 0, 4 + 2 * (_H >= 23) + 2 * (_H >= 28))
#: 13.1 pilot damage when a life-support slot is destroyed (C1 MegaMek TW): 1 from 15, 2
#: from 25. The fire model never damages life support, so this is reported, not applied; the
#: duel applies C1 by its option (``ClassicDuelRules.life_support_damage``).
LIFE_SUPPORT_DAMAGE = (_H >= 15).astype(np.int64) + (_H >= 25)

#: 13.2 movement heat by mode (jump: max(3, hexes), see :func:`movement_heat`).
MOVE_HEAT: dict[str, int] = {"stand": 0, "walk": 1, "run": 2}


def row(heat: np.ndarray | int) -> np.ndarray:
    """Row index of the scale for heat levels (clipped to 0..HEAT_TOP)."""
    return np.clip(np.asarray(heat), 0, HEAT_TOP)


def to_hit_mod(heat: np.ndarray | int) -> np.ndarray:
    """Attacker heat to-hit modifier (13.1)."""
    return TO_HIT[row(heat)]


def mp_loss(heat: np.ndarray | int) -> np.ndarray:
    """Walking MP lost to heat (13.1; jump MP not reduced [REC])."""
    return MP_LOSS[row(heat)]


def shutdown_avoid(heat: np.ndarray | int, tacops: bool = False, piloting: int = 5
                   ) -> np.ndarray:
    """Shutdown avoid number (13.1), 0 = no roll, 13 = automatic. ``tacops`` (C3): avoid
    - 5 + piloting modifier (0-1: -2, 2-3: -1, 4-5: 0, 6-7: +1) for rolls below 30."""
    a = SHUTDOWN_AVOID[row(heat)]
    if tacops:
        pmod = (-2, -2, -1, -1, 0, 0, 1, 1, 1)[piloting]
        a = np.where((a > 0) & (a < 13), a - 5 + pmod, a)
    return a


def ammo_avoid(heat: np.ndarray | int) -> np.ndarray:
    """Ammunition explosion avoid number (13.1); 0 = no roll."""
    return AMMO_AVOID[row(heat)]


def movement_heat(moved: str, jump_hexes: int = 0) -> int:
    """Heat of the movement mode (13.2): stand 0, walk 1, run 2, jump max(3, hexes) (C13)."""
    if moved == "jump":
        return max(3, jump_hexes)
    return MOVE_HEAT[moved]


def dissipation(sinks: int, double: bool, water: bool, leg_sinks: int,
                water_cooling: str = "legs") -> int:
    """Heat dissipated per turn (13.3): 1 per single / 2 per double sink; in depth-1 water
    +1 (+2 double) per leg-mounted sink (C17 ``legs``) or per sink (``all``), bonus <= 6."""
    per = 2 if double else 1
    base = sinks * per
    if not water:
        return base
    extra = (leg_sinks if water_cooling == "legs" else sinks) * per
    return base + min(6, extra)


def apply_heat(heat: np.ndarray, build: np.ndarray, diss: int) -> np.ndarray:
    """13.4 steps 1-2: heat += build-up; heat -= min(heat, dissipation)."""
    h = heat + build
    return h - np.minimum(h, diss)
