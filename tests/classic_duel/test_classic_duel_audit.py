"""Fixes from the rules audit of the duel (reference.md 1.3, 2, 4.1-4.5; reference-classic-
combat.md 14.3, 14.5): a failed attempt to stand is a fall (option ``failed_stand``), no wake-up
roll in the turn of the knockout (``wake_roll``), a prone target has no knock-down value, a
'Mech making a DFA cannot be attacked physically, two destroyed hips make a 'Mech immobile."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR, only_weapon, unarmed

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.duel import kernel
from sim.classic.duel import physical as ph
from sim.classic.duel.scenario import build as _build

#: these tests check the duel with imposed movement (issue 22: the default tactic became
#: competent at a fixed range): both sides pinned to stand-and-fire unless a test says
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}


def build(params: dict):  # noqa: ANN201 - the scenario builder, stand-and-fire pinned
    return _build({**SAF, **params})


@pytest.mark.parametrize("reading", ["fall", "stay"])
def test_failed_stand(reading: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Side A starts prone with a destroyed gyro slot and piloting 8 (stand TN 8 + 3 = 11):
    with ``fall`` every failure costs fall damage (ceil(50/10) = 5 points), with ``stay``
    nothing."""
    real = kernel._State.fresh

    def fresh(side: Any, n: int, ng: int) -> kernel._State:
        x = real(side, n, ng)
        if side.label.startswith("Hunchback"):
            x.prone[:] = True
            x.S[:, st.GYRO] = 1
        return x

    monkeypatch.setattr(kernel._State, "fresh", staticmethod(fresh))
    scn = build({"unit_a": unarmed(HBK), "unit_b": unarmed(WVR), "range": 6, "turns": 1,
                 "piloting_a": 8, "failed_stand": reading})
    n = 2000
    out = kernel.run_block(scn, None, np.random.default_rng(3), n)
    fell = out["fell"][0]
    if reading == "stay":
        assert not fell.any()
    else:
        p_fail = 1 - sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= 11) / 36
        assert abs(fell.mean() - p_fail) < 4 * np.sqrt(p_fail * (1 - p_fail) / n)


@pytest.mark.parametrize("reading", ["next_turn", "same_turn"])
def test_wake_roll(reading: str) -> None:
    """A MechWarrior knocked out this turn (pilot damage 1: wakes on 3+) rolls in this end
    phase only with ``same_turn``; one out since an earlier turn rolls under both."""
    scn = build({"unit_a": unarmed(HBK), "unit_b": WVR, "range": 6, "wake_roll": reading})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    ng = len(next(iter(scn.a.fire.values())).guns)
    n = 400
    x = kernel._State.fresh(scn.a, n, ng)
    x.S[:, st.PILOT] = x.pilot_seen[:] = 1
    x.uncon[:] = True
    was_out = np.arange(n) < n // 2           # half were out before this turn
    kernel._end_phase(np.random.default_rng(1), scn.a, c, x, np.ones(n, bool), 0, was_out)
    woke = ~x.uncon
    assert woke[: n // 2].mean() > 0.9                       # 35/36 wake
    assert woke[n // 2:].any() == (reading == "same_turn")


def _choose(p: dict, prone_target: bool) -> Any:
    scn = build({"unit_a": WVR, "unit_b": HBK, "range": 1, **p})
    comp = (kernel.compile_side(scn.a, scn.duel_rules), kernel.compile_side(scn.b,
                                                                             scn.duel_rules))
    n = 8
    xs = [kernel._State.fresh(s, n, len(next(iter(s.fire.values())).guns)) for s in scn.sides]
    xs[1].prone[:] = prone_target
    fs = next(iter(scn.a.fire.values()))
    still = kernel._Move.still(n)
    return kernel._choose_physical(scn.a, comp[0], xs[0], scn.b, xs[1], np.ones(n, bool),
                                   still, still, np.zeros((8, n), bool), fs,
                                   scn.physical_rules)


def test_a_prone_target_has_no_knock_down_value() -> None:
    """Kicking a prone 'Mech: value = P(hit) x damage exactly (it makes no PSR)."""
    p = _choose({}, prone_target=True)
    pk = ph.p_hit(p.kick_tn)
    assert (pk > 0).all()
    assert np.allclose(p.value[ph.KICK], pk * p.kick_dmg)
    # standing, the same kick is worth more: the target may fall
    q = _choose({}, prone_target=False)
    assert (q.value[ph.KICK] > ph.p_hit(q.kick_tn) * q.kick_dmg).all()


def test_a_dfa_attacker_cannot_be_attacked_physically() -> None:
    """B forced to DFA every turn; A (a brawler with fists and feet) never lands a physical
    attack on it in the turn of the DFA: A's damage dealt is 0 whenever B declared."""
    dfa = lambda d: np.where(d["stage"] == "declare", ph.DFA, ph.NONE)  # noqa: E731
    scn = build({"unit_a": unarmed(HBK), "unit_b": unarmed(WVR), "range": 1, "turns": 1,
                 "moved_b": "jump", "physical_b": dfa})
    out = kernel.run_block(scn, None, np.random.default_rng(2), 500)
    assert (out["dealt"][0, 0] == 0).all()
    # without the DFA the same brawler does hit
    scn = build({"unit_a": unarmed(HBK), "unit_b": unarmed(WVR), "range": 1, "turns": 1})
    out = kernel.run_block(scn, None, np.random.default_rng(2), 500)
    assert (out["dealt"][0, 0] > 0).any()


def test_two_destroyed_hips_are_immobile() -> None:
    scn = build({"unit_a": only_weapon(HBK, "IS Medium Laser"), "unit_b": WVR, "range": 6,
                 "out_of_fight": "immobile_unarmed"})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    x = kernel._State.fresh(scn.a, 3, 1)
    for leg in (lay.LL, lay.RL):
        x.S[:, st.HIT0 + leg] |= int(scn.a.act["hip"][leg])
    x.S[1:, st.SENSORS] = 2                   # no weapon can fire
    x.S[2, st.HIT0 + lay.LL] &= ~int(scn.a.act["hip"][lay.LL])   # one hip only
    assert kernel.out_of_fight(scn.a, c, x).tolist() == [0, 2, 0]


def test_per_turn_shutdown_and_fall_curves() -> None:
    """The per-turn curves rise, end at the per-duel 'at least once' figures, and a hot
    Awesome (three PPCs every turn at range 6) shuts down in a visible share of duels."""
    from sim.classic.duel.model import MODEL

    scn = build({"unit_a": "Awesome AWS-8Q", "unit_b": HBK, "range": 6, "turns": 6})
    agg = MODEL.sample(scn, np.random.default_rng(5), 3000)

    def mean(name: str) -> np.ndarray:
        return np.array([tot / c for c, tot, _ in agg.stats[name]])

    for s in "ab":
        for curve, once in ((f"p_{s}_shutdown_by", f"p_shutdown_by_{s}"),
                            (f"p_{s}_fell_by", f"p_fell_{s}")):
            c = mean(curve)
            assert len(c) == 6 and (np.diff(c) >= 0).all()
            assert c[-1] == pytest.approx(mean(once)[0])
    assert mean("p_a_shutdown_by")[-1] > 0.05


@pytest.mark.parametrize("reading", ["one-arm", "both-arms"])
def test_prone_fire(reading: str) -> None:
    """A prone Hunchback (a medium laser in each arm, AC/20 in the torso): with ``one-arm``
    it props itself on the left arm (a tie: the left), so the left laser cannot fire; with an
    arm destroyed nothing fires. ``both-arms``: both lasers fire."""
    scn = build({"unit_a": HBK, "unit_b": WVR, "range": 3, "prone_fire": reading})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    fs = next(iter(scn.a.fire.values()))
    ng = len(fs.guns)
    n = 4
    x = kernel._State.fresh(scn.a, n, ng)
    y = kernel._State.fresh(scn.b, n, len(next(iter(scn.b.fire.values())).guns))
    x.prone[1:] = True
    x.S[3, st.IS0 + lay.RA] = 0                          # row 3: right arm destroyed
    still = kernel._Move.still(n)
    hact = np.zeros(n, np.int64)
    plan = kernel._declare(scn.a, c, fs, x, y, 0, np.ones(n, bool), np.zeros(n, bool),
                           np.zeros(n, bool), hact, 3, still, still)
    loc = [g.location for g in fs.guns]
    la, ra = loc.index("LA"), loc.index("RA")
    torso = [g for g, lo in enumerate(loc) if lo in ("LT", "RT", "CT", "HD")]
    assert plan.fire[[la, ra], 0].all()                  # standing: both arms fire
    if reading == "one-arm":
        assert not plan.fire[la, 1] and plan.fire[ra, 1] and plan.fire[torso, 1].all()
        assert not plan.fire[:, 3].any()
    else:
        assert plan.fire[[la, ra], 1].all() and plan.fire[torso, 3].all()


@pytest.mark.parametrize("policy", ["all", "neutral"])
def test_a_weapon_out_of_nominal_reach_fires_at_its_own_number_under_all(policy: str) -> None:
    """Gunnery 6, the AC/20 at 9 hexes (long +4) against a Wolverine the fire tables see
    running 8 hexes (TMM +3): 13, out of reach. In the duel the Wolverine stood still and
    is shut down (TMM 0, -4): 6 + 4 - 4 = 6. ``all`` fires every weapon whose own number is
    12 or less, so the AC/20 fires at 6; the heat-aware policies decide from the fire
    model's nominal numbers and leave it silent (documented)."""
    scn = build({"unit_a": HBK, "unit_b": WVR, "range": 9, "gunnery_a": 6,
                 "moved_b": "run", "policy_a": policy})
    c = kernel.compile_side(scn.a, scn.duel_rules)
    fs = next(iter(scn.a.fire.values()))
    ac = [g.key for g in fs.guns].index("IS AC/20")
    assert fs.guns[ac].tn[0, 0] == 13 and fs.guns[ac].tn_uncapped[0, 0] == 13
    n = 2
    x = kernel._State.fresh(scn.a, n, len(fs.guns))
    y = kernel._State.fresh(scn.b, n, len(next(iter(scn.b.fire.values())).guns))
    y.shut[1] = True                                      # row 1: the target is shut down
    still = kernel._Move.still(n)
    plan = kernel._declare(scn.a, c, fs, x, y, 0, np.ones(n, bool), np.zeros(n, bool),
                           np.zeros(n, bool), np.zeros(n, np.int64), 9, still, still)
    assert plan.tn[ac].tolist() == [10, 6]                # TMM 0 both; shut down -4 in row 1
    assert plan.fire[ac].tolist() == ([True, True] if policy == "all" else [False, False])
