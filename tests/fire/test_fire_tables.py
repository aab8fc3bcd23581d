"""Cluster table rows (11.1), expected hits (11.2 list) and heat scale rows (13.1)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from sim.classic.fire import cluster as C
from sim.classic.fire import heat as H

#: Rows restated from the reference table for a spot check of the data entry.
SPOT = {
    3: (1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3),
    7: (2, 2, 3, 4, 4, 4, 4, 6, 6, 7, 7),
    13: (4, 4, 5, 8, 8, 8, 8, 11, 11, 13, 13),
    22: (7, 7, 9, 14, 14, 14, 14, 18, 18, 22, 22),
    29: (10, 10, 12, 18, 18, 18, 18, 23, 23, 29, 29),
    40: (12, 12, 18, 24, 24, 24, 24, 32, 32, 40, 40),
}

#: 11.2: expected hits with modifier 0 / +2 / -4.
EXPECTED = {2: (F(17, 12), F(31, 18), F(37, 36)), 4: (F(95, 36), F(28, 9), F(5, 3)),
            5: (F(19, 6), F(23, 6), F(67, 36)), 6: (F(4), F(43, 9), F(31, 12)),
            10: (F(227, 36), F(23, 3), F(143, 36)), 15: (F(19, 2), F(23, 2), F(25, 4)),
            20: (F(457, 36), F(553, 36), F(97, 12)), 30: (F(19), F(23), F(25, 2)),
            40: (F(457, 18), F(553, 18), F(97, 6))}


@pytest.mark.parametrize("rack", sorted(SPOT))
def test_cluster_rows(rack: int) -> None:
    assert tuple(C.row(rack)[2:]) == SPOT[rack]


def test_cluster_table_shape() -> None:
    for rack, r in C.ROWS.items():
        assert len(r) == 11 and r[-1] == rack and r[-2] == rack
        assert all(a <= b for a, b in zip(r, r[1:], strict=False))
    # a missing rack uses the first larger row, capped at the rack size
    assert tuple(C.row(35)[2:]) == tuple(min(x, 35) for x in C.ROWS[40])


@pytest.mark.parametrize("rack", sorted(EXPECTED))
def test_expected_hits(rack: int) -> None:
    assert tuple(C.expected_hits(rack, m) for m in (0, 2, -4)) == EXPECTED[rack]


def test_cluster_roll_clamped() -> None:
    # a -4 modifier on a roll of 5 reads the 2 column (clamp to 2..12)
    assert C.hits_by_roll(20, -4)[5] == C.ROWS[20][0]
    assert C.hits_by_roll(20, 2)[11] == 20


#: Table 13.1: heat -> (MP loss, to-hit, shutdown avoid, ammo avoid, pilot damage).
SCALE = {0: (0, 0, 0, 0, 0), 4: (0, 0, 0, 0, 0), 5: (1, 0, 0, 0, 0), 7: (1, 0, 0, 0, 0),
         8: (1, 1, 0, 0, 0), 10: (2, 1, 0, 0, 0), 12: (2, 1, 0, 0, 0), 13: (2, 2, 0, 0, 0),
         14: (2, 2, 4, 0, 0), 15: (3, 2, 4, 0, 1), 16: (3, 2, 4, 0, 1), 17: (3, 3, 4, 0, 1),
         18: (3, 3, 6, 0, 1), 19: (3, 3, 6, 4, 1), 20: (4, 3, 6, 4, 1), 21: (4, 3, 6, 4, 1),
         22: (4, 3, 8, 4, 1), 23: (4, 3, 8, 6, 1), 24: (4, 4, 8, 6, 1), 25: (5, 4, 8, 6, 2),
         26: (5, 4, 10, 6, 2), 27: (5, 4, 10, 6, 2), 28: (5, 4, 10, 8, 2),
         29: (5, 4, 10, 8, 2), 30: (6, 4, 13, 8, 2)}


@pytest.mark.parametrize("heat", sorted(SCALE))
def test_heat_scale_rows(heat: int) -> None:
    mp, hit, sd, ammo, pilot = SCALE[heat]
    assert int(H.to_hit_mod(heat)) == hit
    assert int(H.shutdown_avoid(heat)) == sd
    assert int(H.ammo_avoid(heat)) == ammo
    assert int(H.LIFE_SUPPORT_DAMAGE[heat]) == pilot
    if heat < 30:
        assert int(H.mp_loss(heat)) == mp


def test_heat_phase_arithmetic() -> None:
    h = H.apply_heat(np.array([0, 5, 20]), np.array([3, 0, 14]), 13)
    assert h.tolist() == [0, 0, 21]
    assert H.movement_heat("jump", 2) == 3 and H.movement_heat("jump", 5) == 5
    assert H.dissipation(10, True, False, 0) == 20
    assert H.dissipation(10, True, True, 2) == 24 and H.dissipation(10, True, True, 4) == 26
