"""``btsim attack`` CLI contract (issue 3): bad input, --json shape, text table."""

from __future__ import annotations

import json

import pytest

from sim.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["attack", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv,option", [
    (["punch", "--tons", "73"], "tons"),
    (["punch", "--tons", "15"], "tons"),
    (["punch", "--tons", "105"], "tons"),
    (["punch", "--tons", "70", "--piloting", "9"], "piloting"),
    (["punch", "--tons", "70", "--piloting", "-1"], "piloting"),
    (["punch", "--tons", "70", "--target-piloting", "9"], "target_piloting"),
    (["punch", "--tons", "70", "--damaged", "elbow"], "damaged"),
    (["punch", "--tons", "70", "--missing", "gyro"], "missing"),
    (["charge", "--tons", "70", "--hexes", "0"], "hexes"),
    (["kick", "--tons", "70", "--arm", "both"], "arm"),
    (["punch", "--tons", "70", "--rules", "tw"], "rules"),
    (["punch", "--tons", "70", "--rule", "dfa_rounding=round"], "dfa_rounding"),
    (["punch", "--tons", "70", "--terrain", "swamp"], "terrain"),
    (["punch", "--tons", "seventy"], "tons"),
])
def test_bad_input_exit_2_one_line(capsys, argv: list[str], option: str) -> None:
    """Issue 3 'Bad input': exit 2, one line on stderr naming the option and what is allowed."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "must be" in lines[0]


def test_json_shape_exact(capsys) -> None:
    """--json: one object, metric names, location keys nested, no _se without --trials."""
    rc, out, _ = run(capsys, "punch", "--tons", "70", "--damaged", "upper-arm", "--terrain",
                     "light-woods", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["target_number"] == 8 and d["impossible"] is None and d["damage"] == 3
    for k in ("p_hit", "expected_damage", "p_head_hit", "p_tac", "self_damage",
              "expected_self_damage", "p_target_falls", "p_attacker_falls",
              "expected_fall_damage_target", "expected_fall_damage_attacker", "damage_dist"):
        assert k in d
    assert list(d["expected_damage_by_location"]) == ["HD", "CT", "LT", "RT", "LA", "RA", "LL",
                                                       "RL", "CTR", "LTR", "RTR"]
    assert not any(k.endswith("_se") for k in d)
    assert abs(sum(d["damage_dist"]) - 1) < 1e-12
    assert d["rules"] == "default" and d["rule_options"]["punch_min_damage"] == 1


def test_json_shape_mc(capsys) -> None:
    """--trials: every float metric also gets <name>_se; locations nested with _se."""
    rc, out, _ = run(capsys, "charge", "--tons", "65", "--hexes", "5", "--target-tons", "70",
                     "--trials", "20000", "--seed", "1", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["mode"] == "monte-carlo" and d["trials"] == 20000
    for k in ("p_hit", "damage", "expected_damage", "p_target_falls"):
        assert isinstance(d[k + "_se"], float)
    assert set(d["expected_damage_by_location_se"]) == set(d["expected_damage_by_location"])
    assert d["damage"] == 33


def test_json_impossible_nan_is_null(capsys) -> None:
    """Impossible: reason in 'impossible', NaN conditionals as null (strict JSON)."""
    rc, out, _ = run(capsys, "punch", "--tons", "50", "--damaged", "shoulder", "--json")
    d = json.loads(out)
    assert rc == 0 and "shoulder" in d["impossible"] and d["damage"] is None
    assert d["p_hit"] is None and d["damage_on_hit"] is None and d["damage_dist"] is None
    assert all(v is None for v in d["expected_damage_by_location"].values())


def test_text_table(capsys) -> None:
    """Without --json: a readable table with the facts and metrics."""
    rc, out, _ = run(capsys, "kick", "--tons", "70", "--damaged", "upper-leg,lower-leg")
    assert rc == 0
    assert out.startswith("kick by a 70 t 'Mech")
    assert "target_number" in out and " 7" in out
    assert "expected_damage_by_location" in out and "damage_dist" in out


def test_text_table_mc_has_se(capsys) -> None:
    rc, out, _ = run(capsys, "punch", "--tons", "50", "--trials", "5000", "--seed", "2")
    assert rc == 0 and "5000 trials" in out
    # one convention for every text output (issue 18): value (95% interval), said in the head
    assert "(95% interval)" in out and "±" not in out and "–" in out


def test_rule_override_option(capsys) -> None:
    """--rule OPTION=VALUE overrides one ClassicRules field (D18 here)."""
    rc, out, _ = run(capsys, "dfa", "--tons", "55", "--rule", "dfa_rounding=ceil-then-times-3",
                     "--json")
    assert rc == 0 and json.loads(out)["damage"] == 18
