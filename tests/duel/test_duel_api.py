"""``sim.duel``: one door (bit-identical to ``btsim duel --json`` and ``sim.run``), the
Result contract, and the rule options recorded with a run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import sim
from sim import options
from sim.cli import main
from sim.result import Result

A, B = "Commando COM-1B", "Locust LCT-1V"


def test_sim_duel_cli_and_run_are_bit_identical(tmp_path: Path, capsys) -> None:
    res = sim.duel(A, B, range="medium", policy_a="max", trials=3000, seed=7, chunk_size=700)
    assert isinstance(res, Result) and res.mode == "monte-carlo"
    assert main(["duel", A, B, "--range", "medium", "--policy-a", "max", "--trials", "3000",
                 "--seed", "7", "--chunk-size", "700", "--json", "--progress", "never"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli == res.to_dict()                        # exactly the --json object
    assert res["p_win_a"] == cli["p_win_a"] and res["trials"] == 3000
    exp = {"name": "d", "model": "duel", "trials": 3000, "seed": 7,
           "fixed": {"a": A, "b": B, "range": "medium", "policy_a": "max"}}
    run = sim.run(exp, chunk_size=700, progress="never")
    for m in ("p_win_a", "p_win_b", "p_draw", "expected_turns", "p_end", "expected_damage_a"):
        assert np.array_equal(run.frame[m].to_numpy(), res.frame[m].to_numpy()), m
    # a different chunk size gives other bits (the test can fail)
    other = sim.duel(A, B, range="medium", policy_a="max", trials=3000, seed=7, chunk_size=500)
    assert other.to_dict() != res.to_dict()


def test_exact_result_and_metadata() -> None:
    res = sim.duel(A, B, crits=False, ams_floor=0)
    d = res.to_dict()
    assert res.mode == "exact" and d["mode"] == "exact"
    assert set(d) >= {"params", "notes", "p_win_a", "p_win_b", "p_draw", "p_timeout",
                      "expected_turns", "pv_a", "pv_b", "turns"}
    assert set(d["turns"][0]) >= {"turn", "p_end", "p_a_destroyed_by", "p_b_destroyed_by",
                                  "expected_damage_a", "expected_damage_b", "p_shutdown_a",
                                  "p_shutdown_b"}
    assert d["p_win_a"] + d["p_win_b"] + d["p_draw"] + d["p_timeout"] == pytest.approx(1)
    assert d["notes"] == res.notes and res.notes
    opts = res.metadata["options"]
    assert set(opts) == set(options.model_names("duel"))      # every effective option
    assert opts["crits"] is False and opts["ams_floor"] == 0 and opts["hold_band"] == "net"


def test_run_records_every_duel_option(tmp_path: Path) -> None:
    exp = {"name": "dopt", "model": "duel", "trials": 200, "seed": 1,
           "fixed": {"a": A, "b": B, "turns": 3, "stealth_long": 3}}
    sim.run(exp, out=tmp_path, exact_only=True, progress="never")
    meta = json.loads((tmp_path / "dopt" / "metadata.json").read_text())
    sets = meta["rule_sets"]["sets"]
    assert {s["group"] for s in sets} == {"DuelRules", "ASRules"}
    duel_set = next(s for s in sets if s["group"] == "DuelRules")
    assert duel_set["overrides"] == {"stealth_long": 3}
    got = {k for s in sets for k in s["options"]}
    assert got == set(options.model_names("duel"))


def test_rule_errors_are_one_line(capsys) -> None:
    assert main(["duel", A, B, "--rule", "stealth_long=4"]) == 2
    err = capsys.readouterr().err.strip()
    assert "stealth_long" in err and "\n" not in err and "Traceback" not in err
    with pytest.raises(sim.errors.ConfigError, match="crits"):
        sim.duel(A, B, critz=False)
