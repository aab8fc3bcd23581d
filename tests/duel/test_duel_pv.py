"""PV at skill (reference-as-combat 23.1, 23.3, A4; examples E3, E4)."""

from __future__ import annotations

import pytest

from sim.alphastrike.pv import force_pv, pv_at_skill, pv_step_down, pv_step_up
from sim.errors import ConfigError

#: Rows of the 23.1 table: base PV band -> adjustment at skills 0..7.
TABLE = {
    (1, 7): (4, 3, 2, 1, 0, -1, -2, -3),
    (8, 12): (8, 6, 4, 2, 0, -1, -2, -3),
    (13, 14): (12, 9, 6, 3, 0, -1, -2, -3),
    (15, 17): (12, 9, 6, 3, 0, -2, -4, -6),
    (18, 22): (16, 12, 8, 4, 0, -2, -4, -6),
    (23, 24): (20, 15, 10, 5, 0, -2, -4, -6),
    (25, 27): (20, 15, 10, 5, 0, -3, -6, -9),
    (28, 32): (24, 18, 12, 6, 0, -3, -6, -9),
    (33, 34): (28, 21, 14, 7, 0, -3, -6, -9),
    (35, 37): (28, 21, 14, 7, 0, -4, -8, -12),
    (38, 42): (32, 24, 16, 8, 0, -4, -8, -12),
    (43, 44): (36, 27, 18, 9, 0, -4, -8, -12),
    (45, 47): (36, 27, 18, 9, 0, -5, -10, -15),
    (48, 52): (40, 30, 20, 10, 0, -5, -10, -15),
    (53, 54): (44, 33, 22, 11, 0, -5, -10, -15),
    (55, 57): (44, 33, 22, 11, 0, -6, -12, -18),
    (58, 62): (48, 36, 24, 12, 0, -6, -12, -18),
    (63, 64): (52, 39, 26, 13, 0, -6, -12, -18),
    (65, 67): (52, 39, 26, 13, 0, -7, -14, -21),
    (68, 72): (56, 42, 28, 14, 0, -7, -14, -21),
}


@pytest.mark.parametrize("band", list(TABLE))
def test_table_23_1(band: tuple[int, int]) -> None:
    for pv in range(band[0], band[1] + 1):
        got = tuple(pv_at_skill(pv, s) - pv for s in range(8))
        want = tuple(max(1, pv + d) - pv for d in TABLE[band])
        assert got == want, pv


def test_e3_examples() -> None:
    assert [pv_at_skill(52, s) for s in range(8)] == [92, 82, 72, 62, 52, 47, 42, 37]
    assert [pv_at_skill(18, s) for s in range(8)] == [34, 30, 26, 22, 18, 16, 14, 12]
    assert (pv_at_skill(32, 2), pv_at_skill(32, 6)) == (44, 26)
    assert (pv_step_up(52), pv_step_down(52)) == (10, 5)


def test_e4_force_pv() -> None:
    assert force_pv([(52, 3), (32, 4), (18, 5), (17, 4)]) == 127


def test_a4_readings_and_floor() -> None:
    assert pv_at_skill(110, 5) == 99 and pv_at_skill(110, 5, "jdgwf") == 100
    assert pv_at_skill(105, 6) == 83 and pv_at_skill(105, 6, "jdgwf") == 85
    assert pv_at_skill(3, 7) == 1 and pv_at_skill(3, 7, "jdgwf") == 0


@pytest.mark.parametrize("skill", [-1, 8, "x"])
def test_bad_skill(skill: object) -> None:
    with pytest.raises(ConfigError):
        pv_at_skill(30, skill)  # type: ignore[arg-type]
