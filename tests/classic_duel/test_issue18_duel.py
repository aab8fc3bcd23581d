"""Issue 18 rule fixes in the Classic duel (reference-classic-combat.md 10.3, 13.4, 14.4,
16): the target's anti-missile system (C25, ``ams_engages``), C27 (no heat-induced
ammunition explosion while shut down) and C10 (an explosion set off by the group that
destroys the 'Mech goes off). Worked examples, Monte Carlo within 4 SE of exact."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from classic_duel_helpers import HBK, LOCUST, WVR

from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import SampleChooser
from sim.classic.duel import kernel
from sim.classic.duel.scenario import build as _build
from sim.classic.fire import heat as H
from sim.dice import p_2d6_at_least_exact as P
from sim.oracles.classic_duel import scalar

CPLT, LOKI = "Catapult CPLT-C1", "Loki Prime"

#: these tests check the duel with imposed movement (issue 22: the default tactic became
#: competent at a fixed range): both sides pinned to stand-and-fire unless a test says
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}


def build(params: dict):  # noqa: ANN201 - the scenario builder, stand-and-fire pinned
    return _build({**SAF, **params})


def _catapult_at_9(engages: str) -> float:
    """Catapult CPLT-C1 (2 LRM 15 at TN 6, 4 Medium Laser at TN 8) at 9 hexes against the
    Loki Prime's one AMS, turn 1: 22.06 without AMS; the AMS takes 4 off one LRM's cluster
    roll (19/2 -> 25/4 hits): the first that hits (19.06) or the declared one (19.71)."""
    base = 2 * P(6) * Fraction(19, 2) + 4 * P(8) * 5
    cut = Fraction(19, 2) - Fraction(25, 4)
    if engages == "hit":
        return float(base - (1 - (1 - P(6)) ** 2) * cut)
    return float(base - P(6) * cut)


@pytest.mark.parametrize("engages", ["hit", "declared"])
def test_catapult_against_loki_ams_turn_one(engages: str) -> None:
    scn = build({"unit_a": CPLT, "unit_b": LOKI, "range": 9, "turns": 1,
                 "ams_engages": engages})
    assert scn.b.ams_items and scn.b.ams_pool >= 0 and not scn.a.ams_items
    n = 16384
    d = kernel.run_block(scn, None, np.random.default_rng(18), n)["dealt"][0, 0]
    exact = _catapult_at_9(engages)
    assert abs(d.mean() - exact) <= 4 * d.std() / np.sqrt(n), (d.mean(), exact)


def test_ams_uses_a_round_and_one_heat_per_engagement() -> None:
    """Each engagement of an attack that hits costs the Loki one AMS round and 1 heat; a
    shut-down Loki's AMS does not engage (row 1)."""
    scn = build({"unit_a": CPLT, "unit_b": LOKI, "range": 9, "turns": 1})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    fs = next(iter(scn.a.fire.values()))
    n = 2
    x = kernel._State.fresh(scn.a, n, len(fs.guns))
    y = kernel._State.fresh(scn.b, n, len(next(iter(scn.b.fire.values())).guns))
    y.shut[1] = True
    assert kernel._ams_free(scn.b, y).tolist() == [1, 0]
    lrm = [g for g, gun in enumerate(fs.guns) if gun.ams_target]
    plan = kernel._Plan(np.zeros((len(fs.guns), n), bool), np.full((len(fs.guns), n), 2),
                        np.ones((len(fs.guns), n), np.int64))
    plan.fire[lrm] = True                              # TN 2: both LRMs always hit
    bins = [b for b, p in enumerate(scn.b.bin_pool) if p == scn.b.ams_pool]
    before = y.S[:, st.AMMO0 + bins[0]].copy()
    _, _, _, ams_heat = kernel._resolve_fire(np.random.default_rng(1), scn.a, c, fs, x,
                                             scn.b, y, plan, SampleChooser(
                                                 np.random.default_rng(2)))
    assert ams_heat.tolist() == [1, 0]
    assert (before - y.S[:, st.AMMO0 + bins[0]]).tolist() == [1, 0]


def test_oracle_sees_the_ams() -> None:
    """The scalar oracle's weapon damage in turn 1 lies within 4 SE of 19.06 (22.06 without
    the AMS: more than 4 SE away)."""
    n = 700
    o = scalar({"unit_a": CPLT, "unit_b": LOKI, "range": 9, "turns": 1, **SAF},
               np.random.default_rng(18), n)
    d = o["weapon_damage"][0]
    assert abs(d.mean() - _catapult_at_9("hit")) <= 4 * d.std() / np.sqrt(n)


@pytest.mark.parametrize("check", [True, False])
def test_c27_no_ammunition_explosion_while_shut_down(check: bool) -> None:
    """C27: a shut-down HBK-4G at heat 28 (ammunition avoid 8: P(explode) = 21/36) rolls
    for its AC/20 ammunition with ``explosion_while_shutdown`` on; off, only a 'Mech that
    restarted this heat phase (2D6 >= 10 at 28) rolls."""
    scn = build({"unit_a": HBK, "unit_b": WVR, "range": 6,
                 "explosion_while_shutdown": check})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    fs = next(iter(scn.a.fire.values()))
    n = 6000
    x = kernel._State.fresh(scn.a, n, len(fs.guns))
    x.shut[:] = True
    x.heat[:] = 28 + fs.dissipation
    kernel._heat_phase(np.random.default_rng(27), scn.a, c, fs, x, np.zeros(n, np.int64),
                       np.ones(n, bool), SampleChooser(np.random.default_rng(28)))
    assert (x.heat == 28).all()
    boom = x.S[:, st.EXPLOSIONS] > 0
    p_boom = 1 - float(P(int(H.AMMO_AVOID[28])))
    if check:
        p = p_boom
    else:
        assert not (boom & x.shut).any()
        p = float(P(int(H.SHUTDOWN_AVOID[28]))) * p_boom
    assert abs(boom.mean() - p) <= 4 * np.sqrt(p * (1 - p) / n), (boom.mean(), p)


def test_c10_bin_hit_by_the_destroying_group_explodes_in_the_duel() -> None:
    """C10 in the duel's damage path: 10 points on the Locust's bare CT (structure 6)
    destroy it; a critical on its MG bin (11/216, tests/hit/test_issue18_c10.py) explodes:
    cause ammunition, the MechWarrior takes 2."""
    scn = build({"unit_a": LOCUST, "unit_b": WVR, "range": 6})
    n = 40000
    x = kernel._State.fresh(scn.a, n, 1)
    x.S[:, st.ARMOR0 + 1] = 0
    kernel._apply_at(x.S, scn.a, np.arange(n), np.full(n, 10, np.int64),
                     np.full(n, 1, np.int64), np.zeros(n, bool), np.zeros(n, bool),
                     SampleChooser(np.random.default_rng(10)))
    assert (x.S[:, st.CAUSE] != st.C_NONE).all()
    ammo = x.S[:, st.CAUSE] == st.C_AMMO
    p = 11 / 216
    assert abs(ammo.mean() - p) <= 4 * np.sqrt(p * (1 - p) / n)
    assert (x.S[ammo, st.PILOT] >= 2).all() and (x.S[ammo, st.EXPLOSIONS] > 0).all()
