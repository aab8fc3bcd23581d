"""Issue 19: the hyper-assault Gauss rifle (MegaMek HAGWeaponHandler): 1 point per
projectile in 5-point groups from the cluster table with the rack as its column, +2 on the
cluster roll at short range, 0 at medium, -2 at long (``cluster_by_range``); the fire model
gives it one gun per bracket its ranges need."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sim import engine, testing
from sim.classic.fire import cluster as C
from sim.classic.fire.model import MODEL
from sim.classic.fire.scenario import build_scenario, expected_damage
from sim.classic.fire.unit import FireUnit, Mount, Pool
from sim.classic.weapons import WEAPONS

HAG = WEAPONS["Clan HAG 20"]


def _unit() -> FireUnit:
    return FireUnit("HAG test", "Clan", (Mount("CLHAG20", HAG, "RT", False),),
                    (Pool("Clan Ammo HAG 20", 12, 20, False, ("RT",), False, (6, 6)),),
                    heat_sinks=10, double_sinks=True, leg_sinks=0, walk_mp=4, jump_mp=0,
                    ammo_known=True)


@pytest.mark.parametrize("r,mod", [(5, 2), (12, 0), (20, -2)])
def test_hag_cluster_roll_by_bracket(r: int, mod: int) -> None:
    scn = build_scenario({"unit": _unit(), "gunnery": 4, "range": r, "turns": 1})
    [gun] = scn.guns
    assert list(gun.hits[1][2:]) == list(C.hits_by_roll(20, mod)[2:])
    assert gun.max_damage() == 20 and gun.groups[1][20] == (5, 5, 5, 5)
    tn = int(gun.tn[0, 0])
    p_hit = sum((p for t, p in enumerate(C.PMF_2D6) if t >= tn), Fraction(0))
    assert expected_damage(gun, tn) == p_hit * C.expected_hits(20, mod)
    assert scn.mount_rows[0]["cluster_mod"] == {r: mod}


def test_hag_over_a_range_script_one_gun_per_bracket() -> None:
    scn = build_scenario({"unit": _unit(), "gunnery": 4, "ranges": "5,12,20", "turns": 3})
    assert len(scn.guns) == 3
    live = np.array([g.tn[:, 0] <= 12 for g in scn.guns])
    assert live.tolist() == [[True, False, False], [False, True, False], [False, False, True]]


def test_mc_matches_exact_with_a_hag() -> None:
    params = {"unit": _unit(), "ranges": "5,12,20", "turns": 3, "policy": "all"}
    frame = engine.simulate(MODEL, [params], trials=8_000, seed=2, backend="sequential")
    testing.assert_mc_matches_exact(frame, metrics=[m.name for m in MODEL.metrics
                                                    if m.kind != "hist"])
