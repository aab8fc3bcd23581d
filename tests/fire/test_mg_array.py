"""Issue 19: a machine gun array (MegaMek ``MGAWeaponHandler``) fires its linked machine guns
as one weapon: one to-hit roll, the cluster table with the gun count as the column, one
location for the salvo, one round per gun (the pool counted in salvos)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sim import engine, testing
from sim.classic.fire import cluster as C
from sim.classic.fire.model import MODEL
from sim.classic.fire.scenario import build_scenario, expected_damage
from sim.classic.fire.unit import Mount, Pool, fire_unit, link_mg_arrays
from sim.classic.weapons import WEAPONS
from sim.units.catalog import read_unit_file

BOMBARDIER = (Path(__file__).resolve().parents[2].parent / "shared" / "data" / "units"
              / "corpus" / "Bombardier BMB-14K.mtf")
needs = pytest.mark.skipif(not BOMBARDIER.is_file(), reason=f"{BOMBARDIER} not found")
MG, MGA = WEAPONS["IS Machine Gun"], WEAPONS["IS Machine Gun Array"]


@needs
def test_bombardier_array_is_one_cluster_weapon() -> None:
    """Three machine guns and an array in the right arm, half a ton of MG rounds (100):
    one gun of 3 on the cluster table, 2 points per gun that hits, 33 salvos."""
    fu = fire_unit(read_unit_file(BOMBARDIER))
    [arr] = [m for m in fu.mounts if m.weapon is not None and m.weapon.family == "mg"]
    assert arr.weapon is not None and arr.weapon.cluster == 3
    [pool] = [p for p in fu.pools if p.key == "IS Ammo MG"]
    assert (pool.shots, pool.damage_per_shot) == (33, 6)
    scn = build_scenario({"unit": fu, "gunnery": 4, "range": 1, "turns": 1})
    [gun] = [g for g in scn.guns if g.kind == "mg"]
    assert list(gun.hits[1][2:]) == list(C.hits_by_roll(3, 0)[2:])
    assert gun.groups[1] == ((), (2,), (4,), (6,)) and gun.max_damage() == 6
    tn = int(gun.tn[0, 0])  # gunnery 4, short range
    p_hit = sum((p for t, p in enumerate(C.PMF_2D6) if t >= tn), Fraction(0))
    assert tn == 4 and expected_damage(gun, tn) == p_hit * C.expected_hits(3, 0) * 2


def test_guns_sharing_their_rounds_with_others_fire_singly() -> None:
    mounts = [Mount("ISMGA", MGA, "RA", False), *[Mount("MG", MG, "RA", False)] * 2,
              Mount("MG", MG, "LT", False)]
    pools = [Pool("IS Ammo MG", 200, 2, True, ("LT",), False, (200,))]
    out, pools2, notes = link_mg_arrays(mounts, pools)
    assert [m.weapon.cluster for m in out if m.weapon] == [0, 0, 0]
    assert pools2 == pools and "fire singly" in notes[0]
    out, pools2, notes = link_mg_arrays(mounts[:3], pools)
    assert [m.weapon.cluster for m in out if m.weapon] == [2]
    assert (pools2[0].shots, pools2[0].damage_per_shot) == (100, 4)


@needs
def test_mc_matches_exact_with_an_array() -> None:
    params = {"unit": read_unit_file(BOMBARDIER), "range": 2, "turns": 3, "policy": "all"}
    frame = engine.simulate(MODEL, [params], trials=8_000, seed=9, backend="sequential")
    testing.assert_mc_matches_exact(frame, metrics=[m.name for m in MODEL.metrics
                                                    if m.kind != "hist"])


@pytest.mark.parametrize("array,gun", [("Clan Machine Gun Array", "Clan Machine Gun"),
                                       ("IS Light Machine Gun Array", "IS Light Machine Gun"),
                                       ("Clan Heavy Machine Gun Array",
                                        "Clan Heavy Machine Gun")])
def test_every_array_links_its_own_kind_of_gun(array: str, gun: str) -> None:
    """MegaMek ISLightMGA, CLMGA, CLHeavyMGA...: an array links the guns of its type only."""
    mg, other = WEAPONS[gun], WEAPONS["IS Machine Gun"]
    mounts = [Mount("A", WEAPONS[array], "LA", False), *[Mount("G", mg, "LA", False)] * 4,
              Mount("M", other, "LA", False)] if other.name != mg.name else [
        Mount("A", WEAPONS[array], "LA", False), *[Mount("G", mg, "LA", False)] * 4]
    pools = [Pool(mg.ammo or "", 200, mg.damage, True, ("LT",), False, (200,))]
    out, _, _ = link_mg_arrays(mounts, pools)
    arrays = [m.weapon for m in out if m.weapon is not None and m.weapon.cluster]
    assert len(arrays) == 1 and arrays[0].cluster == 4 and arrays[0].damage == mg.damage
