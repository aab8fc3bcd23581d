"""Physical attacks and movement of the classic duel (reference.md 1-4; reference-classic-
combat.md 13.1, 14.3): hatchet, push, charge, DFA, the 'best' choice, MP from damage."""

from __future__ import annotations

import numpy as np
import pytest
from classic_duel_helpers import HBK, WVR

from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import SampleChooser
from sim.classic.duel import kernel as K
from sim.classic.duel import physical as ph
from sim.classic.duel.scenario import build
from sim.errors import ConfigError

HCT = "Hatchetman HCT-3F"
N = 64


def _setup(params: dict) -> tuple:
    scn = build({"range": 1, **params})
    comp = [K.compile_side(s) for s in scn.sides]
    xs = [K._State.fresh(s, N, len(next(iter(s.fire.values())).guns)) for s in scn.sides]
    fss = [s.fire[(1, scn.moves[0][0], scn.moves[0][1])] for s in scn.sides]
    return scn, comp, xs, fss


def _choose(scn, comp, xs, fss, i: int = 0, mine=None, theirs=None, stage="physical",
            declared=None, fired=None):
    s = scn.sides
    mine = mine or K._Move.still(N)
    theirs = theirs or K._Move.still(N)
    return K._choose_physical(s[i], comp[i], xs[i], s[1 - i], xs[1 - i], np.ones(N, bool),
                              mine, theirs,
                              np.zeros((8, N), bool) if fired is None else fired, fss[i],
                              scn.physical_rules, stage, declared)


def _points(S: np.ndarray) -> np.ndarray:
    return S[:, st.ARMOR0:st.ARMOR0 + st.N_ARMOR].sum(axis=1) + S[:, st.IS0:st.IS0 + 8].sum(
        axis=1)


def test_hatchet_damage_and_target_number() -> None:
    scn, comp, xs, fss = _setup({"unit_a": HCT, "unit_b": HBK})
    p = _choose(scn, comp, xs, fss)
    # floor(45 / 5) = 9 at Piloting 5 - 1 (reference.md 1.1, 2), not halved by actuators
    assert (p.dmg[ph.HATCHET] == 9).all()
    assert (p.tn[ph.HATCHET] == 4).all()
    ua = int(scn.a.act["upper_arm"][lay.RA])
    xs[0].S[:, st.HIT0 + lay.RA] |= ua
    p = _choose(scn, comp, xs, fss)
    assert (p.tn[ph.HATCHET] == 6).all() and (p.dmg[ph.HATCHET] == 9).all()


def test_best_picks_the_hatchet_when_adjacent() -> None:
    scn, comp, xs, fss = _setup({"unit_a": HCT, "unit_b": HBK})
    # fresh: the kick (TN 3, 9 points and a knock-down) is worth more than the hatchet (TN 4,
    # 9 x 33/36 = 8.25), and two punches (2 x 5 x 30/36 = 8.33) edge it out too
    p = _choose(scn, comp, xs, fss)
    assert (p.kind == ph.KICK).all()
    assert p.value[ph.HATCHET][0] == pytest.approx(9 * 33 / 36)
    # the left arm fired its laser and a hip is hit (no kick): the hatchet is best
    fired = np.zeros((8, N), bool)
    fired[lay.LA] = True
    xs[0].S[:, st.HIT0 + lay.LL] |= int(scn.a.act["hip"][lay.LL])
    assert (_choose(scn, comp, xs, fss, fired=fired).kind == ph.HATCHET).all()
    # the hatchet destroyed (a critical on its slots): the right arm punches
    item = scn.a.hatchet[0]
    xs[0].S[:, st.HIT0 + lay.RA] |= int(scn.a.layout.item_masks[item, lay.RA])
    assert (_choose(scn, comp, xs, fss, fired=fired).kind == ph.PUNCH).all()


def test_no_punch_or_hatchet_at_a_prone_target_same_level() -> None:
    scn, comp, xs, fss = _setup({"unit_a": HCT, "unit_b": HBK})
    xs[1].prone[:] = True
    p = _choose(scn, comp, xs, fss)
    assert (p.punch_tn == 13).all() and (p.tn[ph.HATCHET] == 13).all()
    assert (p.tn[ph.PUSH] == 13).all()
    assert (p.kick_tn == 5 - 2 - 2).all()     # kick at -2 (prone target)


def test_charge_damages_both_sides() -> None:
    scn, comp, xs, fss = _setup({"unit_a": HBK, "unit_b": WVR, "moved_a": "run"})
    mine = K._Move(np.full(N, 6), np.full(N, 2), np.zeros(N, bool), np.full(N, 2))
    p = _choose(scn, comp, xs, fss, mine=mine, declared=np.full(N, ph.CHARGE))
    assert (p.kind == ph.CHARGE).all()
    # TN: 5 + (5 - 5) + 0 + run 2 = 7; damage ceil(50 x 5 / 10) = 25: of the 6 hexes run,
    # the last is the target's hex, which does not count (reference.md 2)
    assert (p.tn[ph.CHARGE] == 7).all() and (p.dmg[ph.CHARGE] == 25).all()
    p.tn[ph.CHARGE][:] = 2                      # always hits
    a0, b0 = _points(xs[0].S), _points(xs[1].S)
    res = K._resolve_physical(np.random.default_rng(1), scn.a, comp[0], xs[0], scn.b, xs[1],
                              p, SampleChooser(np.random.default_rng(2)))
    # every group lands, unless a rare through-armor critical destroys the target first
    # (a cockpit or an ammunition explosion ends the damage: 14.5)
    standing = xs[1].S[:, st.CAUSE] == st.C_NONE
    assert standing.mean() > 0.9
    assert (b0 - _points(xs[1].S) == 25)[standing].all()
    assert (a0 - _points(xs[0].S) == 6).all()   # ceil(55 / 10)
    assert (res["t_mod"] == 2).all() and (res["s_mod"] == 2).all()


def test_missed_dfa_is_a_two_level_fall() -> None:
    scn, comp, xs, fss = _setup({"unit_a": WVR, "unit_b": HBK, "moved_a": "jump"})
    mine = K._Move(np.full(N, 5), np.full(N, 3), np.ones(N, bool), np.full(N, 5))
    p = _choose(scn, comp, xs, fss, mine=mine, declared=np.full(N, ph.DFA))
    assert (p.kind == ph.DFA).all()
    assert (p.dmg[ph.DFA] == 17).all()          # ceil(3 x 55 / 10) (D18)
    assert (p.tn[ph.DFA] == 5 + 3).all()
    p.tn[ph.DFA][:] = 13                        # never hits
    a0 = _points(xs[0].S)
    K._resolve_physical(np.random.default_rng(1), scn.a, comp[0], xs[0], scn.b, xs[1], p,
                        SampleChooser(np.random.default_rng(2)))
    assert xs[0].prone.all() and xs[0].fell.all()
    lost = a0 - _points(xs[0].S)                # ceil(55 / 10) x 3, reference.md 4.3
    assert (lost >= 18).all() and (lost == 18).mean() > 0.8   # (+ limbs blown off by crits)


def test_hip_crit_halves_walking_mp_and_heat_lowers_it() -> None:
    assert ph.walk_mp(5, np.array([0]), np.array([1]), np.array([0]), np.array([0]))[0] == 3
    assert ph.walk_mp(5, np.array([0]), np.array([1]), np.array([0]), np.array([0]),
                      "floor")[0] == 2
    assert ph.walk_mp(5, np.array([0]), np.array([2]), np.array([0]), np.array([0]))[0] == 0
    assert ph.walk_mp(5, np.array([1]), np.array([0]), np.array([0]), np.array([0]))[0] == 1
    assert ph.walk_mp(5, np.array([0]), np.array([0]), np.array([2]), np.array([10]))[0] == 1
    scn, comp, xs, fss = _setup({"unit_a": WVR, "unit_b": HBK, "moved_a": "run"})
    xs[0].S[:, st.HIT0 + lay.RL] |= int(scn.a.act["hip"][lay.RL])
    walk, run, jump = K._current_mp(scn.a, xs[0], scn.physical_rules)
    assert (walk == 3).all() and (run == 5).all() and (jump == 5).all()
    mv = ph.move_of("run", walk, run, jump)
    assert (mv[0] == 5).all() and (mv[1] == 2).all()
    # the opponent's TMM follows: 5 hexes -> +2 instead of 8 hexes -> +3
    assert (K.tmm_of(K._Move(mv[0], mv[1], mv[2], mv[1]), "tw") == 2).all()


def test_declared_charge_gives_up_weapon_fire() -> None:
    scn = build({"unit_a": HBK, "unit_b": WVR, "range": 1, "moved_a": "run", "turns": 1,
                 "physical_a": lambda d: np.where(d["stage"] == "declare", ph.CHARGE,
                                                  ph.NONE)})
    out = K.run_block(scn, None, np.random.default_rng(5), 400)
    dealt = out["dealt"][0, 0]
    # only charge damage: 0 (miss) or ceil(50 x 5 / 10) = 25 (6 hexes run, the target's
    # hex not counted)
    assert set(np.unique(dealt)) <= {0, 25} and (dealt == 25).any()


def test_options_are_validated() -> None:
    with pytest.raises(ConfigError):
        build({"unit_a": HBK, "unit_b": WVR, "duel_attacks": "everything"})
    scn = build({"unit_a": HBK, "unit_b": WVR, "duel_attacks": "punch-kick"})
    assert scn.physical_rules.duel_attacks == "punch-kick"


def test_best_holds_the_arm_laser_to_swing_the_hatchet() -> None:
    scn, comp, xs, fss = _setup({"unit_a": HCT, "unit_b": HBK})
    xs[0].S[:, st.HIT0 + lay.LL] |= int(scn.a.act["hip"][lay.LL])      # no kick
    still = [K._Move.still(N), K._Move.still(N)]
    act = np.ones(N, bool)
    hact = np.zeros(N, np.int64)
    plans = [K._declare(scn.sides[i], comp[i], fss[i], xs[i], xs[1 - i], 0, act,
                        np.zeros(N, bool), np.zeros(N, bool), hact, 1, still[i], still[1 - i])
             for i in range(2)]
    ra = [g for g, gun in enumerate(fss[0].guns) if gun.location == "RA"]
    other = [g for g, gun in enumerate(fss[0].guns) if gun.location != "RA"]
    assert ra and plans[0].fire[ra].all()
    before = plans[0].fire[other].copy()
    declared = K._declare_physical(np.random.default_rng(0), scn, comp, xs, fss, plans, still,
                                   [act, act])
    assert not declared[0].any()
    # a medium laser (5 x P(hit)) is worth less than the hatchet it frees (9 x P(hit))
    assert not plans[0].fire[ra].any()
    assert (plans[0].fire[other] == before).all()
