"""Regressions from the issue-3 review: prone targets, charge movement defaults, exact integer
damage, charge-miss displacement, gyro hits, parameter checks, error wording, unit names and
quirks, JSON shape. Each test names the reference section it checks."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sim.classic import scenario as S
from sim.classic.api import attack, monte_carlo, summarize
from sim.classic.metrics import FALL_LOC_METRICS, METRICS
from sim.classic.model import MODEL
from sim.cli import main
from sim.cli.attack import format_table
from sim.errors import ConfigError
from sim.oracles.classic import run as oracle_run
from sim.units.types import ClassicMech

ARM = frozenset({"shoulder", "upper_arm", "lower_arm", "hand"})
LEG = frozenset({"hip", "upper_leg", "lower_leg", "foot"})
MTF = Path(__file__).resolve().parents[2] / "../shared/data/units/mtf"


def ex(**kw) -> tuple:
    plan = MODEL.scenario(kw)
    return plan, {k: v[0] for k, v in MODEL.exact(plan).items()}


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["attack", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def mech(name: str, tons: int, *, walk: int = 4, jump: int = 0,
         quirks: tuple[str, ...] = (), arms: frozenset = ARM) -> ClassicMech:
    return ClassicMech(name=name, chassis=name, model="X", tons=tons, walk_mp=walk,
                       jump_mp=jump, actuators={"LA": arms, "RA": arms, "LL": LEG, "RL": LEG},
                       quirks=quirks)


@pytest.fixture
def catalog(monkeypatch):
    units = {
        "Jager": mech("Jager", 65, walk=4),  # run 6
        "Hopper": mech("Hopper", 70, walk=4, jump=4, quirks=("rugged_1",)),
        "Cat": mech("Cat", 65, walk=4, jump=4, quirks=("no_arms", "weak_head_1"),
                    arms=frozenset({"shoulder", "upper_arm"})),
    }
    monkeypatch.setattr(S, "_load_unit", lambda field, name: units[name])
    return units


# --- 1. a prone target cannot fall ------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(attack="kick", tons=70, target_prone=True),
    dict(attack="dfa", tons=70, target_prone=True),
    dict(attack="punch", tons=100, tsm=True, target_prone=True, target_level=1),  # 20 points
])
def test_prone_target_makes_no_psr(kw: dict) -> None:
    """Reference 4.1-4.3: a prone 'Mech is already down: no PSR, no fall, no fall damage, in
    the plan, the exact engine, the kernel and the oracle alike."""
    plan, m = ex(**kw)
    assert plan.impossible is None
    assert all(o.target.tns == () for o in plan.outcomes)
    assert m["p_target_falls"] == 0 and m["expected_fall_damage_target"] == 0
    assert all(m[n] == 0 for n in FALL_LOC_METRICS["target"])
    mc = summarize(monte_carlo(MODEL, plan, 20_000, 3))
    assert mc["p_target_falls"] == 0 and mc["expected_fall_damage_target"] == 0
    o = oracle_run(plan.scenario, 3_000, seed=4)
    assert o["p_target_falls"] == 0 and o["expected_fall_damage_target"] == 0
    if kw["attack"] == "dfa":  # the attacker still rolls for its DFA (4.2)
        assert m["p_attacker_falls"] > 0


# --- 2. a charge walks if it can, else runs ----------------------------------------------------
def test_charge_moved_default_from_unit_mp(catalog) -> None:
    """Reference 1.1/1.3: without ``moved`` a unit charge walks when walk MP >= hexes + 1,
    else runs (still impossible if its run MP is short)."""
    p = MODEL.scenario(dict(attack="charge", attacker="Jager", hexes=3, target="Hopper"))
    assert p.scenario.moved == "walk" and p.impossible is None
    p = MODEL.scenario(dict(attack="charge", attacker="Jager", hexes=5, target="Hopper"))
    assert p.scenario.moved == "run" and p.impossible is None
    assert p.target_number == 5 + 2 and p.strikes[0].damage == 33  # seed example 7.2
    p = MODEL.scenario(dict(attack="charge", attacker="Jager", hexes=6))
    assert p.scenario.moved == "run"
    assert "running charge over 6 hexes needs 7 MP" in p.impossible
    assert "runing" not in p.impossible
    p = MODEL.scenario(dict(attack="charge", attacker="Jager", hexes=5, moved="walk"))
    assert "walking charge over 5 hexes needs 6 MP" in p.impossible


def test_charge_seed_example_real_units(capsys) -> None:
    """Seed example (reference 7.2): JagerMech JM6-S charges a Grasshopper over 5 hexes."""
    jm, gh = MTF / "JagerMech JM6-S.mtf", MTF / "Grasshopper GHR-5H.mtf"
    if not (jm.exists() and gh.exists()):
        pytest.skip("shared unit data not present")
    rc, out, _ = cli(capsys, "charge", "--attacker", str(jm), "--hexes", "5", "--target",
                     str(gh), "--json")
    d = json.loads(out)
    assert rc == 0 and d["impossible"] is None and d["params"]["moved"] == "run"
    assert d["damage_on_hit"] == 33


def test_moved_default_documented(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["attack", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "a charge walks, or runs when" in out and "required there" in out


# --- 3. exact conditional damage is exact -------------------------------------------------------
@pytest.mark.parametrize("kw,dmg", [
    (dict(attack="punch", tons=70, target_hexes=18), 7),
    (dict(attack="punch", tons=70, tsm=True, damaged="upper-arm"), 7),
    (dict(attack="kick", tons=65, target_hexes=7, terrain="heavy-woods"), 13),
    (dict(attack="charge", tons=65, hexes=5, target_tons=70, target_hexes=25), 33),
])
def test_exact_conditional_damage_is_integer(kw: dict, dmg: int) -> None:
    """Reference 2: one strike of fixed damage -> damage given a hit is that integer, exactly
    (no float noise such as 6.999999999999999)."""
    _, m = ex(**kw)
    assert m["damage"] == dmg
    assert attack(kw.pop("attack"), **kw)["damage"] == dmg


def test_exact_conditional_damage_sweep() -> None:
    """Reference 2: over every target movement, the conditional punch damage is exactly 7."""
    for h in range(0, 27):
        for terrain in ("clear", "light-woods", "heavy-woods"):
            plan, m = ex(attack="punch", tons=70, target_hexes=h, terrain=terrain)
            if plan.impossible is None:
                assert m["damage"] == 7, (h, terrain, repr(m["damage"]))


# --- 4. a missed charge displaces the charger ---------------------------------------------------
def test_missed_charge_displaces_attacker() -> None:
    """Reference 4.6: a missed charger is placed in the left- or right-front hex."""
    plan, m = ex(attack="charge", tons=70, hexes=3)
    assert m["p_attacker_displaced"] == pytest.approx(1 - m["p_hit"])
    assert m["p_target_displaced"] == pytest.approx(m["p_hit"])
    mc = summarize(monte_carlo(MODEL, plan, 50_000, 9))
    assert abs(mc["p_attacker_displaced"] - m["p_attacker_displaced"]) < 5 * mc[
        "p_attacker_displaced_se"]
    o = oracle_run(plan.scenario, 4_000, seed=2)
    assert o["p_attacker_displaced"] == pytest.approx(1 - o["p_hit"])
    desc = {x.name: x.description for x in METRICS}
    assert "missed charge" in desc["p_attacker_displaced"]
    assert "missed DFA" in desc["p_target_displaced"]


# --- 5. gyro hits count; other repeats are errors -----------------------------------------------
def test_destroyed_gyro_target_always_falls() -> None:
    """Reference 4.2: gyro destroyed (2 hits): +6 and the 'Mech cannot stand (automatic
    fall) -> every PSR it makes fails; one hit is +3."""
    plan, m = ex(attack="kick", tons=70, target_damaged="gyro,gyro")
    assert plan.scenario.target_gyro_hits == 2
    assert m["p_target_falls"] == pytest.approx(m["p_hit"])
    hit = plan.outcomes[1].target
    assert hit.tns == (13,) and hit.pilot_tns == (min(13, 5 + 6),)
    _, one = ex(attack="kick", tons=70, target_damaged="gyro")
    assert 0 < one["p_target_falls"] < one["p_hit"]
    o = oracle_run(plan.scenario, 3_000, seed=5)
    assert o["p_target_falls"] == pytest.approx(o["p_hit"])
    mc = summarize(monte_carlo(MODEL, plan, 20_000, 6))
    assert mc["p_target_falls"] == pytest.approx(mc["p_hit"])


def test_destroyed_gyro_attacker() -> None:
    """Reference 4.2: ``damaged gyro,gyro`` on the attacker: a missed kick is a sure fall."""
    plan, m = ex(attack="kick", tons=70, damaged="gyro,gyro")
    assert plan.scenario.gyro_hits == 2
    assert m["p_attacker_falls"] == pytest.approx(1 - m["p_hit"])
    mc = summarize(monte_carlo(MODEL, plan, 20_000, 7))
    assert mc["p_attacker_falls"] == pytest.approx(1 - mc["p_hit"])


@pytest.mark.parametrize("field,value", [
    ("damaged", "upper-arm,upper-arm"), ("damaged", "hatchet,hatchet"),
    ("target_damaged", "hip,hip"), ("target_damaged", "gyro,gyro,gyro"),
    ("missing", "hand,hand"),
])
def test_repeats_rejected(field: str, value: str) -> None:
    """Only gyro may repeat (2 hits, reference 4.2); anything else listed twice is an error."""
    with pytest.raises(ConfigError) as e:
        S.build({"attack": "punch", "tons": 50, field: value})
    assert e.value.field == field


# --- 6. jobs and hexes --------------------------------------------------------------------------
@pytest.mark.parametrize("argv,needle", [
    (["punch", "--tons", "70", "--jobs", "0", "--trials", "100"], "'jobs'"),
    (["charge", "--tons", "70"], "for a charge"),
    (["punch", "--tons", "70", "--hexes", "3"], "only for a charge"),
    (["dfa", "--tons", "70", "--hexes", "1"], "only for a charge"),
])
def test_jobs_and_hexes_checked(capsys, argv: list[str], needle: str) -> None:
    """--jobs 0 is rejected like ``btsim run``; --hexes is required for, and only for, a
    charge (reference 2: charge damage depends on the hexes moved)."""
    rc, out, err = cli(capsys, *argv)
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and needle in err


def test_hexes_param_only_for_charge() -> None:
    assert MODEL.params(MODEL.scenario({"attack": "punch", "tons": 50}))["hexes"] is None
    assert MODEL.params(MODEL.scenario({"attack": "charge", "tons": 50, "hexes": 4}))[
        "hexes"] == 4


# --- 7. unknown keys ----------------------------------------------------------------------------
def test_unknown_parameter_wording() -> None:
    """An unknown key names itself as the field, on one line."""
    with pytest.raises(ConfigError) as e:
        attack("punch", tons=70, foo=1)
    msg = str(e.value)
    assert e.value.field == "foo" and "\n" not in msg
    assert msg.startswith("The 'foo' parameter is not a parameter of the attack model; "
                          "allowed: attack, tons, piloting,")
    assert "attack parameter" not in msg


# --- 8. unit names and quirks -------------------------------------------------------------------
def test_text_names_units_and_reports_quirks(catalog) -> None:
    """Reference D21: design quirks are not simulated by default and say so in ``notes``."""
    r = attack("punch", attacker="Cat", target="Hopper")
    head = format_table(r).splitlines()[0]
    assert head.startswith("punch by Cat (65 t, piloting 5) at Hopper (70 t, piloting 5)")
    assert r["impossible"] is None
    assert "no_arms" in r["notes"] and "not simulated" in r["notes"]
    assert "rugged_1" in r["notes"]


def test_quirks_option_no_arms(catalog) -> None:
    """Reference D21 with the ``quirks`` option on: a no_arms unit cannot punch (MegaMek);
    kicks are unaffected."""
    r = attack("punch", attacker="Cat", quirks=True)
    assert "no_arms" in r["impossible"]
    assert attack("kick", attacker="Cat", quirks=True)["impossible"] is None
    assert MODEL.scenario({"attack": "punch", "tons": 50}).scenario.rules.quirks is False


def test_real_catapult_quirk_note() -> None:
    cat = MTF / "Catapult CPLT-C1.mtf"
    if not cat.exists():
        pytest.skip("shared unit data not present")
    r = attack("punch", attacker=str(cat))
    assert "no_arms" in r["notes"]


# --- 9. JSON and text shape ---------------------------------------------------------------------
def test_json_rule_options_object_and_indent(capsys) -> None:
    """--json: rule_options is an object (not a JSON string), indented by 2 like heat."""
    rc, out, _ = cli(capsys, "punch", "--tons", "70", "--json")
    assert rc == 0 and out.startswith('{\n  "params": {\n    "')
    d = json.loads(out)
    assert isinstance(d["rule_options"], dict) and d["rule_options"]["quirks"] is False


@pytest.mark.parametrize("extra", [[], ["--trials", "1000"]])
def test_impossible_has_no_metrics(capsys, extra: list[str]) -> None:
    """Reference 1.3: an impossible attack is not made: damage_on_hit and every metric null."""
    rc, out, _ = cli(capsys, "punch", "--tons", "50", "--damaged", "shoulder", "--json", *extra)
    d = json.loads(out)
    assert rc == 0 and d["impossible"] and d["damage_on_hit"] is None
    for m in METRICS:
        if m.name in d:
            assert d[m.name] is None, m.name
    for key in ("expected_damage_by_location", "expected_fall_damage_target_by_location"):
        assert all(v is None for v in d[key].values())
    r = attack("punch", tons=50, damaged="shoulder", flat=True)
    assert all(math.isnan(r[m.name]) for m in METRICS if m.kind != "hist")
    assert r["damage_dist"] is None and np.isnan(r["p_hit"])


def test_impossible_text(capsys) -> None:
    rc, out, _ = cli(capsys, "punch", "--tons", "50", "--damaged", "shoulder")
    lines = out.splitlines()
    assert rc == 0 and lines[1].strip().startswith("impossible: ")
    assert "damage_on_hit" not in out
    p_hit = next(x for x in lines if x.split()[0] == "p_hit")
    assert p_hit.split()[1] == "-"


def test_unprefixed_and_prefixed_same_actuator_is_not_a_repeat():
    """`hand` with --arm left names the left hand, like `left-hand`: allowed together
    (found by the hypothesis sweep); the same literal twice is still an error."""
    import sim
    from sim.errors import ConfigError

    res = sim.attack("punch", tons=50, arm="left", damaged=["hand", "left-hand"])
    assert res["target_number"] == 5 + 1
    with pytest.raises(ConfigError, match="repeats"):
        sim.attack("punch", tons=50, arm="left", damaged=["left-hand", "left-hand"])


def test_limb_rules_table_edges():
    """Reference 1.3 via LIMB_RULES: a destroyed shoulder only costs a push +2 (not
    impossible); a kick is barred by weapons fired from the kicking leg only; a club by
    weapons fired from either arm."""
    import sim

    push = sim.attack("push", tons=50, damaged=["left-shoulder"])
    assert push["impossible"] is None and push["target_number"] == 5 - 1 + 2
    assert sim.attack("kick", tons=50, arm="right", fired="left-leg")["impossible"] is None
    assert "fired" in sim.attack("kick", tons=50, arm="left", fired="left-leg")["impossible"]
    assert "fired" in sim.attack("club", tons=50, fired="left-arm")["impossible"]


def test_tsm_on_a_unit_without_tsm_is_an_error() -> None:
    """Issue 9 audit: --tsm on a catalog unit without TSM must not silently double damage."""
    import pytest

    from sim.api import attack
    from sim.errors import ConfigError

    with pytest.raises(ConfigError, match="tsm"):
        attack("punch", attacker="Hunchback HBK-4G", tsm=True)
    assert attack("punch", tons=55, tsm=True)["damage_on_hit"] == 12   # no unit: the flag rules
