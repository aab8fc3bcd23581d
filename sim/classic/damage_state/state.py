"""The damage state of one 'Mech over many trials: one int64 row per trial, named columns
(reference-classic-combat.md 14).

A state array ``S`` has shape (n, :func:`n_columns`). Columns: armor of the 8 locations then
the rear torso armor (CTR, LTR, RTR); internal structure of the 8 locations; a bitmask of the
slots destroyed by critical hits per location; counters (pilot damage, engine, gyro, sensor,
life-support and cockpit hits, explosions); the destruction cause; bitmasks of locations blown
off and of locations that took a critical hit; then scratch columns the damage kernel uses
inside one group (idle between groups), and the shots left in each ammunition bin. A location
is destroyed when its structure is 0.
"""

from __future__ import annotations

import numpy as np

from sim.classic.damage_state.layout import LOCS, Layout

N_ARMOR = 11
ARMOR0 = 0
#: rear armor column of CT, LT, RT (front column = location index)
REAR_COL = {1: 8, 2: 9, 3: 10}
#: armor column of (location, rear): ``ARMOR_COL[loc, 1]`` is the rear column of a torso and
#: the location's own column elsewhere
ARMOR_COL = np.array([[loc, REAR_COL.get(loc, loc)] for loc in range(8)], dtype=np.int64)
#: location of each armor column (the rear columns belong to their torso)
ARMOR_LOC = np.array([*range(8), *REAR_COL], dtype=np.int64)
IS0 = 11
HIT0 = 19
PILOT, ENGINE, GYRO, SENSORS, LIFE, COCKPIT, CAUSE, EXPLOSIONS, BLOWN, CRIT, PEND = range(27, 38)
(W_LOC, W_DMG, W_REAR, W_EXPL, W_TAC, SUS_LOC, SUS_DMG, SUS_REAR, CLOC, NCRIT, NDET, CMOD,
 SUS_CMOD) = range(38, 51)
AMMO0 = 51
IDLE = {W_LOC: -1, W_DMG: 0, W_REAR: 0, W_EXPL: 0, W_TAC: 0, SUS_LOC: -1, SUS_DMG: 0,
        SUS_REAR: 0, CLOC: -1, NCRIT: 0, NDET: 0, CMOD: 0, SUS_CMOD: 0}
SCRATCH = tuple(IDLE)
#: the idle values of the scratch columns, which are adjacent: ``S[:, W_LOC:W_LOC + len(
#: SCRATCH)] = IDLE_ROW`` idles them all
IDLE_ROW = np.array([IDLE[c] for c in SCRATCH], dtype=np.int64)
assert SCRATCH == tuple(range(W_LOC, W_LOC + len(SCRATCH)))

#: destruction causes (14.5); 0 = not destroyed
CAUSES: tuple[str, ...] = ("none", "head", "center_torso", "engine", "pilot", "ammunition")
C_NONE, C_HEAD, C_CT, C_ENGINE, C_PILOT, C_AMMO = range(6)
#: pilot damage that kills (reference.md 4.5)
PILOT_DEAD = 6
#: engine hits that destroy the 'Mech (14.3)
ENGINE_DEAD = 3

#: popcount of 12-bit masks
POP = np.array([bin(i).count("1") for i in range(1 << 12)], dtype=np.int64)


def n_columns(layout: Layout) -> int:
    """Columns of a state array for ``layout``."""
    return AMMO0 + len(layout.bins)


def fresh(layout: Layout, n: int = 1) -> np.ndarray:
    """``n`` undamaged states: full armor, structure and ammunition (scratch idle)."""
    row = np.zeros(n_columns(layout), dtype=np.int64)
    row[ARMOR0:ARMOR0 + N_ARMOR] = layout.armor
    row[IS0:IS0 + 8] = layout.structure
    for col, val in IDLE.items():
        row[col] = val
    for b, (_, shots, _, _) in enumerate(layout.bins):
        row[AMMO0 + b] = shots
    return np.tile(row, (n, 1))


def destroyed(S: np.ndarray) -> np.ndarray:
    """(n,) bool: the 'Mech is destroyed (14.5)."""
    return S[:, CAUSE] != C_NONE


def location_destroyed(S: np.ndarray) -> np.ndarray:
    """(n, 8) bool: each location's structure is gone (destroyed or blown off)."""
    return S[:, IS0:IS0 + 8] == 0


def slot_hit(S: np.ndarray, loc: int, slot: int) -> np.ndarray:
    """(n,) bool: ``slot`` (0-based) of location ``loc`` took a critical hit."""
    return (S[:, HIT0 + loc] >> slot) & 1 == 1


def items_lost(S: np.ndarray, layout: Layout) -> np.ndarray:
    """(n, n_items) bool: each item (weapon, bin, sink, actuator...) is destroyed: a critical
    on any of its slots, or every location holding it destroyed (14.3)."""
    hit = S[:, HIT0:HIT0 + 8]
    gone = location_destroyed(S)
    masks = layout.item_masks
    any_hit = ((hit[:, None, :] & masks[None, :, :]) != 0).any(axis=2)
    present = masks != 0
    all_gone = (gone[:, None, :] | ~present[None, :, :]).all(axis=2)
    return any_hit | all_gone


def usable_ammo(S: np.ndarray, layout: Layout) -> np.ndarray:
    """(n, n_bins) shots left in bins whose location still stands."""
    where = np.array([b[0] for b in layout.bins], dtype=np.int64)
    return np.where(S[:, IS0 + where] == 0, 0, S[:, AMMO0:AMMO0 + len(layout.bins)])


def canonical(S: np.ndarray, layout: Layout, inplace: bool = False) -> np.ndarray:
    """``S`` with the critical-hit bits of every class of interchangeable slots
    (``Layout.classes``) packed into the class's lowest slots: states that differ only in
    which of two identical slots was hit become equal (the exact path merges them; by
    symmetry each slot of a class is hit with probability E[hits in class] / class size).
    ``inplace``: pack ``S`` itself (an exact chooser's settle owns the array it packs)."""
    if not inplace:
        S = S.copy()
    for loc, mask in layout.classes:
        if POP[mask] < 2:
            continue
        bits = [1 << s for s in range(12) if mask >> s & 1]
        table = np.array([sum(bits[:c]) for c in range(len(bits) + 1)], dtype=S.dtype)
        h = S[:, HIT0 + loc]
        S[:, HIT0 + loc] = (h & ~mask) | table[POP[h & mask]]
    return S


def describe(S: np.ndarray) -> dict[str, np.ndarray]:
    """Named views of the main columns (for reports and tests)."""
    return {"armor": S[:, :N_ARMOR], "structure": S[:, IS0:IS0 + 8],
            "pilot": S[:, PILOT], "engine": S[:, ENGINE], "gyro": S[:, GYRO],
            "sensors": S[:, SENSORS], "life_support": S[:, LIFE], "cockpit": S[:, COCKPIT],
            "cause": S[:, CAUSE], "explosions": S[:, EXPLOSIONS]}


__all__ = ["LOCS", "fresh", "n_columns", "destroyed", "location_destroyed", "slot_hit",
           "items_lost", "usable_ammo", "describe"]
