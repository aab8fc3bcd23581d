"""C10 (reference-classic-combat.md 16; 14.4): the critical determination of the group that
destroys the 'Mech is still resolved (MegaMek), so an ammunition bin it hits explodes: the
explosion counts, the MechWarrior takes 2 and the cause is "ammunition"."""

from __future__ import annotations

from fractions import Fraction

from sim.classic.hit_api import hit
from sim.units.catalog import get_classic

LOCUST = "Locust LCT-1V"
#: the Locust's CT with its armor gone: 10 points destroy its 6 structure
BARE_CT = {"armor": {"CT": 0}}


def _p_bin_hit() -> Fraction:
    """P(a critical lands on the MG bin) in one determination on the Locust CT: 12 hittable
    slots (6 engine, 4 gyro, Medium Laser, the bin); 8-9 one critical, 10-11 two, 12 three
    (a torso; reference.md 5.4), each on a slot not yet hit."""
    one, two, three = Fraction(9, 36), Fraction(5, 36), Fraction(1, 36)
    return one * Fraction(1, 12) + two * Fraction(2, 12) + three * Fraction(3, 12)


def test_locust_bare_ct_ten_points_exact() -> None:
    m = get_classic(LOCUST)
    assert m.internal["CT"] == 6
    assert _p_bin_hit() == Fraction(11, 216)
    r = hit(LOCUST, damage=10, location="CT", state=BARE_CT)
    assert abs(r["p_destroyed"] - 1) < 1e-12
    assert abs(r["p_ammo_explosion"] - 11 / 216) < 1e-12
    assert abs(r["p_destroyed_by"]["ammunition"] - 11 / 216) < 1e-12
    assert abs(r["p_destroyed_by"]["center_torso"] - 205 / 216) < 1e-12
    assert abs(r["expected_pilot_damage"] - 2 * 11 / 216) < 1e-12


def test_locust_bare_ct_ten_points_option_off() -> None:
    r = hit(LOCUST, damage=10, location="CT", state=BARE_CT,
            rules={"crit_on_destroying_group": False})
    assert r["p_ammo_explosion"] == 0 and r["expected_pilot_damage"] == 0
    assert abs(r["p_destroyed_by"]["center_torso"] - 1) < 1e-12


def test_locust_bare_ct_monte_carlo_within_4_se() -> None:
    r = hit(LOCUST, damage=10, location="CT", state=BARE_CT, method="mc", trials=40000,
            seed=18)
    for key, exact in (("p_ammo_explosion", 11 / 216), ("expected_pilot_damage", 22 / 216)):
        assert r[f"{key}_se"] > 0
        assert abs(r[key] - exact) <= 4 * r[f"{key}_se"], (key, r[key], r[f"{key}_se"])
