"""Alpha Strike tables as data (rules reference section 6). One table in one place."""

from __future__ import annotations

import numpy as np

from sim.dice import P2D6

#: Range bands and their attack modifiers (ref 6.1): Short +0, Medium +2, Long +4, Extreme +6.
RANGES: tuple[str, ...] = ("short", "medium", "long", "extreme")
RANGE_MOD: dict[str, int] = {"short": 0, "medium": 2, "long": 4, "extreme": 6}
#: Index of a band in the card's damage tuple (S, M, L, E).
RANGE_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANGES)}

#: Immobile / shut-down target modifier, replacing TMM (ref 6.1, 6.3).
IMMOBILE_MOD = -4
#: Heat level at which a unit shuts down (ref 6.3: S = 4).
SHUTDOWN_HEAT = 4
#: Weapon attack TN modifier per heat level 0..4 (ref 6.3; level 4 cannot attack).
HEAT_TO_HIT = np.array([0, 1, 2, 3, 0], dtype=np.int8)
#: Ground Move lost per heat level, inches (ref 6.3: 2" per level).
HEAT_MOVE_LOSS = 2
#: Each Fire Control Hit adds this to weapon attack TNs (ref 6.1, 6.6).
FIRE_CONTROL_MOD = 2

#: Crit result codes (ref 6.6).
CRIT_NONE, CRIT_AMMO, CRIT_ENGINE, CRIT_FC, CRIT_WEAPON, CRIT_MP, CRIT_DESTROYED = range(7)
CRIT_NAMES = ("none", "ammo", "engine", "fire_control", "weapon", "mp", "destroyed")
#: 'Mech Determining Critical Hits table, index = 2D6 total (0 and 1 unused) (ref 6.6).
CRIT_MECH = np.array(
    [CRIT_NONE, CRIT_NONE,            # 0, 1 (unused)
     CRIT_AMMO,                       # 2
     CRIT_ENGINE,                     # 3
     CRIT_FC,                         # 4
     CRIT_NONE,                       # 5
     CRIT_WEAPON,                     # 6
     CRIT_MP,                         # 7
     CRIT_WEAPON,                     # 8
     CRIT_NONE,                       # 9
     CRIT_FC,                         # 10
     CRIT_ENGINE,                     # 11
     CRIT_DESTROYED],                 # 12
    dtype=np.uint8)
#: Probability of each crit result code on the 'Mech table (x36: 8, 1, 4, 6, 10, 6, 1).
CRIT_PROB = np.bincount(CRIT_MECH[2:], weights=P2D6[2:], minlength=7)


#: Physical attack types (ref 6.7): TN modifier under each D13 reading and damage as
#: ``size + bonus`` (+1 more for Melee with MEL). Configurable table: edit here.
PHYSICAL_TN: dict[str, dict[str, int]] = {
    "asce": {"standard": 0, "melee": 0},
    "as2013": {"standard": 0, "melee": 1},
}
PHYSICAL_DAMAGE_BONUS: dict[str, int] = {"standard": 0, "melee": 0}
#: MEL: +1 damage on a successful Melee-type attack (ref 6.6, 6.7).
MEL_BONUS = 1
