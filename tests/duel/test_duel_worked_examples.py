"""The worked examples of reference-as-combat section 26 that a duel reproduces, exactly."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from duel_helpers import card, exact

from sim.alphastrike import tables as T
from sim.alphastrike.duel.rules import DuelRules
from sim.alphastrike.duel.sides import _crit_table, build_unit
from sim.alphastrike.duel.turn import damage_level, initial_state

LOCUST, COMMANDO, ATLAS = "Locust LCT-1V", "Commando COM-1B", "Atlas AS7-D"
LOKI, CATAPULT = "Loki (Hellbringer) Prime", "Catapult CPLT-C1"


def close(x: float, y: float | F, tol: float = 1e-12) -> bool:
    return abs(float(x) - float(y)) <= tol


@pytest.mark.parametrize(("kw", "p_a_kill"), [({}, F(7, 12)), ({"moved_a": "still"}, F(13, 18)),
                                               ({"skill_a": 2}, F(5, 6))])
def test_e1_atlas_kills_locust_in_one_turn(kw: dict, p_a_kill: F) -> None:
    ex = exact(a=ATLAS, b=LOCUST, range="short", turns=1, **kw)
    assert close(ex["p_b_destroyed_at"][0], p_a_kill)


def _e2_target(move: int = 20) -> object:
    # a 'Mech with damage values and Move (so Weapon/MP hits take effect), armor 8, structure 4
    return card("E2 target", armor=8, structure=4, damage=(1, 1, 1, 0), move=move,
                tmm=4 if move else 0)


def test_e2_catapult_vs_stationary_target() -> None:
    ex = exact(a=CATAPULT, b=_e2_target(), range="medium", moved_b="still", policy_b="hold",
               turns=80)
    assert close(ex["expected_turns"][0], F(71, 13), 1e-10)
    assert close(ex["p_b_destroyed_by"][3], F(279019, 944784))
    assert close(ex["p_b_destroyed_by"][5], F(3794219, 4782969))
    no_crit = exact(a=CATAPULT, b=_e2_target(), range="medium", moved_b="still",
                    policy_b="hold", turns=80, crits=False)
    assert close(no_crit["expected_turns"][0], F(72, 13), 1e-10)
    # E2 assumes MP hits take effect: on a Move-0 target they would turn into points (20.3
    # item 5), so that rule is off for the immobile variant
    immobile = exact(a=CATAPULT, b=_e2_target(move=0), range="medium", policy_b="hold",
                     turns=80, noeffect_point=False)
    assert close(immobile["expected_turns"][0], F(71, 18), 1e-10)


def test_e5_arm_cancels_the_first_crit() -> None:
    gun = card("Gun", damage=(3, 3, 3, 0), armor=9, structure=9)
    kw = dict(a=gun, b=None, range="short", skill_a=0, policy_b="hold", turns=1)
    # skill 0 at Short vs TMM 2: TN 2, a sure hit of 3 points: 1 armor, 2 structure. The
    # target has damage values and Move, so Weapon/MP hits take effect (no 20.3 item 5 point)
    arm = exact(**{**kw, "b": card("ARM", armor=1, structure=3, damage=(1, 1, 1, 0),
                                   specials="ARM")})
    plain = exact(**{**kw, "b": card("plain", armor=1, structure=3, damage=(1, 1, 1, 0))})
    assert arm["p_b_destroyed_at"][0] == 0
    assert close(plain["p_b_destroyed_at"][0], F(1, 18))


@pytest.mark.parametrize(("spec", "p"), [("CASE", F(19, 648)), ("", F(1, 18)),
                                         ("CASEII", F(1, 36)),
                                         ("CASEP", F(1, 36) + F(1, 36) / 3)])
def test_e6_case_chain(spec: str, p: F) -> None:
    gun = card("Gun", damage=(3, 3, 3, 0), armor=9, structure=9)
    tgt = card("Loki-like", armor=1, structure=4, damage=(4, 4, 4, 0), specials=spec)
    ex = exact(a=gun, b=tgt, range="short", skill_a=0, policy_b="hold", turns=1)
    assert close(ex["p_b_destroyed_at"][0], p)


def test_e7_ams() -> None:
    ex = exact(a=ATLAS, b=LOKI, range="medium")
    assert close(ex["expected_damage_a"][0], F(5, 3))
    ex = exact(a="Awesome AWS-8Q", b=LOKI, range="medium")
    assert close(ex["expected_damage_a"][0], F(5, 4))


def test_e8_overheat_trade_off() -> None:
    def ov_first_turn(heat: np.ndarray, turn: int, state: dict) -> int:
        return 3 if turn == 1 else 0

    ex = exact(a=LOKI, b=ATLAS, range="short", policy_a=ov_first_turn, crits=False)
    assert close(ex["expected_damage_a"][0], F(35, 6))
    assert close(ex["expected_damage_a"][1], F(5, 3))
    never = exact(a=LOKI, b=ATLAS, range="short", crits=False)
    assert close(never["expected_damage_a"][:2].sum(), F(20, 3))


def test_e9_locust_vs_commando() -> None:
    ex = exact(a=LOCUST, b=COMMANDO, range="short")
    assert close(ex["p_win_a"][0], 0.148376526028, 1e-11)
    assert close(ex["p_win_b"][0], 0.783782813126, 1e-11)
    assert close(ex["p_draw"][0], 0.0678406608459, 1e-12)
    assert close(ex["expected_turns"][0], 3.23608429247, 1e-10)
    no = exact(a=LOCUST, b=COMMANDO, range="short", crits=False)
    assert close(no["p_win_a"][0], F(25001585375, 254194901951))
    assert close(no["p_win_b"][0], F(205646914151, 254194901951))
    assert close(no["p_draw"][0], F(23546402425, 254194901951))
    alt = exact(a=LOCUST, b=COMMANDO, range="short", weapon_hit_scale="minus1")
    assert (round(alt["p_win_a"][0], 6), round(alt["p_win_b"][0], 6),
            round(alt["p_draw"][0], 6)) == (0.147830, 0.785095, 0.067075)


def test_e10_crit_distributions() -> None:
    for (cr, ira), want in {
        (False, False): (8, 1, 4, 6, 10, 6, 1),
        (True, False): (11, 3, 4, 6, 8, 4, 0),
        (False, True): (8, 0, 5, 6, 10, 5, 2),
    }.items():
        _, prob = _crit_table(cr, ira)
        # code order: none, ammo, engine, fc, weapon, mp, destroyed (x36)
        assert tuple(round(p * 36) for p in prob) == want
    assert T.CRIT_NAMES == ("none", "ammo", "engine", "fire_control", "weapon", "mp",
                            "destroyed")


def test_e11_weapon_hit_on_a_damage_of_one() -> None:
    u = build_unit(LOCUST, 4)
    st = initial_state(u, 1)
    st["wh"][:] = 1
    assert damage_level(u, st, 0, DuelRules())[0] == 1            # 0*
    assert damage_level(u, st, 0, DuelRules(weapon_hit_scale="minus1"))[0] == 0


def test_e13_atlas_vs_locust() -> None:
    ex = exact(a=ATLAS, b=LOCUST, range="short", turns=60)
    assert close(ex["p_win_a"][0], 0.999993284453, 1e-12)
    assert close(ex["p_win_b"][0], 4.19679290371e-06, 1e-15)
    assert close(ex["p_draw"][0], 2.51875390831e-06, 1e-15)
    assert close(ex["expected_turns"][0], 1.7142941794, 1e-10)
    off = exact(a=ATLAS, b=LOCUST, range="short", turns=60, noeffect_point=False)
    assert close(off["p_win_b"][0], 4.19300531887e-06, 1e-15)
    a22 = exact(a=ATLAS, b=LOCUST, range="short", turns=60, noeffect_point_crit=False)
    assert close(a22["p_win_b"][0], 4.19548968725e-06, 1e-15)


@pytest.mark.parametrize("how", [{"closing": "close", "start_distance": 40},
                                 {"ranges": "long,medium,short"}])
def test_e15_closing_bands(how: dict) -> None:
    # Atlas (6") and Catapult (8") from 40": Long, Medium, then Short (E15). Without crits
    # the Atlas's expected damage per turn shows the band: L 2 at TN 9, M 5 at TN 7, S 5 at 5.
    ex = exact(a=ATLAS, b=CATAPULT, crits=False, **how)
    assert close(ex["expected_damage_a"][0], F(10, 36) * 2)
    assert close(ex["expected_damage_a"][1], F(21, 36) * 5)
    ongoing = 1 - ex["p_end_by"][1]
    assert close(ex["expected_damage_a"][2], F(30, 36) * 5 * ongoing)


def test_e15_hold_band_readings() -> None:
    """20.7 against E15: the Catapult (faster) holds a band. Reading ``own`` (E15: its own
    damage, M 3 > S 2 = L 2) stops at Medium: 26" Long, then 20, 14, 8, 7, 7... Medium.
    Reading ``net`` (20.7: damage dealt minus taken; Long 2 vs 2 at the same TN is 0, Medium
    3 vs 5 and Short 2 vs 5 are worse) keeps Long. Without crits both equal a band script."""
    from sim.alphastrike.duel.model import MODEL
    from sim.alphastrike.duel.scenario import move_distance

    base = dict(a=ATLAS, b=CATAPULT, crits=False, closing="hold-band", start_distance=40)
    scn = MODEL.scenario({**base, "hold_band": "own"})
    assert scn.prefer == (1, 1)   # the Atlas would prefer Medium too; it is not the faster
    d = np.array([40], dtype=np.int16)
    seen = []
    for _ in range(6):
        d = move_distance(d, np.array([6]), np.array([8]), scn)
        seen.append(int(d[0]))
    assert seen == [26, 20, 14, 8, 7, 7]
    assert MODEL.scenario(base).prefer[1] == 2                     # net: Long
    for reading, script in (("own", "long,medium"), ("net", "long")):
        held = exact(**{**base, "hold_band": reading})
        ref = exact(a=ATLAS, b=CATAPULT, crits=False, ranges=script)
        for m in ("p_win_a", "p_win_b", "p_draw", "expected_turns", "expected_damage_a"):
            assert np.allclose(held[m], ref[m], rtol=0, atol=1e-12), (reading, m)
    # close (E15's own sequence) differs from both
    closing = exact(a=ATLAS, b=CATAPULT, crits=False, closing="close")
    assert not np.allclose(closing["p_win_a"], exact(**{**base, "hold_band": "own"})["p_win_a"])
