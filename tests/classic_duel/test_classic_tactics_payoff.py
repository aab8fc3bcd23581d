"""The Classic tactics' payoff at distance 1 (issue 22; reference.md 1-4): the physical
attack the 'best' policy would really make (punches, kick, hatchet, push, charge, death from
above, holding an arm's weapons for one), the falls they cause, worked by hand."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.classic.duel import physical as ph
from sim.classic.duel import tactics as TC
from sim.classic.duel.scenario import build
from sim.dice import P_2D6_AT_LEAST

BANSHEE, LOCUST, HATCHETMAN = "Banshee BNC-3E", "Locust LCT-1V", "Hatchetman HCT-3F"


def _p(tn: int) -> float:
    return float(P_2D6_AT_LEAST[tn]) if tn <= 12 else 0.0


def _melee(a: str, b: str, **kw: object) -> TC.Melee:
    scn = build({"unit_a": a, "unit_b": b, "range": 6, "turns": 2})
    return dataclasses.replace(TC.melee_of(scn.a, scn.b, scn), **kw)


def _one(mc: TC.Melee, mode: int, hexes: int, own_mod: int, eg: list[float],
         fired: list[bool], tmm: int = 0, prone_t: int = 0, act_t: int = 1
         ) -> tuple[float, float, np.ndarray]:
    """melee() for one cell."""
    a = np.array([[mode]])
    d, o, k = TC.melee(mc, a, np.array([[hexes]]), np.array([[own_mod]]), np.array([[tmm]]),
                       prone_t, act_t, np.array([[eg]], float), np.array([[fired]], bool))
    return float(d[0, 0]), float(o[0, 0]), k[0, 0]


def test_banshee_kicks_a_standing_locust_and_values_its_fall() -> None:
    """Both stand, nothing fired. Kick TN 5 - 2 = 3 (35/36), 95/5 = 19; the Locust fails
    its PSR below 5 (6/36): its fall 2 plus the prone turn (one Banshee kick, 19). Punches
    (TN 5, 10 each: 16.7) are worth less than the kick (35/36 x (19 + 6/36 x 2) less the
    missed kick's own fall 1/36 x 6/36 x 10). A miss: the Banshee's fall 10 + a Locust
    kick 4."""
    mc = _melee(BANSHEE, LOCUST)
    ng = mc.gun_loc.size
    dealt, own, keep = _one(mc, 0, 0, 0, [0.0] * ng, [False] * ng)
    pk, q = _p(3), 1 - _p(5)
    assert dealt == pytest.approx(pk * (19 + q * (2 + 19)))
    assert own == pytest.approx((1 - pk) * q * (10 + 4))
    assert not keep.any()
    # the Locust prone: no punch, the kick at -2 (TN 1: sure), no fall to cause
    dealt, _, _ = _one(mc, 0, 0, 0, [0.0] * ng, [False] * ng, prone_t=1)
    assert dealt == pytest.approx(19.0)


def test_banshee_charges_unless_its_fire_is_worth_more() -> None:
    """Running 6 hexes (+2): a charge at TN 5 + 2 = 7 (21/36) deals ceil(95 x 5 / 10) = 48
    (the engine's table: hexes - 1) and forces a +2 PSR (fails below 7: 15/36); the Banshee
    takes ceil(20/10) = 2 and rolls at +2 too. It fires nothing; with 60 points of expected
    fire the fire and the kick (TN 5) are worth more."""
    mc = _melee(BANSHEE, LOCUST)
    ng = mc.gun_loc.size
    dealt, own, keep = _one(mc, 2, 6, 2, [0.0] * ng, [True] * ng)
    pc, q = _p(7), 1 - _p(7)
    assert dealt == pytest.approx(pc * (48 + q * (2 + 19)))
    assert own == pytest.approx(pc * (2 + q * (10 + 4)))
    assert not keep.any()
    eg = [60.0 / ng] * ng
    dealt, own, keep = _one(mc, 2, 6, 2, eg, [True] * ng)
    pk, qk = _p(5), 1 - _p(5)
    assert keep.all()
    assert dealt == pytest.approx(60.0 + pk * (19 + qk * 21))
    assert own == pytest.approx((1 - pk) * qk * 14)


def test_death_from_above_on_a_shut_down_target_and_its_missed_fall() -> None:
    """A jump (the DFA's +3 base replaces the movement modifier) onto a shut-down Locust
    (-4, and it fails every PSR: immobile_psr auto-fail): TN 5 - 4 + 3 = 4 (33/36),
    ceil(3 x 45 / 10) = 14 and its fall (2 + a Hatchetman kick 9); 45/5 = 9 back and a +4
    PSR (fails below 9) whose fall is 5 + a Locust kick 4; a miss a two-level fall (3 x 5)
    and the prone turn. No punch, hatchet or push, and (made to kick with its arms, which
    fire) no kick: 'best' takes it, and fires nothing."""
    mc = _melee(HATCHETMAN, LOCUST, kick_legs=(4, 5), punch_tn=np.array([99, 99]),
                hatch_arm=-1, push=False)
    fired = [g in (4, 5) for g in mc.gun_loc.tolist()]
    ng = mc.gun_loc.size
    dealt, own, keep = _one(mc, 3, 4, 3, [0.0] * ng, fired, act_t=0)
    assert not keep.any()
    pd, qs = _p(4), 1 - _p(9)
    assert dealt == pytest.approx(pd * (14 + 1.0 * (2 + 9)))
    assert own == pytest.approx(pd * (9 + qs * (5 + 4)) + (1 - pd) * (15 + 4))
    # against a standing target (TN 8) its value is negative: not made, nothing dealt
    dealt, own, _ = _one(mc, 3, 4, 3, [0.0] * ng, fired)
    assert dealt == 0.0 and own == 0.0


def test_hatchetman_holds_an_arm_when_the_attack_is_worth_more() -> None:
    """The Hatchetman (medium lasers in both arms, the hatchet in the right), no kick: firing
    both lasers leaves no arm for a physical attack. Hatchet TN 5 - 1 = 4 (33/36) x 45/5 = 9;
    punch TN 5 (30/36) x 5. With the lasers worth 2 and 3 (left, right): fire 5; hold the
    left 3 + a punch 4.17; hold the right 2 + the hatchet 8.25; both punches 8.33: 'best'
    holds the right arm's laser and swings the hatchet."""
    mc = _melee(HATCHETMAN, LOCUST, kick_dmg=0)
    loc = mc.gun_loc.tolist()
    eg = [2.0 if g == 4 else 3.0 if g == 5 else 0.0 for g in loc]
    fired = [g in (4, 5) for g in loc]
    dealt, own, keep = _one(mc, 0, 0, 0, eg, fired)
    assert dealt == pytest.approx(max(5.0, 3 + _p(5) * 5, 2 + _p(4) * 9, 2 * _p(5) * 5))
    assert dealt == pytest.approx(2 + _p(4) * 9)
    assert [bool(k) for k, g in zip(keep, loc, strict=False) if g in (4, 5)] == [True, False]
    assert own == 0.0
    # a laser worth 10 in the right arm: hold the left one only, the hatchet stays idle
    eg = [2.0 if g == 4 else 10.0 if g == 5 else 0.0 for g in loc]
    dealt, _, keep = _one(mc, 0, 0, 0, eg, fired)
    assert dealt == pytest.approx(10 + _p(5) * 5)
    assert [bool(k) for k, g in zip(keep, loc, strict=False) if g in (4, 5)] == [False, True]


def test_the_planner_counts_physical_attacks_only_under_a_physical_policy() -> None:
    """At distance 1 the payoff's damage includes the attack; with physical 'none' it is the
    weapons' alone; beyond distance 1 nothing changes."""
    p = {"unit_a": BANSHEE, "unit_b": LOCUST, "range": 4, "turns": 2}
    out = []
    for phys in ("best", "none"):
        scn = build({**p, "physical_a": phys})
        keys = sorted(scn.a.fire)
        pl = TC.Planner(scn, {}, {k: i for i, k in enumerate(keys)})
        ss = [dict(act=1, mover=1, prone=0, heat=0, walk=s.walk, run=s.run, jump=s.jump,
                   guns=TC.all_classes(pl.gclass[u])) for u, s in enumerate(scn.sides)]
        out.append(pl.payoffs(ss[0], ss[1]))
    (_, best, _), (_, none, _) = out
    assert (best[:3, :3, 1] > none[:3, :3, 1] + 2).all()
    assert np.array_equal(best[..., 2:], none[..., 2:])
    assert ph.BASE[ph.KICK] == -2
