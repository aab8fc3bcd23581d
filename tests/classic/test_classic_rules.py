"""Worked examples (seed, reference 7), eligibility, PSRs and every discrepancy option."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sim.classic.api import attack
from sim.classic.exact import exact_metrics
from sim.classic.model import MODEL
from sim.classic.plan import make_plan
from sim.classic.scenario import build
from sim.dice import P_2D6_AT_LEAST


def ex(**kw):
    """Exact metrics (flat, floats) plus the plan."""
    plan = MODEL.scenario(kw)
    m = {k: (v[0] if v.ndim == 1 else v[0]) for k, v in MODEL.exact(plan).items()}
    return plan, m


def p(tn: int) -> float:
    return float(P_2D6_AT_LEAST[max(0, min(14, tn))])


# --- seed worked examples --------------------------------------------------------------------
def test_grasshopper_punch() -> None:
    """Seed / reference 7.1: P5, upper arm destroyed, light woods -> TN 8, damage 3, roll 3 CT."""
    plan, m = ex(attack="punch", tons=70, damaged=["upper-arm"], terrain="light-woods")
    assert plan.target_number == 8
    assert m["p_hit"] == pytest.approx(15 / 36)
    assert m["damage"] == 3
    st = plan.strikes[0]
    from sim.classic import tables as T
    assert T.LOCATIONS[T.PUNCH[st.side, 3]] == "CT"
    # each punch location 1/6 of the hits
    assert m["expected_damage_CT"] == pytest.approx(15 / 36 * 3 / 6)


def test_jagermech_charge() -> None:
    """Seed / reference 7.2: 65 t, 5 hexes -> 33 in groups 5,5,5,5,5,5,3; charger takes 7 and
    PSR +2; the target makes two PSRs (charged, 20+ damage) each at +3 (D19 cumulative)."""
    plan, m = ex(attack="charge", tons=65, hexes=5, target_tons=70)
    st = plan.strikes[0]
    assert st.damage == 33 and st.groups == (5, 5, 5, 5, 5, 5, 3)
    hit = plan.outcomes[1]
    assert hit.self_damage == 7 and hit.self_groups == (5, 2)
    assert hit.target.tns == (5 + 3, 5 + 3)
    assert hit.attacker.tns == (5 + 2,)
    ph = p(plan.target_number)
    assert m["p_target_falls"] == pytest.approx(ph * (1 - p(8) ** 2))
    assert m["p_attacker_falls"] == pytest.approx(ph * (1 - p(7)))
    assert m["expected_self_damage"] == pytest.approx(7 * ph)


def test_d19_own_modifiers() -> None:
    """D19 alternative: each roll only its own trigger (charged +2, 20+ damage +1)."""
    plan, _ = ex(attack="charge", tons=65, hexes=5, target_tons=70, psr_modifiers="own")
    assert plan.outcomes[1].target.tns == (7, 6)


def test_kick_70t() -> None:
    """Reference 7.6: kick 14; one leg actuator 7; both 3; TN 5-2+2+2 = 7; foot +1; a miss
    makes the attacker PSR with its own pre-existing mods (+1 +1 -> TN 7)."""
    assert ex(attack="kick", tons=70)[1]["damage"] == 14
    assert ex(attack="kick", tons=70, damaged="upper-leg")[1]["damage"] == 7
    plan, m = ex(attack="kick", tons=70, damaged="upper-leg,lower-leg")
    assert m["damage"] == 3 and plan.target_number == 7
    miss = plan.outcomes[0]
    assert miss.attacker.tns == (7,) and miss.target.tns == ()
    assert m["p_attacker_falls"] == pytest.approx((1 - p(7)) * (1 - p(7)))
    plan, _ = ex(attack="kick", tons=70, damaged="upper-leg,lower-leg,foot")
    assert plan.target_number == 8


def test_kicked_target_psr() -> None:
    """Reference 4.2: kicked +0 with the target's pre-existing damage."""
    plan, m = ex(attack="kick", tons=50, target_piloting=4, target_damaged="foot")
    assert plan.outcomes[1].target.tns == (5,)


def test_dfa_55t() -> None:
    """Reference 2 / 4.3: DFA 55 t = 17 (groups 5,5,5,2), self 11; missed DFA fall 18 to the
    rear column (groups 5,5,5,3), automatic fall."""
    plan, m = ex(attack="dfa", tons=55)
    assert plan.strikes[0].groups == (5, 5, 5, 2)
    miss = plan.outcomes[0]
    assert miss.attacker.tns == (13,) and miss.attacker.damage == 18
    assert miss.attacker.groups == (5, 5, 5, 3)
    from sim.classic import tables as T
    assert miss.attacker.column == T.SIDE["rear"]
    hit = plan.outcomes[1]
    assert hit.self_damage == 11 and hit.attacker.tns == (9,) and hit.target.tns == (7,)
    ph = p(plan.target_number)
    assert m["p_attacker_falls"] == pytest.approx((1 - ph) + ph * (1 - p(9)))
    assert m["expected_fall_damage_attacker"] == pytest.approx((1 - ph) * 18 + ph * (1 - p(9)) * 6)
    # rear armor only from the rear column: missed-DFA fall damage reaches CTR
    assert m["expected_fall_damage_attacker_CTR"] > 0


def test_dfa_to_hit_and_no_terrain() -> None:
    """Reference 1.1: DFA = P + (P - target P) + 3; D9: no terrain by default."""
    assert ex(attack="dfa", tons=55, target_piloting=3)[0].target_number == 5 + 2 + 3
    assert ex(attack="dfa", tons=55, terrain="heavy-woods")[0].target_number == 8
    assert ex(attack="dfa", tons=55, terrain="heavy-woods", dfa_terrain=True)[0].target_number == 10


def test_dfa_100t_self_damage_20() -> None:
    """DFA by 100 t: self damage 20 -> two attacker PSRs (made DFA +4, 20+ damage +1)."""
    plan, _ = ex(attack="dfa", tons=100)
    assert plan.outcomes[1].self_damage == 20
    assert plan.outcomes[1].attacker.tns == (10, 10)


def test_dfa_prone_target_rear_standard_table() -> None:
    """Reference 1.3 DFA: prone target -2, standard table rear column."""
    plan, m = ex(attack="dfa", tons=55, target_prone=True)
    assert plan.target_number == 8 - 2
    assert m["expected_damage_CTR"] > 0 and m["p_tac"] > 0


def test_charge_to_hit() -> None:
    """Reference 1.1: P5 vs P3 charge starts at 7; walk +1, run +2; TMM and woods apply."""
    assert ex(attack="charge", tons=50, hexes=1, target_piloting=3,
              moved="walk")[0].target_number == 8
    assert ex(attack="charge", tons=50, hexes=1, target_piloting=3, moved="run", target_hexes=5,
              terrain="light-woods")[0].target_number == 7 + 2 + 2 + 1


@pytest.mark.parametrize("kind,base", [("punch", 5), ("kick", 3), ("club", 4), ("hatchet", 4),
                                       ("push", 4)])
def test_base_numbers(kind: str, base: int) -> None:
    """Reference 1.1 base TNs; then +walk/run/jump, TMM, +1 jumped, prone -2, immobile -4."""
    assert ex(attack=kind, tons=50)[0].target_number == base
    assert ex(attack=kind, tons=50, moved="run")[0].target_number == base + 2
    assert ex(attack=kind, tons=50, moved="jump", target_hexes=7,
              target_jumped=True)[0].target_number == base + 3 + 3 + 1
    assert ex(attack=kind, tons=50, target_immobile=True)[0].target_number == base - 4


def test_prone_immobile_stack() -> None:
    """Reference 1.2.2: prone (-2) and immobile (-4) stack (kick, same level)."""
    assert ex(attack="kick", tons=50, target_prone=True,
              target_immobile=True)[0].target_number == 3 - 6


# --- actuators and D4 -------------------------------------------------------------------------
def test_punch_actuators() -> None:
    """Reference 1.3 punch: hand +1, lower +2 and halve, upper +2 and halve."""
    assert ex(attack="punch", tons=70, damaged="hand")[0].target_number == 6
    plan, m = ex(attack="punch", tons=70, damaged="lower-arm")
    assert plan.target_number == 7 and m["damage"] == 3
    plan, m = ex(attack="punch", tons=70, damaged="upper-arm,lower-arm,hand")
    assert plan.target_number == 10 and m["damage"] == 1


@pytest.mark.parametrize("rules,mod", [("default", 3), ("seed", 2), ("megamek", 3)])
def test_d4_missing_hand_and_lower_arm(rules: str, mod: int) -> None:
    """D4: hand and lower arm missing by design: +3 current rules / MegaMek, +2 seed."""
    plan, m = ex(attack="punch", tons=70, missing="lower-arm", rules=rules)
    assert plan.target_number == 5 + mod
    assert m["damage"] == 3
    plan, _ = ex(attack="punch", tons=70, missing="lower-arm", hand_and_lower_arm_missing_mod=2)
    assert plan.target_number == 7


def test_d5_punch_minimum_model() -> None:
    """D5 through the model: 20 t, upper+lower arm destroyed -> 1 (rules) / 0 (MegaMek)."""
    assert ex(attack="punch", tons=20, damaged="upper-arm,lower-arm")[1]["damage"] == 1
    m = ex(attack="punch", tons=20, damaged="upper-arm,lower-arm", rules="megamek")[1]
    assert m["damage"] == 0 and m["damage_dist"][0] == 1.0


def test_club_hatchet_push_actuators() -> None:
    """Reference 1.3: club +2 per upper/lower over both arms; hatchet its arm; push +2 per
    destroyed shoulder (and a destroyed shoulder does not forbid a push)."""
    assert ex(attack="club", tons=50, damaged="left-upper-arm,right-lower-arm,left-lower-arm"
              )[0].target_number == 4 + 6
    assert ex(attack="hatchet", tons=50, arm="left", damaged="left-upper-arm,right-upper-arm"
              )[0].target_number == 4 + 2
    plan, _ = ex(attack="push", tons=50, damaged="left-shoulder,right-shoulder")
    assert plan.impossible is None and plan.target_number == 4 + 4


def test_hatchet_and_club_damage_not_reduced() -> None:
    """Reference 2: club/hatchet W/5, not reduced by actuators; TSM doubles."""
    assert ex(attack="hatchet", tons=45, damaged="upper-arm")[1]["damage"] == 9
    assert ex(attack="club", tons=45, tsm=True)[1]["damage"] == 18


def test_tsm_not_on_charge() -> None:
    """Reference 2: TSM doubles punch/kick/club/hatchet, not charge or DFA."""
    assert ex(attack="charge", tons=50, hexes=2, tsm=True)[1]["damage"] == 10
    assert ex(attack="dfa", tons=50, tsm=True)[1]["damage"] == 15


# --- eligibility -------------------------------------------------------------------------------
@pytest.mark.parametrize("kw,needle", [
    (dict(attack="punch", damaged="shoulder"), "shoulder"),
    (dict(attack="punch", missing="shoulder"), "no shoulder"),
    (dict(attack="punch", fired="right-arm"), "fired"),
    (dict(attack="punch", attacker_prone=True), "prone"),
    (dict(attack="punch", target_prone=True), "prone target"),
    (dict(attack="punch", target_level=-1), "one level lower"),
    (dict(attack="kick", damaged="left-hip"), "hip"),
    (dict(attack="kick", target_level=1), "higher"),
    (dict(attack="club", damaged="left-hand"), "hand"),
    (dict(attack="club", missing="left-hand"), "hand"),
    (dict(attack="club", damaged="right-shoulder"), "shoulder"),
    (dict(attack="club", target_prone=True), "prone"),
    (dict(attack="hatchet", damaged="hatchet"), "hatchet"),
    (dict(attack="hatchet", damaged="hand"), "hand"),
    (dict(attack="push", target_prone=True), "prone"),
    (dict(attack="push", missing="left-shoulder"), "both arms"),
    (dict(attack="push", target_level=1), "elevation"),
    (dict(attack="charge", hexes=1, moved="jump"), "jump"),
    (dict(attack="charge", hexes=1, target_prone=True), "prone"),
    (dict(attack="charge", hexes=1, fired="torso"), "weapons"),
    (dict(attack="dfa", moved="run"), "jump"),
    (dict(attack="dfa", target_prone=True, target_level=-1, attacker_prone=True), "prone"),
    (dict(attack="punch", damaged="upper-arm,lower-arm,hand", moved="jump"), "13 or more"),
])
def test_impossible(kw: dict, needle: str) -> None:
    """Reference 1.3 restrictions: impossible with a reason, zero metrics, never a raise."""
    plan, m = ex(tons=50, **kw)
    assert plan.impossible is not None and needle in plan.impossible
    assert m["p_hit"] == 0 and m["expected_damage"] == 0 and math.isnan(m["damage"])
    assert m["p_attacker_falls"] == 0 and m["damage_dist"][0] == 1.0


def test_impossible_tn_keeps_target_number() -> None:
    """TN >= 13 (reference 0): the fact keeps the computed number."""
    plan, _ = ex(tons=50, attack="punch", damaged="upper-arm,lower-arm,hand", moved="jump")
    assert plan.target_number == 13


@pytest.mark.parametrize("level,kind,ok", [(0, "kick", True), (0, "dfa", True),
                                           (0, "punch", False), (1, "punch", True),
                                           (1, "club", True), (1, "hatchet", True),
                                           (1, "kick", False), (-1, "dfa", True),
                                           (-1, "kick", False)])
def test_prone_target_levels(level: int, kind: str, ok: bool) -> None:
    """Reference 1.3: attacks allowed on a prone 'Mech by relative level (BMM 7th printing)."""
    plan, _ = ex(tons=50, attack=kind, target_prone=True, target_level=level)
    assert (plan.impossible is None) == ok


def test_kick_prone_uses_standard_table() -> None:
    """Reference 1.3: kicks against a prone 'Mech use the normal 2D6 table (TAC possible)."""
    assert ex(tons=50, attack="kick", target_prone=True)[1]["p_tac"] > 0
    assert ex(tons=50, attack="kick")[1]["p_tac"] == 0


def test_elevation_tables() -> None:
    """Reference 2.2: punch at a target one level higher -> kick table (legs only); kick at a
    standing target one level lower -> punch table (head possible)."""
    m = ex(tons=50, attack="punch", target_level=1)[1]
    assert m["expected_damage_LL"] + m["expected_damage_RL"] == pytest.approx(m["expected_damage"])
    assert ex(tons=50, attack="kick", target_level=-1)[1]["p_head_hit"] > 0


# --- two-arm punches -------------------------------------------------------------------------
def test_two_arm_punch() -> None:
    """Reference 1.3: each arm rolls separately (two to-hit rolls, two locations)."""
    plan, m = ex(attack="punch", tons=60, arm="both", damaged="left-upper-arm")
    assert plan.target_number_left == 7 and plan.target_number_right == 5
    assert plan.target_number == 5
    pl, pr = p(7), p(5)
    assert m["p_hit"] == pytest.approx(1 - (1 - pl) * (1 - pr))
    assert m["expected_hits"] == pytest.approx(pl + pr)
    assert m["expected_damage"] == pytest.approx(pl * 3 + pr * 6)
    assert m["damage_dist"][9] == pytest.approx(pl * pr)


def test_two_arm_punch_one_arm_impossible() -> None:
    """A destroyed shoulder drops that arm with a note; the other arm still punches."""
    plan, m = ex(attack="punch", tons=60, arm="both", damaged="left-shoulder")
    assert plan.impossible is None and "left shoulder" in plan.notes[0]
    assert plan.target_number_left is None
    assert m["expected_hits"] == pytest.approx(p(5))


def test_two_arm_tsm_punch_20_damage_psr() -> None:
    """Reference 4.2: 20+ damage in the phase -> target PSR +1 (two TSM punches of 100 t)."""
    plan, _ = ex(attack="punch", tons=100, arm="both", tsm=True)
    assert plan.outcomes[3].target.tns == (6,)
    assert plan.outcomes[1].target.tns == (6,)  # one TSM punch of 100 t is 20 already


# --- PSR pre-existing damage --------------------------------------------------------------------
def test_hip_ignores_rest_of_leg_and_gyro() -> None:
    """Reference 4.2 example: hip +2 (lower leg in the same leg ignored) + gyro +3."""
    from sim.classic.psr import preexisting_mod
    assert preexisting_mod({("left", "hip"), ("left", "lower-leg")}, 1) == 5
    assert preexisting_mod({("left", "hip"), ("right", "lower-leg")}, 0) == 3
    assert preexisting_mod({("left", "upper-leg"), ("left", "foot")}, 0) == 2
    plan, _ = ex(attack="kick", tons=50, target_damaged="left-hip,left-lower-leg,gyro")
    assert plan.outcomes[1].target.tns == (10,)


def test_pushed_psr_and_displacement() -> None:
    """Reference 4.6: push hit -> target PSR +0 and displaced; prohibited terrain: nobody
    moves but the PSR still happens."""
    plan, m = ex(attack="push", tons=50)
    assert plan.outcomes[1].target.tns == (5,)
    assert m["p_target_displaced"] == pytest.approx(m["p_hit"])
    plan, m = ex(attack="push", tons=50, displacement_prohibited=True)
    assert m["p_target_displaced"] == 0 and m["p_target_falls"] > 0


def test_mutual_push() -> None:
    """Reference 4.6 mutual push: both hit -> nobody moves, both PSR; one hits -> normal."""
    plan, m = ex(attack="push", tons=50, mutual_push=True, target_piloting=4)
    both = plan.outcomes[3]
    assert not both.target_displaced and not both.attacker_displaced
    assert both.target.tns == (4,) and both.attacker.tns == (5,)
    assert plan.outcomes[2].attacker_displaced and plan.outcomes[1].target_displaced
    pa, pt = p(4), p(3)
    assert m["p_attacker_displaced"] == pytest.approx((1 - pa) * pt)


@pytest.mark.parametrize("rules,psr", [("default", True), ("seed", True), ("megamek", False)])
def test_d8_charge_psr_without_displacement(rules: str, psr: bool) -> None:
    """D8: charge into prohibited displacement: seed -> PSRs happen; MegaMek -> none."""
    _, m = ex(attack="charge", tons=50, hexes=3, rules=rules, displacement_prohibited=True)
    assert (m["p_target_falls"] > 0) == psr
    assert m["p_target_displaced"] == 0


@pytest.mark.parametrize("rule,want", [("tw", 5 + 0), ("megamek", 5 + 3)])
def test_d10_pilot_damage_after_fall(rule: str, want: int) -> None:
    """D10: pilot roll after a fall: TW Piloting + pre-existing + levels; MegaMek the failed
    PSR's TN (here the cumulative +3)."""
    plan, _ = ex(attack="charge", tons=65, hexes=5, target_tons=70, fall_pilot_damage=rule)
    assert plan.outcomes[1].target.pilot_tns == (want, want)


@pytest.mark.parametrize("rule,want", [("tw", 5 + 1 + 2), ("megamek", 5 + 1 + 1)])
def test_d10_missed_dfa_pilot(rule: str, want: int) -> None:
    """D10: missed DFA (2 levels): TW +2 levels; MegaMek pre-existing + 1."""
    plan, _ = ex(attack="dfa", tons=50, damaged="left-foot", fall_pilot_damage=rule)
    assert plan.outcomes[0].attacker.pilot_tns == (want,)


def test_immobile_target_pilot_damage_automatic() -> None:
    """Reference 4.3: an immobile 'Mech's pilot takes the fall damage automatically."""
    plan, _ = ex(attack="kick", tons=50, target_immobile=True)
    assert plan.outcomes[1].target.pilot_tns == (13,)


@pytest.mark.parametrize("mod", [3, 1])
def test_d7_partial_cover_push(mod: int) -> None:
    """D7: partial cover: push +3 (MegaMek) or +1; other attacks +1."""
    assert ex(attack="push", tons=50, target_partial_cover=True,
              partial_cover_push_mod=mod)[0].target_number == 4 + mod
    assert ex(attack="punch", tons=50, target_partial_cover=True)[0].target_number == 6


@pytest.mark.parametrize("table,loc", [("punch", "expected_damage_HD"),
                                       ("kick", "expected_damage_LL")])
def test_d11_club_aimed(table: str, loc: str) -> None:
    """D11: club aimed at the punch/kick table costs +4; default standard table."""
    plan, m = ex(attack="club", tons=50, club_table=table)
    assert plan.target_number == 4 + 4
    assert m[loc] > 0
    assert ex(attack="club", tons=50)[0].target_number == 4


def test_d16_option_through_model() -> None:
    """D16: 18 target hexes -> +5 (TW) or +4 (old)."""
    assert ex(attack="punch", tons=50, target_hexes=18)[0].target_number == 10
    assert ex(attack="punch", tons=50, target_hexes=18, tmm_table="old")[0].target_number == 9


def test_tac_option() -> None:
    """Reference 3.2: TAC on a 2 (on by default; the option turns it off)."""
    assert ex(attack="club", tons=50)[1]["p_tac"] == pytest.approx(p(4) / 36)
    assert ex(attack="club", tons=50, tac=False)[1]["p_tac"] == 0


def test_head_destroyed() -> None:
    """Issue 6 metric: a fresh head (12) needs 12+ to the head; a 5-point group can't; a
    12-point club to the head can; several charge groups can."""
    assert ex(attack="club", tons=55)[1]["p_head_destroyed"] == 0
    assert ex(attack="club", tons=60)[1]["p_head_destroyed"] == pytest.approx(p(4) / 36)
    assert ex(attack="dfa", tons=100)[1]["p_head_destroyed"] > 0  # 3 head groups of 5
    assert ex(attack="punch", tons=100, tsm=True)[1]["p_head_destroyed"] == pytest.approx(p(5) / 6)


def test_rule_facts_recorded() -> None:
    """Results record the rule set and the effective options (issue 3)."""
    facts = MODEL.facts(MODEL.scenario({"attack": "punch", "tons": 50, "rules": "seed"}))
    assert facts["rules"] == "seed"
    assert json.loads(facts["rule_options"])["hand_and_lower_arm_missing_mod"] == 2


def test_api_matches_model() -> None:
    """sim.attack returns the same exact numbers, nested by location."""
    r = attack("punch", tons=70, damaged=["upper-arm"], terrain="light-woods")
    assert r["target_number"] == 8 and r["mode"] == "exact"
    assert set(r["expected_damage_by_location"]) == {"HD", "CT", "LT", "RT", "LA", "RA", "LL",
                                                     "RL", "CTR", "LTR", "RTR"}
    flat = attack("punch", tons=70, flat=True)
    assert "expected_damage_HD" in flat


def test_unknown_key_config_error() -> None:
    """Unknown grid keys -> ConfigError naming the key and listing allowed keys."""
    from sim.errors import ConfigError
    with pytest.raises(ConfigError, match="bogus") as e:
        build({"attack": "punch", "tons": 50, "bogus": 1})
    assert "target_tons" in str(e.value)


def test_exact_is_repeatable() -> None:
    """The exact path is a pure function of the plan (its speed is measured by ``btsim
    bench``, not asserted here: no test depends on how fast the machine is)."""
    plan = make_plan(build({"attack": "charge", "tons": 65, "hexes": 5}))
    first = exact_metrics(plan)
    again = exact_metrics(plan)
    assert first.keys() == again.keys()
    for k in first:
        np.testing.assert_array_equal(first[k], again[k])
