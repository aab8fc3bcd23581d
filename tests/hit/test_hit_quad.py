"""Issue 19: quads in the damage state and ``btsim hit``. A quad keeps the biped location
codes (front legs LA/RA, rear legs LL/RL); what differs is data of its configuration
(:mod:`sim.classic.damage_state.layout`: 6 slots in every leg, the front leg lost with its
side torso; :data:`sim.classic.tables.HIT_TABLES`: MegaMek ``QuadMek`` hit tables). Exact and
Monte Carlo agree; a caller that reads no quad facts refuses a quad, with its reason (the
Classic duel plays quads: tests/classic_duel/test_quad_duel.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.classic import tables as T
from sim.classic.damage_state import layout as lay
from sim.classic.hit_api import hit
from sim.errors import UserError
from sim.units.catalog import get_classic, read_unit_file

SCORPION = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units" / "corpus"
            / "Scorpion SCP-1N.mtf")
needs_file = pytest.mark.skipif(not SCORPION.is_file(), reason=f"{SCORPION} not found")


def test_quad_tables_are_one_place_and_have_no_arms() -> None:
    std, punch, kick = T.HIT_TABLES["Quad"]
    assert std is T.STANDARD  # Mek's 2D6 table: arm results land on the front legs
    legs = {T.LOC[x] for x in ("LA", "RA", "LL", "RL")}
    assert set(kick[:, 1:].ravel()) <= legs
    # a kick from the front hits the front legs, from behind the rear legs, half each
    assert sorted(kick[T.SIDE["front"], 1:]) == sorted([T.LOC["LA"]] * 3 + [T.LOC["RA"]] * 3)
    assert sorted(kick[T.SIDE["rear"], 1:]) == sorted([T.LOC["LL"]] * 3 + [T.LOC["RL"]] * 3)
    # a punch from behind lands on the rear legs where a biped's lands on its arms
    assert list(punch[T.SIDE["rear"], [1, 5]]) == [T.LOC["LL"], T.LOC["RL"]]
    assert list(T.PUNCH[T.SIDE["rear"], [1, 5]]) == [T.LOC["LA"], T.LOC["RA"]]


@needs_file
def test_quad_layout_is_data_of_its_configuration() -> None:
    mech = read_unit_file(SCORPION)
    with pytest.raises(UserError, match="reads no quad facts does not simulate Quad"):
        lay.build_layout(mech)  # a caller that reads no quad facts: refused with the reason
    L = lay.build_layout(mech, quad=True)
    assert L.config == "Quad" and L.n_slots == (6, 12, 12, 12, 6, 6, 6, 6)
    assert L.loc_names[lay.LA] == "FLL" and L.hit_tables[T.TABLE_KICK] is T.QUAD_KICK
    # the front leg's 4 leg actuators are its only hittable slots (of 6)
    assert bin(int(L.hittable()[lay.LA])).count("1") == 4
    assert [L.names[lay.LA][s] for s in range(4)] == ["Hip", "Upper Leg Actuator",
                                                      "Lower Leg Actuator", "Foot Actuator"]
    assert any("Quad 'Mech" in n for n in L.notes)


@needs_file
def test_front_leg_transfers_to_its_side_torso() -> None:
    """25 points on the front left leg (armor 10, structure 13 at 55 t): the leg is destroyed
    and 2 points go on to the left torso's armor (11 -> 9), in every outcome."""
    r = hit(read_unit_file(SCORPION), damage=25, location="FLL")
    assert r["params"]["location"] == "LA"
    assert r["p_location_destroyed"]["LA"] == pytest.approx(1.0)
    assert r["expected_armor_left"]["LT"] == pytest.approx(9.0)
    assert r["p_location_destroyed"]["LT"] == 0.0
    # a destroyed side torso takes its front leg with it (MegaMek Mek.getDependentLocation)
    s = hit(read_unit_file(SCORPION), damage=1, location="CT", state={"structure": {"RT": 0}})
    assert s["p_location_destroyed"]["RA"] == 1.0 and s["p_location_destroyed"]["LA"] == 0.0


@needs_file
def test_quad_monte_carlo_agrees_with_exact() -> None:
    mech = read_unit_file(SCORPION)
    kw = {"groups": [10, 10, 10], "side": "left"}
    ex = hit(mech, **kw)
    n = 20_000
    mc = hit(mech, method="mc", trials=n, seed=11, **kw)
    for key in ("p_destroyed", "p_ammo_explosion"):
        se = max(np.sqrt(ex[key] * (1 - ex[key]) / n), 1e-9)
        assert abs(ex[key] - mc[key]) <= 4 * se + 1e-9, key
    for loc in ex["p_critical"]:
        for key in ("p_critical", "p_location_destroyed"):
            a, b = ex[key][loc], mc[key][loc]
            assert abs(a - b) <= 4 * max(np.sqrt(a * (1 - a) / n), 1e-9) + 1e-9, (key, loc)


def test_quad_leg_names_are_refused_for_a_biped() -> None:
    with pytest.raises(UserError, match="--location FLL: Locust LCT-1V is a Biped"):
        hit(get_classic("Locust LCT-1V"), damage=5, location="FLL")
