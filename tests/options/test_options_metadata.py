"""Issue 9 "Lost metadata": every run of every model records every effective rule option,
per distinct rule set of its scenarios (results metadata ``rule_sets``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sim
from sim import options, results
from sim.alphastrike.rules import ASRules
from sim.cli import main
from sim.models import get_model


def _meta(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "metadata.json").read_text())


HEAT = {"name": "heat_opt", "model": "heat", "trials": 2000, "seed": 2,
        "fixed": {"ov": 2, "turns": 3, "heat_tmm_threshold": 3}}


def test_heat_override_in_the_experiment_is_recorded(tmp_path: Path) -> None:
    """The reported bug: heat_tmm_threshold=3 used to record only {'rules': ['default']}."""
    sim.run(HEAT, out=tmp_path, exact_only=True)
    rs = _meta(tmp_path / "heat_opt")["rule_sets"]
    assert rs["rules"] == ["default"]
    (opts,) = rs["rule_options"]
    assert opts == {**options.effective(options.build(ASRules)), "heat_tmm_threshold": 3}
    (s,) = rs["sets"]
    assert s["game"] == "alphastrike" and s["group"] == "ASRules" and s["preset"] == "default"
    assert s["overrides"] == {"heat_tmm_threshold": 3} and s["scenarios"] == 1


def test_heat_monte_carlo_and_api_overrides(tmp_path: Path) -> None:
    exp = {**HEAT, "fixed": {"ov": 2, "turns": 3, "rules": "seed"}}
    sim.run(exp, out=tmp_path, rule_overrides={"ht_cap": "1"})
    (s,) = _meta(tmp_path / "heat_opt")["rule_sets"]["sets"]
    assert s["preset"] == "seed" and s["overrides"] == {"ht_cap": 1}
    assert s["options"]["heat_tmm_threshold"] == 3 and s["options"]["water_ov"] == "seed"
    assert exp["fixed"] == {"ov": 2, "turns": 3, "rules": "seed"}  # the caller's dict unchanged


def test_attack_records_each_distinct_rule_set(tmp_path: Path) -> None:
    exp = {"name": "att", "model": "attack", "trials": 1000, "seed": 1,
           "fixed": {"attack": "dfa", "rules": "megamek"},
           "grid": {"tons": [55, 65, 75], "dfa_rounding": ["ceil-product", "floor-then-times-3"]}}
    sim.run(exp, out=tmp_path)
    rs = _meta(tmp_path / "att")["rule_sets"]
    assert rs["rules"] == ["megamek"]
    assert [o["dfa_rounding"] for o in rs["rule_options"]] == ["ceil-product",
                                                               "floor-then-times-3"]
    assert all(set(o) == set(options.model_names("attack")) for o in rs["rule_options"])
    assert [(s["overrides"], s["scenarios"]) for s in rs["sets"]] == [
        ({}, 3), ({"dfa_rounding": "floor-then-times-3"}, 3)]
    assert all(o["punch_min_damage"] == 0 for o in rs["rule_options"])  # the megamek preset


def test_attack_via_btsim_run(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text('name = "a"\nmodel = "attack"\ntrials = 500\n[fixed]\nattack = "punch"\n'
                    'tons = 50\nimmobile_psr = "roll"\n[rule_overrides]\nquirks = true\n')
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "r")]) == 0
    (s,) = _meta(tmp_path / "r" / "a")["rule_sets"]["sets"]
    assert s["overrides"] == {"immobile_psr": "roll", "quirks": True}
    assert s["options"]["immobile_psr"] == "roll"


def test_rule_sets_helper_and_models_without_options() -> None:
    heat = get_model("heat")
    rs = results.rule_sets(heat, [{"ov": 1}, {"ov": 2}, {"ov": 1, "ht_cap": 1}])
    assert [s["scenarios"] for s in rs["sets"]] == [2, 1]
    assert results.rule_sets(get_model("punch-demo"), [{"tons": 50}]) == {}
