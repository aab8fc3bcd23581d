"""Every Classic physical-attack table as data (rules reference sections 1-4).

Locations are small integer codes (``LOC``): the 8 biped locations, the 3 rear-torso armor
facings, and ``MISS`` (no damage). Hit-location tables are ``uint8`` arrays indexed by
``[side, roll]`` (side codes from ``SIDES``; the roll is the die total, so index 0 and 1 of the
2D6 tables and index 0 of the 1D6 tables are unused and hold ``MISS``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.units.tables import HEAD_MAX_ARMOR, INTERNAL_STRUCTURE

#: Location codes (reference 3.2: rear torso armor CTR/LTR/RTR from the rear column only).
LOCATIONS: tuple[str, ...] = ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL", "CTR", "LTR", "RTR")
LOC: dict[str, int] = {name: i for i, name in enumerate(LOCATIONS)}
N_LOC = len(LOCATIONS)  # 11
MISS = N_LOC  # 11: "no location" code for misses
HD = LOC["HD"]

#: Attack sides / table columns (reference 3.1).
SIDES: tuple[str, ...] = ("front", "left", "right", "rear")
SIDE: dict[str, int] = {s: i for i, s in enumerate(SIDES)}



def _table(rows: dict[str, list[str]], first: int) -> np.ndarray:
    """Build a ``[side, roll]`` uint8 table from per-side location lists starting at ``first``."""
    width = first + len(next(iter(rows.values())))
    out = np.full((len(SIDES), width), MISS, dtype=np.uint8)
    for side, locs in rows.items():
        out[SIDE[side], first:] = [LOC[x] for x in locs]
    return out


#: Standard 'Mech hit location table, 2D6 (reference 3.2). A 2 is a TAC chance.
STANDARD = _table({
    "left": ["LT", "LL", "LA", "LA", "LL", "LT", "CT", "RT", "RA", "RL", "HD"],
    "front": ["CT", "RA", "RA", "RL", "RT", "CT", "LT", "LL", "LA", "LA", "HD"],
    "rear": ["CTR", "RA", "RA", "RL", "RTR", "CTR", "LTR", "LL", "LA", "LA", "HD"],
    "right": ["RT", "RL", "RA", "RA", "RL", "RT", "CT", "LT", "LA", "LL", "HD"],
}, first=2)

#: Punch location table, 1D6 (reference 3.3).
PUNCH = _table({
    "left": ["LT", "LT", "CT", "LA", "LA", "HD"],
    "front": ["LA", "LT", "CT", "RT", "RA", "HD"],
    "rear": ["LA", "LTR", "CTR", "RTR", "RA", "HD"],
    "right": ["RT", "RT", "CT", "RA", "RA", "HD"],
}, first=1)

#: Kick location table, 1D6 (reference 3.4; legs have no rear armor).
KICK = _table({
    "left": ["LL"] * 6,
    "front": ["RL", "RL", "RL", "LL", "LL", "LL"],
    "rear": ["RL", "RL", "RL", "LL", "LL", "LL"],
    "right": ["RL"] * 6,
}, first=1)

#: Four-legged ('quad') 'Mechs (issue 19): the front legs stand in the arm codes LA/RA and
#: the rear legs in LL/RL (as the unit reader stores them). The references are silent; the
#: facts are MegaMek's ``QuadMek.innerRollHitLocation`` (megamek/common/units/QuadMek.java):
#: the standard 2D6 table is the biped one (``Mek``'s table, the arm results landing on the
#: front legs), while the punch and kick tables below differ from the biped ones (a quad has
#: no arms: a punch from behind lands on the rear legs, a kick from the front on the front
#: legs; roll 1-3 the left leg of the pair).
QUAD_STANDARD = STANDARD
QUAD_PUNCH = _table({
    "left": ["LT", "LT", "CT", "LA", "LL", "HD"],
    "front": ["LA", "LT", "CT", "RT", "RA", "HD"],
    "rear": ["LL", "LTR", "CTR", "RTR", "RL", "HD"],
    "right": ["RT", "RT", "CT", "RA", "RL", "HD"],
}, first=1)
QUAD_KICK = _table({
    "left": ["LL", "LL", "LL", "LA", "LA", "LA"],
    "front": ["LA", "LA", "LA", "RA", "RA", "RA"],
    "rear": ["LL", "LL", "LL", "RL", "RL", "RL"],
    "right": ["RA", "RA", "RA", "RL", "RL", "RL"],
}, first=1)

#: Table ids used by plans and kernels.
TABLE_STANDARD, TABLE_PUNCH, TABLE_KICK = 0, 1, 2
TABLES = (STANDARD, PUNCH, KICK)
#: Dice of each table: 2 -> 2D6, 1 -> 1D6.
TABLE_DICE = (2, 1, 1)
#: The hit tables (standard, punch, kick, indexed by the table ids) of each 'Mech
#: configuration (the unit file's ``Config:``): one place for every door that rolls a hit
#: location on a 'Mech of that shape.
HIT_TABLES: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {
    "Biped": TABLES, "Quad": (QUAD_STANDARD, QUAD_PUNCH, QUAD_KICK)}

#: Facing after a fall (reference 4.4): 1D6 -> hit column for the fall damage.
FALL_COLUMN = np.array([0, SIDE["front"], SIDE["right"], SIDE["right"], SIDE["rear"],
                        SIDE["left"], SIDE["left"]], dtype=np.uint8)

#: Consciousness roll target by the MechWarrior's total damage (reference 4.5): 1 -> 3+,
#: 2 -> 5+, 3 -> 7+, 4 -> 10+, 5 -> 11+; 6 and more: dead (13, never made).
CONSCIOUSNESS = np.array([0, 3, 5, 7, 10, 11, 13, 13, 13, 13, 13, 13, 13], dtype=np.int64)

#: Attacker movement modifier (reference 1.2.1).
ATTACKER_MOVEMENT: dict[str, int] = {"stand": 0, "walk": 1, "run": 2, "jump": 3}
MOVES: tuple[str, ...] = tuple(ATTACKER_MOVEMENT)

#: Target terrain modifier (reference 1.2.3).
TERRAIN: dict[str, int] = {"clear": 0, "light-woods": 1, "heavy-woods": 2}

#: Target movement modifier by hexes moved (reference 1.2.2, D16): (upper bound, modifier).
TMM_TW: tuple[tuple[int, int], ...] = ((2, 0), (4, 1), (6, 2), (9, 3), (17, 4), (24, 5))
TMM_TW_MAX = 6
TMM_OLD: tuple[tuple[int, int], ...] = ((2, 0), (4, 1), (6, 2), (9, 3))
TMM_OLD_MAX = 4

#: Actuator names (CLI spelling). Arm / leg / other.
ARM_ACTS: tuple[str, ...] = ("shoulder", "upper-arm", "lower-arm", "hand")
LEG_ACTS: tuple[str, ...] = ("hip", "upper-leg", "lower-leg", "foot")
ACTUATORS: tuple[str, ...] = ARM_ACTS + LEG_ACTS + ("gyro",)

#: Damage that destroys a fresh head in one attack (reference 5.1: maximum head armor 9 plus
#: the head's 3 internal structure points, the same at every tonnage).
FRESH_HEAD = HEAD_MAX_ARMOR + INTERNAL_STRUCTURE[20][0]


def location_probabilities(table: int, side: int) -> np.ndarray:
    """Exact P(location) for one roll on ``table``/``side``: float array of length N_LOC + 1."""
    from sim.dice import P1D6, P2D6

    t = TABLES[table][side]
    p = P2D6 if TABLE_DICE[table] == 2 else P1D6
    out = np.zeros(N_LOC + 1)
    np.add.at(out, t.astype(np.intp), p[: t.size])
    out[MISS] = 0.0
    return out


def __getattr__(name: str) -> Any:
    """Views derived from the attack declarations (:mod:`sim.classic.attacks`), kept here for
    compatibility: ``ATTACKS`` (names in order) and ``BASE_MOD`` (reference 1.1)."""
    if name == "ATTACKS":
        from sim.classic.attacks import ATTACKS

        return ATTACKS
    if name == "BASE_MOD":
        from sim.classic.attacks import ATTACK_LIST

        return {a.name: a.base_mod for a in ATTACK_LIST}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
