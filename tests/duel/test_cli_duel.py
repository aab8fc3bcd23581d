"""``btsim duel`` and ``btsim units show --skill``: the JSON contract and bad input."""

from __future__ import annotations

import json

import pytest

from sim.cli import main

TURN_KEYS = {"turn", "p_end", "p_a_destroyed_by", "p_b_destroyed_by", "expected_damage_a",
             "expected_damage_b", "p_shutdown_a", "p_shutdown_b"}
TOP_KEYS = {"params", "notes", "p_win_a", "p_win_b", "p_draw", "p_timeout", "expected_turns",
            "pv_a", "pv_b", "turns"}


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_exact_json(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["duel", "Locust LCT-1V", "Commando COM-1B", "--tactic-a", "stand-and-fire", "--tactic-b", "stand-and-fire", "--json"])
    assert TOP_KEYS <= set(doc)
    assert doc["pv_a"] == 18 and doc["pv_b"] == 17
    assert len(doc["turns"]) == 30 and TURN_KEYS <= set(doc["turns"][0])
    assert abs(doc["p_win_a"] - 0.148376526028) < 1e-11
    assert abs(doc["p_win_a"] + doc["p_win_b"] + doc["p_draw"] + doc["p_timeout"] - 1) < 1e-12
    assert not any(k.endswith("_se") for k in doc)


def test_trials_json_has_se(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["duel", "Locust LCT-1V@3", "Commando COM-1B", "--skill-b", "5",
                         "--ranges", "medium,short", "--turns", "12", "--trials", "2000",
                         "--seed", "3", "--json"])
    for k in ("p_win_a", "p_win_b", "p_draw", "p_timeout", "expected_turns"):
        assert k + "_se" in doc
    assert all(k + "_se" in doc["turns"][0] for k in TURN_KEYS - {"turn"})
    assert len(doc["turns"]) == 12
    assert doc["pv_a"] == 22 and doc["pv_b"] == 15
    assert doc["params"]["range"] == "medium,short"


def test_options_reach_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["duel", "Locust LCT-1V", "Commando COM-1B", "--rule", "crits=false",
                         "--tactic-a", "stand-and-fire", "--tactic-b", "stand-and-fire", "--json"])
    assert abs(doc["p_win_a"] - 25001585375 / 254194901951) < 1e-12
    doc = _json(capsys, ["duel", "Loki (Hellbringer) Prime", "Atlas AS7-D", "--policy-a", "max",
                         "--moved-b", "still", "--terrain-b", "woods", "--range", "medium",
                         "--json"])
    assert doc["params"]["policy_a"] == "max" and doc["params"]["terrain_b"] == "woods"


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "Atlas AS7-D", "Locust LCT-1V"]) == 0
    out = capsys.readouterr().out
    assert "P(A wins)" in out and "PV 52" in out and "REAR" in out


@pytest.mark.parametrize("argv", [
    ["duel", "Atlas AS7-D@8", "Locust LCT-1V"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--skill-b", "-1"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--range", "far"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--ranges", "short,near"],
    ["duel", "", "Locust LCT-1V"],
    ["duel", "Atlas AS7-D,", "Locust LCT-1V"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V,Locust LCT-1V,Locust LCT-1V,Locust LCT-1V,"
     "Locust LCT-1V"],
    ["duel", "Atlsa AS7-D", "Locust LCT-1V"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--rule", "nonsense=1"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--rule", "crits=maybe"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--policy-a", "sometimes"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--moved-a", "jump"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--closing", "retreat"],
    ["duel", "Atlas AS7-D", "Locust LCT-1V", "--seed", "3"],
    ["duel", "Atlas AS7-D,Locust LCT-1V", "Commando COM-1B"],     # force: no exact chain
    ["units", "show", "Atlas AS7-D", "--skill", "8"],
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                         argv: list[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unknown_unit_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "Atlsa AS7-D", "Locust LCT-1V"]) == 2
    assert "did you mean" in capsys.readouterr().err


def test_units_show_skill(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["units", "show", "Atlas AS7-D", "--skill", "2", "--json"])
    assert doc["pv_at_skill"] == 72
    assert main(["units", "show", "Locust LCT-1V", "--skill", "6"]) == 0
    assert "PV at skill 6: 14" in capsys.readouterr().out
