"""Edited units in the simulations (issue 20): ``edit`` / ``edit_a`` / ``edit_b`` model
parameters, ``--edit`` on ``btsim fire``, ``profile`` and ``duel``, and the change-costs
numbers (:mod:`sim.units.costs`)."""

from __future__ import annotations

import json

import pytest

import sim
import sim.units
from sim.cli import main
from sim.errors import UserError
from sim.experiment import load, validate_all
from sim.units.costs import edit_of_label, split_label
from sim.units.edited import edit_unit, edited_card

FREE = "tonnage=free"


def test_edit_unit_changes_what_the_simulation_reads() -> None:
    base = edit_unit("Hunchback HBK-4G", None)
    m = edit_unit("Hunchback HBK-4G", f"heat_sinks=+2; armor.LL=+2; {FREE}")
    assert m.name == "Hunchback HBK-4G [+2 heat sinks, +2 armor LL]"
    assert m.heat_sinks == base.heat_sinks + 2
    assert m.armor["LL"] == base.armor["LL"] + 2
    assert m.bv is not None and m.bv_source == "computed for the edited design"
    m = edit_unit("Hunchback HBK-4G", ["remove=Small Laser@HD", "add=ISMediumLaser@HD", FREE])
    assert [w.weapon for w in m.weapon_mounts if w.location == "HD"] == ["IS Medium Laser"]


def test_fire_and_duels_play_the_edited_unit() -> None:
    doc = sim.fire("Awesome AWS-8Q", edit=f"heat_sinks=+3; {FREE}", turns=3).to_dict()
    base = sim.fire("Awesome AWS-8Q", turns=3).to_dict()
    assert doc["params"]["unit"] == "Awesome AWS-8Q [+3 heat sinks]"
    assert doc["dissipation"] == base["dissipation"] + 3
    assert doc["turns"][-1]["mean_heat"] < base["turns"][-1]["mean_heat"]
    d = sim.duel("Locust LCT-1V", "Locust LCT-1V (converted)", edit_a=f"armor_tons=+1; {FREE}",
                 range="short", tactic_a="stand-and-fire", tactic_b="stand-and-fire",
                 progress=False).to_dict()
    card = edited_card("Locust LCT-1V", f"armor_tons=+1; {FREE}")
    assert d["params"]["a"].startswith("Locust LCT-1V [+1 t armor]")
    assert d["pv_a"] == card.pv and card.source == "converted (edited)"
    c = sim.classic_duel("Locust LCT-1V", "Locust LCT-1V", edit_b=f"jump=+1; {FREE}",
                         trials=200, progress="never").to_dict()
    assert c["params"]["unit_b"] == "Locust LCT-1V [+1 jump MP]"
    assert c["bv_b"] > c["bv_a"]


@pytest.mark.parametrize("argv,flag", [
    (["fire", "Atlas AS7-D", "--edit", "wings=+2"], "--edit 'wings=+2'"),
    (["profile", "Atlas AS7-D", "--edit", "heat_sinks=+1"], "--edit 'heat_sinks=+1'"),
    (["duel", "Atlas AS7-D", "Atlas AS7-D", "--edit-b", "jump=x"], "--edit-b 'jump=x'"),
    (["duel", "--game", "classic", "Atlas AS7-D", "Atlas AS7-D", "--edit", "jump=+9"],
     "--edit 'jump=+9'"),
])
def test_bad_edit_is_one_line_naming_the_flag(argv: list[str], flag: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"btsim: error: {flag}") and "\n" not in err


def test_cli_edit_names_the_unit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fire", "Locust LCT-1V", "--edit", "jump=+1", "--edit", FREE, "--turns",
                 "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["params"]["unit"] == "Locust LCT-1V [+1 jump MP]"


def test_grid_edit_is_validated_from_the_declaration() -> None:
    exp = load({"name": "e", "model": "fire", "trials": 10,
                "fixed": {"unit": "Locust LCT-1V", "turns": 2},
                "grid": {"edit": ["", f"heat_sinks+1; {FREE}", "wings=+1"]}})
    with pytest.raises(UserError, match="edit 'wings=.1'"):
        validate_all([exp])


def test_labels_read_back() -> None:
    assert split_label("Atlas AS7-D [+1 t armor]") == ("Atlas AS7-D", "+1 t armor")
    assert split_label("Atlas AS7-D") == ("Atlas AS7-D", "")
    assert edit_of_label("+2 heat sinks, +1 jump MP") == ["heat_sinks=+2", "jump=+1", FREE]
    assert edit_of_label("-Small Laser@HD, +4 armor CT") == ["remove=Small Laser@HD",
                                                             "armor.CT=+4", FREE]


def test_edits_that_do_not_fit_are_refused() -> None:
    with pytest.raises(UserError, match="only 9 more point"):
        edit_unit("Hunchback HBK-4G", f"armor=+100; {FREE}")
    with pytest.raises(UserError, match="no edit item"):
        edit_unit("Hunchback HBK-4G", ";;")
    m = sim.units.edit_unit("Hunchback HBK-4G", f"armor_tons=+1; {FREE}")
    assert "9 of its 16 points fit" in m.notes[-1]
    exp = load({"name": "d", "model": "duel", "trials": 10,
                "fixed": {"a": "Locust LCT-1V,Locust LCT-1V", "b": "Locust LCT-1V"},
                "grid": {"edit_a": ["", f"jump=+1; {FREE}"]}})
    with pytest.raises(UserError, match="edit_a"):
        validate_all([exp])


def test_change_cost_table_arithmetic() -> None:
    import math

    import pandas as pd

    from sim.units.costs import Z95, change_cost_table

    f = pd.DataFrame({"unit_a": ["Locust LCT-1V", "Locust LCT-1V [+1 t armor]"],
                      "unit_b": ["Locust LCT-1V"] * 2, "p_win_a": [0.45, 0.60],
                      "p_win_b": [0.45, 0.30], "p_win_a_n": [1000.0, 1000.0],
                      "expected_turns": [3.0, 3.5], "expected_turns_ci_low": [2.9, 3.3],
                      "expected_turns_ci_high": [3.1, 3.7]})
    t = change_cost_table(f).set_index("change")
    assert list(t.loc["+1 t armor", ["turns_lo", "turns", "turns_hi"]]) == [3.3, 3.5, 3.7]
    assert math.isnan(change_cost_table(f.drop(columns="expected_turns_ci_low"))["turns_lo"][0])
    se = math.sqrt((0.9 - 0.3 ** 2) / 1000)
    assert t.loc["+1 t armor", "edge"] == pytest.approx(0.3)
    assert t.loc["+1 t armor", "edge_hi"] == pytest.approx(0.3 + Z95 * se)
    base_se = math.sqrt(0.9 / 1000)
    assert t.loc["+1 t armor", "gain_lo"] == pytest.approx(0.3 - Z95 * math.hypot(se, base_se))
    assert math.isnan(t.loc["unchanged", "gain"])
    row = t.loc["+1 t armor"]
    assert row["d_bv"] > 0 and row["bv_per_gain"] == pytest.approx(row["d_bv"] / 3)


@pytest.mark.parametrize("argv", [
    ["fire", "Locust LCT-1V"], ["profile", "Locust LCT-1V"],
    ["duel", "Locust LCT-1V", "Locust LCT-1V"],
    ["duel", "--game", "classic", "Locust LCT-1V", "Locust LCT-1V"],
    ["units", "show", "Locust LCT-1V"], ["units", "bv", "Locust LCT-1V"],
    ["units", "card", "Locust LCT-1V"],
])
def test_edit_is_repeatable_everywhere(argv: list[str]) -> None:
    from sim.cli import build_parser
    args = build_parser(argv[0]).parse_args([*argv, "--edit", "jump=+1", "--edit", FREE])
    assert args.edit == ["jump=+1", FREE]
    assert edit_unit(argv[-1], args.edit) == edit_unit(argv[-1], f"jump=+1; {FREE}")


@pytest.mark.parametrize("action", ["show", "bv", "card"])
def test_units_edit_repeated_is_the_joined_edit(action: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for edits in (["--edit", "heat_sinks=+1", "--edit", FREE],
                  ["--edit", f"heat_sinks=+1; {FREE}"]):
        assert main(["units", action, "Hunchback HBK-4G", *edits, "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    assert main(["units", action, "Hunchback HBK-4G", "--edit", "heat_sinks=+1"]) == 2
    assert "--edit 'heat_sinks=+1'" in capsys.readouterr().err


def test_units_show_edit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["units", "show", "Hunchback HBK-4G", "--json"]) == 0
    base = json.loads(capsys.readouterr().out)
    assert main(["units", "show", "Hunchback HBK-4G", "--edit", f"armor_tons=+1; {FREE}",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["name"] == "Hunchback HBK-4G [+1 t armor]" and doc["edited"] is True
    assert sum(doc["classic"]["armor"].values()) == sum(base["classic"]["armor"].values()) + 9
    assert doc["bv_unedited"] == base["bv_computed"] and doc["bv_computed"] > base["bv_computed"]
    assert doc["alphastrike"]["name"] == doc["name"]
    assert doc["pv_computed"] == doc["alphastrike"]["pv"]
    assert main(["units", "show", "Hunchback HBK-4G", "--edit", f"armor_tons=+1; {FREE}"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Hunchback HBK-4G [+1 t armor]\n")
    assert f"BV {base['bv_computed']} -> {doc['bv_computed']}" in text
