"""Every row of every table in reference sections 1.2, 2, 3 and 4.4, transcribed literally."""

from __future__ import annotations

import pytest

from sim.classic import damage as D
from sim.classic import tables as T
from sim.classic import to_hit as H
from sim.classic.rules import PRESETS, rules_from

R = PRESETS["default"]

# reference 3.2: 2D6 -> (left, front, rear, right)
STANDARD_ROWS = {
    2: ("LT", "CT", "CTR", "RT"), 3: ("LL", "RA", "RA", "RL"), 4: ("LA", "RA", "RA", "RA"),
    5: ("LA", "RL", "RL", "RA"), 6: ("LL", "RT", "RTR", "RL"), 7: ("LT", "CT", "CTR", "RT"),
    8: ("CT", "LT", "LTR", "CT"), 9: ("RT", "LL", "LL", "LT"), 10: ("RA", "LA", "LA", "LA"),
    11: ("RL", "LA", "LA", "LL"), 12: ("HD", "HD", "HD", "HD"),
}
# reference 3.3: 1D6 -> (left, front, rear, right)
PUNCH_ROWS = {
    1: ("LT", "LA", "LA", "RT"), 2: ("LT", "LT", "LTR", "RT"), 3: ("CT", "CT", "CTR", "CT"),
    4: ("LA", "RT", "RTR", "RA"), 5: ("LA", "RA", "RA", "RA"), 6: ("HD", "HD", "HD", "HD"),
}
# reference 3.4: 1D6 -> (left, front, rear, right)
KICK_ROWS = {r: ("LL", "RL" if r <= 3 else "LL", "RL" if r <= 3 else "LL", "RL")
             for r in range(1, 7)}
COLS = ("left", "front", "rear", "right")


@pytest.mark.parametrize("roll", range(2, 13))
def test_standard_table_row(roll: int) -> None:
    """Reference 3.2, standard 'Mech hit location table, one row per 2D6 total."""
    for col, want in zip(COLS, STANDARD_ROWS[roll], strict=True):
        assert T.LOCATIONS[T.STANDARD[T.SIDE[col], roll]] == want


@pytest.mark.parametrize("roll", range(1, 7))
def test_punch_table_row(roll: int) -> None:
    """Reference 3.3, punch location table."""
    for col, want in zip(COLS, PUNCH_ROWS[roll], strict=True):
        assert T.LOCATIONS[T.PUNCH[T.SIDE[col], roll]] == want


@pytest.mark.parametrize("roll", range(1, 7))
def test_kick_table_row(roll: int) -> None:
    """Reference 3.4, kick location table."""
    for col, want in zip(COLS, KICK_ROWS[roll], strict=True):
        assert T.LOCATIONS[T.KICK[T.SIDE[col], roll]] == want


def test_front_column_probabilities() -> None:
    """Reference 3.2: HD 1/36, CT 7/36, RT/LT/RA/LA 5/36, RL/LL 4/36."""
    p = T.location_probabilities(T.TABLE_STANDARD, T.SIDE["front"]) * 36
    want = {"HD": 1, "CT": 7, "RT": 5, "LT": 5, "RA": 5, "LA": 5, "RL": 4, "LL": 4}
    for loc, k in want.items():
        assert p[T.LOC[loc]] == pytest.approx(k)


@pytest.mark.parametrize("roll,col", [(1, "front"), (2, "right"), (3, "right"), (4, "rear"),
                                      (5, "left"), (6, "left")])
def test_facing_after_fall(roll: int, col: str) -> None:
    """Reference 4.4: facing-after-fall roll decides the fall damage column."""
    assert T.FALL_COLUMN[roll] == T.SIDE[col]


@pytest.mark.parametrize("hexes,tw,old", [(0, 0, 0), (2, 0, 0), (3, 1, 1), (4, 1, 1), (5, 2, 2),
                                          (6, 2, 2), (7, 3, 3), (9, 3, 3), (10, 4, 4),
                                          (17, 4, 4), (18, 5, 4), (24, 5, 4), (25, 6, 4),
                                          (40, 6, 4)])
def test_tmm_table(hexes: int, tw: int, old: int) -> None:
    """Reference 1.2.2 and D16 (TW vs older 10+ = +4); +1 if the target jumped."""
    assert H.tmm(hexes, False, "tw") == tw
    assert H.tmm(hexes, True, "tw") == tw + 1
    assert H.tmm(hexes, False, "old") == old


# reference section 2 table: W -> punch, kick, club, DFA target, DFA self, fall 0, DFA-miss fall
DAMAGE_ROWS = {
    20: (2, 4, 4, 6, 4, 2, 6), 25: (3, 5, 5, 8, 5, 3, 9), 30: (3, 6, 6, 9, 6, 3, 9),
    35: (4, 7, 7, 11, 7, 4, 12), 40: (4, 8, 8, 12, 8, 4, 12), 45: (5, 9, 9, 14, 9, 5, 15),
    50: (5, 10, 10, 15, 10, 5, 15), 55: (6, 11, 11, 17, 11, 6, 18),
    60: (6, 12, 12, 18, 12, 6, 18), 65: (7, 13, 13, 20, 13, 7, 21),
    70: (7, 14, 14, 21, 14, 7, 21), 75: (8, 15, 15, 23, 15, 8, 24),
    80: (8, 16, 16, 24, 16, 8, 24), 85: (9, 17, 17, 26, 17, 9, 27),
    90: (9, 18, 18, 27, 18, 9, 27), 95: (10, 19, 19, 29, 19, 10, 30),
    100: (10, 20, 20, 30, 20, 10, 30),
}


@pytest.mark.parametrize("w", sorted(DAMAGE_ROWS))
def test_damage_row(w: int) -> None:
    """Reference section 2 'Reference numbers per tonnage', every row 20-100 t."""
    punch, kick, club, dfa, dfa_self, fall0, fall2 = DAMAGE_ROWS[w]
    assert D.punch(w, 0, False, R) == punch
    assert D.kick(w, 0, False, R) == kick
    assert D.club(w, False, R) == club
    assert D.dfa(w, R) == dfa
    assert D.dfa_self(w) == dfa_self
    assert D.fall(w, 0) == fall0
    assert D.fall(w, 2) == fall2


def test_groups() -> None:
    """Reference 2.1: 5-point groups, last holds the remainder."""
    assert D.groups(33) == (5, 5, 5, 5, 5, 5, 3)
    assert D.groups(7) == (5, 2)
    assert D.groups(10) == (5, 5)
    assert D.groups(0) == ()


def test_charge_damage_formula() -> None:
    """Reference 2: ceil(W/10 x h) and ceil(T/10) for the charger."""
    assert D.charge(65, 5) == 33
    assert D.charge(20, 1) == 2
    assert D.charge(55, 3) == 17
    assert D.charge_self(70) == 7
    assert D.charge_self(45) == 5


def test_punch_halving_and_tsm() -> None:
    """Reference 2 details: one floor after halving; TSM x2 inside; 95 t punch = 10."""
    assert D.punch(70, 1, False, R) == 3
    assert D.punch(70, 2, False, R) == 1
    assert D.punch(70, 1, True, R) == 7
    assert D.punch(95, 0, False, R) == 10  # MegaMekLab #1262
    assert D.kick(70, 0, True, R) == 28


def test_d5_punch_minimum() -> None:
    """D5: 20 t with upper and lower arm destroyed: 1 by the rules, 0 in MegaMek."""
    assert D.punch(20, 2, False, R) == 1
    assert D.punch(20, 2, False, rules_from("megamek")) == 0
    assert D.punch(20, 2, False, rules_from(punch_min_damage=0)) == 0


def test_d18_dfa_rounding() -> None:
    """D18: 55 t DFA = 17 (MegaMek), 18 (ceil then x3), 15 (floor then x3)."""
    assert D.dfa(55, R) == 17
    assert D.dfa(55, rules_from(dfa_rounding="ceil-then-times-3")) == 18
    assert D.dfa(55, rules_from(dfa_rounding="floor-then-times-3")) == 15


def test_d6_per_5_tons_rounding_identical_for_multiples_of_5() -> None:
    """D6: floor and ceil agree for every legal tonnage."""
    ceil = rules_from(per_5_tons_rounding="ceil")
    for w in range(20, 105, 5):
        assert D.kick(w, 0, False, R) == D.kick(w, 0, False, ceil)
        assert D.club(w, False, R) == D.club(w, False, ceil)
