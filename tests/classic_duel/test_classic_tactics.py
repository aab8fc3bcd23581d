"""Classic duel tactics (issue 22): initiative, movement chosen per turn, the first mover's
maximin and the second mover's best response, the engine against the scalar oracle, and the
Mad Cat Prime that no longer shuts itself down."""

from __future__ import annotations

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR, unarmed

from sim.classic.duel import tactics as TC
from sim.classic.duel.scenario import build
from sim.errors import ConfigError


def test_roll_off_loser_moves_first_and_ties_are_rerolled() -> None:
    seq = iter([2, 3, 6, 6])            # A 5, B 12: A lost, A moves first
    assert TC.roll_off(lambda: next(seq)) is True
    seq = iter([4, 4, 3, 5, 1, 1, 1, 2])    # 8 = 8 re-rolled; then A 2, B 3
    assert TC.roll_off(lambda: next(seq)) is True
    seq = iter([6, 6, 1, 1])
    assert TC.roll_off(lambda: next(seq)) is False


def test_engine_initiative_tape() -> None:
    """The engine's roll-off on taped 2D6 (tape value v -> 2 + v % 6 + v // 6 % 6): the lower
    total moves first, a tie is rolled again; rule 1 / 2: side 0 / 1 always wins."""
    from sim.classic.engine import dice
    from sim.classic.engine.tactics import initiative

    assert initiative(dice.dice_array(np.array([0, 35], np.uint64)), 0) == 0     # 2 < 12
    assert initiative(dice.dice_array(np.array([35, 0], np.uint64)), 0) == 1
    assert initiative(dice.dice_array(np.array([7, 7, 1, 0], np.uint64)), 0) == 1  # 4=4; 3>2
    assert initiative(dice.dice_array(np.zeros(0, np.uint64)), 1) == 1
    assert initiative(dice.dice_array(np.zeros(0, np.uint64)), 2) == 0


def test_key_layout_matches_the_engine() -> None:
    from sim.classic.engine import tactics as ET

    assert (ET.TAG, ET.D_BITS, ET.UNIT_BITS) == (TC.TAG, TC.D_BITS, TC.UNIT_BITS)
    s0 = {"act": 1, "mover": 1, "prone": 0, "heat": 17, "walk": 5, "run": 8, "jump": 3,
          "guns": 0b101101}
    s1 = {"act": 0, "mover": 0, "prone": 1, "heat": 40, "walk": 0, "run": 0, "jump": 0,
          "guns": 0}
    d, first, state = TC.split_key(TC.make_key(9, True, s0, s1))
    a, b = TC.unpack_state(state)
    assert (d, first, a) == (9, True, s0)
    assert b == {**s1, "heat": 31}      # capped to its bits
    assert TC.make_key(99, False, {**s0, "walk": 99}, {**s1, "guns": 63}) < 2 * TC.TAG


def test_weapon_classes_of_the_key() -> None:
    """Identical weapons are one class of the key, the most damaging first; a lost class
    takes its guns out of the payoff."""
    scn = build({"unit_a": "Catapult CPLT-C1", "unit_b": WVR, "range": 6, "turns": 1})
    gc = TC.weapon_classes(scn.a)
    guns = next(iter(scn.a.fire.values())).guns
    lrm = [g for g, gun in enumerate(guns) if "LRM" in gun.name]
    assert len(lrm) == 2 and gc[lrm[0]] == gc[lrm[1]] >= 0
    assert len(set(gc.tolist())) == 2         # LRM-15s and medium lasers
    from sim.classic.engine.compile import compile_scenario, start_key

    plan = compile_scenario(scn).table.planner
    _, _, state = TC.split_key(start_key(scn))
    s0, s1 = TC.unpack_state(state)
    assert s0["guns"] == TC.all_classes(gc)
    full = plan.payoffs(s0, s1)[1]
    no_lrm = plan.payoffs({**s0, "guns": s0["guns"] & ~(1 << int(gc[lrm[0]]))}, s1)[1]
    assert full[0, 0, 6] > no_lrm[0, 0, 6] > 0       # the lasers still reach 6 hexes


@pytest.mark.parametrize("d,h,top", [(5, 3, 9), (1, 4, 6), (6, 6, 6), (3, 0, 8), (2, 9, 4)])
def test_a_move_reaches_every_distance_in_its_window(d: int, h: int, top: int) -> None:
    """A move of h hexes from d reaches exactly [d-h, d+h] within [1, start]: the tactics'
    candidates and the engine's clip of a planned distance agree."""
    from sim.classic.engine.tactics import clip_move

    want = set(range(max(d - h, 1), min(d + h, top) + 1))
    assert set(TC.reach_set(d, h, top).tolist()) == want
    for target in range(0, top + 4):
        got = clip_move(target, d, h, top)
        assert got in want
        if target in want:
            assert got == target
    v = _view(np.zeros((4, 4, top + 1)), d=d, first=False, reach=(0, h, -1, -1), dmax=top)
    assert {nd for m, nd, _ in TC.candidates(v) if m == 1} == want


def _view(q: np.ndarray, *, d: int, first: bool, reach: tuple[int, ...] = (0, 1, -1, -1),
          opp_reach: tuple[int, ...] = (0, 1, -1, -1), opp_mode: int = -1,
          dmax: int = 3) -> TC.View:
    w = TC.worst_case(q, np.array(opp_reach), dmax)
    return TC.View(d=d, first=first, reach=np.array(reach), opp_reach=np.array(opp_reach),
                   q=q, dealt=np.zeros_like(q), taken=np.zeros_like(q), opp_mode=opp_mode,
                   moved=0, dmax=dmax, worst=w, worst_rows=w.tolist(), q_rows=q.tolist())


def test_first_mover_maximin_and_second_best_response_by_hand() -> None:
    """Distances 1..3, each side stands (0 hexes) or walks 1. Own payoff q[own, enemy, r]:

    own stand: vs stand (r=1, 2, 3) = (5, 1, 0), vs walk = (4, 0, 3)
    own walk:  vs stand = (2, 2, 2), vs walk = (3, 1, 2)

    Moving first from d=2: standing keeps 2 and the enemy then picks from 1..3 (walking) or
    2 (standing): worst min(4, 0, 3, 1) = 0; walking to 1: the enemy reaches 1..2: worst
    min(2, 2, 3, 1) = 1; walking to 3: min(2, 2, 1, 2) = 1 (walk to 2: min(2,2,2,3,1,2) = 1).
    Maximin = 1, ties to the smaller change of distance: walk, stay at 2. Second, the enemy
    having walked, at 1: own stand r=1 gives 4, walk to 2 gives 1, walk to 1 gives 3: stand."""
    q = np.zeros((4, 4, 4))
    q[0, 0, 1:] = (5, 1, 0)
    q[0, 1, 1:] = (4, 0, 3)
    q[1, 0, 1:] = (2, 2, 2)
    q[1, 1, 1:] = (3, 1, 2)
    assert TC.competent(_view(q, d=2, first=True)) == (1, 2)
    assert TC.competent(_view(q, d=1, first=False, opp_mode=1)) == (0, 1)
    # brute force of the maximin value, and stage() for A moving first
    best = max(min(q[m, om, d2] for om in (0, 1) for d2 in TC.reach_set(d1, om, 3))
               for m in (0, 1) for d1 in TC.reach_set(2, m, 3))
    assert best == 1.0
    v = TC.stage(q, np.array([0, 1, -1, -1]), np.array([0, 1, -1, -1]), 3, True)
    assert v[2] == best


def test_tactic_parameters_are_validated() -> None:
    p = {"unit_a": HBK, "unit_b": WVR, "range": 6, "turns": 2}
    assert [t.name for t in build(p).tactics] == ["competent", "competent"]
    assert build(p).free
    assert not build({**p, "tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}).free
    with pytest.raises(ConfigError, match="tactic_a"):
        build({**p, "tactic_a": "rush"})
    with pytest.raises(ConfigError, match="tactic_b"):
        build({**p, "ranges": "6,3", "tactic_b": "sniper"})
    with pytest.raises(ConfigError, match="moved_a"):
        build({**p, "moved_a": "walk", "tactic_a": "competent"})
    # a movement mode given imposes the movement: stand-and-fire by default
    assert not build({**p, "moved_b": "walk"}).free
    closing = build({"unit_a": HBK, "unit_b": WVR, "closing": True, "turns": 2})
    assert [t.name for t in closing.tactics] == ["stand-and-fire"] * 2


def _shut_by(scn, n: int, seed: int, turn: int) -> float:
    from sim.classic.engine import sampler

    out = sampler.run(scn, np.random.default_rng(seed), n)
    s = out["shut_turn"][0]
    return float(np.mean((s > 0) & (s <= turn)))


def test_mad_cat_prime_competent_rarely_shuts_down_by_turn_two() -> None:
    """Issue 22: standing and firing everything, the Mad Cat Prime shuts down by turn 2
    almost surely; competent keeps P(shut down by turn 2) under 0.05."""
    base = {"unit_a": "Mad Cat (Timber Wolf) Prime", "unit_b": "Atlas AS7-D", "range": 6,
            "turns": 2}
    p = _shut_by(build(base), 1500, 3, 2)
    assert p + 1.96 * np.sqrt(max(p, 1e-3) * (1 - p) / 1500) < 0.05
    old = _shut_by(build({**base, "tactic_a": "stand-and-fire",
                          "tactic_b": "stand-and-fire"}), 500, 3, 2)
    assert old > 0.5


@pytest.mark.parametrize("rule", ["roll", "a"])
def test_engine_matches_oracle_under_competent(rule: str) -> None:
    """Competent against competent, initiative rolled (ties re-rolled) or always A's: the
    engine's joint (winner, end turn) histogram and causes against the scalar oracle's."""
    from test_classic_duel_oracle import _compare

    _compare({"unit_a": HBK, "unit_b": WVR, "range": 6, "duel_initiative": rule}, 500, 6000,
             T=6)


def test_engine_matches_oracle_against_an_unarmed_target() -> None:
    """Competent against an unarmed Hunchback, which the Wolverine closes on and kicks: the
    damage A deals (weapons and physical attacks, the engine's ``dealt``, the oracle's
    ``damage``) within 4.5 SE; the oracle's weapon damage alone is well below it (comparing
    that with the engine's ``dealt``, which counts the kicks, made a false oracle gap)."""
    from test_classic_duel_oracle import _sampled

    from sim.oracles.classic_duel import scalar

    p = {"unit_a": WVR, "unit_b": unarmed(HBK), "range": 3, "turns": 6}
    no, nk = 300, 3000
    o = scalar(p, np.random.default_rng(21), no)
    k = _sampled(build(p), np.random.default_rng(22), nk)["dealt"][0].sum(axis=0)
    total, fire = o["damage"][0].astype(float), o["weapon_damage"][0].astype(float)
    se = np.sqrt(total.var() / no + k.var() / nk)
    assert abs(total.mean() - k.mean()) <= 4.5 * se, (total.mean(), k.mean(), se)
    assert (total >= fire).all()
    assert total.mean() - fire.mean() > 4.5 * (total - fire).std() / np.sqrt(no)


def test_every_named_tactic_plays() -> None:
    """Each named tactic runs on the engine against competent, seeded and reproducible."""
    from sim.classic.engine import sampler

    for t in TC.NAMES:
        scn = build({"unit_a": HBK, "unit_b": WVR, "range": 8, "turns": 4, "tactic_a": t})
        a = sampler.run(scn, np.random.default_rng(5), 300)
        b = sampler.run(build({"unit_a": HBK, "unit_b": WVR, "range": 8, "turns": 4,
                               "tactic_a": t}), np.random.default_rng(5), 300)
        assert np.array_equal(a["dead_turn"], b["dead_turn"])
        assert a["range"][0].max() <= 8 and a["range"][0][a["range"][0] > 0].min() >= 1
    charge = sampler.run(build({"unit_a": HBK, "unit_b": WVR, "range": 8, "turns": 1,
                                "tactic_a": "charge", "tactic_b": "charge"}),
                         np.random.default_rng(1), 200)
    assert (charge["range"][0] == 1).all()     # both run in: 6 + 9 hexes close 8
