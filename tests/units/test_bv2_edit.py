"""What a change to a design costs (issue 20): ``sim.units.edit`` and ``--edit``."""

from __future__ import annotations

import json

import pytest
from units_helpers import MTF_DIR

import sim.units as U
from sim.cli import main
from sim.units.design.edit import EditError, parse_edits
from sim.units.design.reader import inventory

ATLAS = MTF_DIR / "Atlas AS7-D.mtf"
needs_atlas = pytest.mark.skipif(not ATLAS.is_file(), reason=f"{ATLAS} not found")


@needs_atlas
def test_a_trade_within_the_tonnage_is_priced() -> None:
    d = U.edit(ATLAS, remove=["Medium Laser@LA", "Medium Laser@RA"],
               add=["ISMediumPulseLaser@LA"])
    inv = inventory(d)
    assert [w.spec.slot for w in inv.weapons if w.location == "LA"] == ["ISMediumPulseLaser"]
    assert not [w for w in inv.weapons if w.location == "RA"]
    assert d.name == "Atlas AS7-D [-Medium Laser@LA, -Medium Laser@RA, +ISMediumPulseLaser@LA]" and "weight +0 t" in d.assumed[-1]
    b = U.battle_value(d)
    assert b.bv != U.battle_value(ATLAS).bv
    assert any(w.name == "ISMediumPulseLaser" and w.bv == 48 for w in b.offensive.weapons)


@needs_atlas
def test_one_more_jump_jet_costs_its_bv_and_pv() -> None:
    d = U.edit(ATLAS, jump=+1, tonnage="free")
    b = U.battle_value(d)
    # jump 1: jumping TMM 0 + 1 = 1 < running TMM 2 (DBR unchanged); speed mp 5 + 1 = 6
    assert b.defensive.dbr == U.battle_value(ATLAS).defensive.dbr
    assert b.offensive.speed_mp == 6 and b.bv == 1973
    assert "weight +2 t" in d.assumed[-1]
    assert U.alpha_strike_card(d).fields["jump"] == 2


@needs_atlas
@pytest.mark.parametrize("kw,match", [
    ({"heat_sinks": 1}, "adds 1 t more than it removes"),
    ({"add": ["PPC@HD"], "tonnage": "free"}, "needs 3 critical slot.*HD; 0 free"),
    ({"armor": {"CT": 20}, "tonnage": "free"}, "armor of CT 81 above the maximum 62"),
    ({"remove": ["Small Laser@HD"]}, "no Small Laser in HD"),
    ({"heat_sinks": -11}, "at least 10 heat sinks"),
    ({"jump": 4, "tonnage": "free"}, "jump MP must stay in 0..walk MP"),
    ({"add": ["Flux Capacitor@LT"]}, "not in the price calculators' equipment table"),
    ({"add": ["ISTargeting Computer@LT"], "tonnage": "free"}, "depends on the unit"),
])
def test_edits_that_break_construction_are_refused(kw: dict, match: str) -> None:
    with pytest.raises(EditError, match=match):
        U.edit(ATLAS, **kw)


def test_parse_edits() -> None:
    kw = parse_edits(["heat_sinks=+2", "armor.ct=+2", "armor.CT=1", "remove=PPC@RA",
                      "add=ISERPPC@RA", "tonnage=free"])
    assert kw == {"heat_sinks": 2, "armor": {"CT": 3}, "jump": 0, "remove": ["PPC@RA"],
                  "add": ["ISERPPC@RA"], "tonnage": "free"}
    for bad in ("heat_sinks", "heat_sinks=x", "wings=+2"):
        with pytest.raises(EditError):
            parse_edits([bad])


@needs_atlas
def test_cli_edit_prints_the_cost(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["units", "bv", str(ATLAS), "--edit", "jump=+1", "--edit", "tonnage=free",
               "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and (doc["bv_unedited"], doc["bv"]) == (1897, 1973)
    rc = main(["units", "card", str(ATLAS), "--edit", "heat_sinks=+1"])
    err = capsys.readouterr().err
    assert rc == 2 and "adds 1 t more" in err


def test_change_costs_table(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["units", "costs", "Locust LCT-1V", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert rc == 0 and [r["change"] for r in rows] == ["heat sink +1", "armor +1 t", "jump +1"]
    hs, armor, jump = rows
    # the Locust's 10 heat sinks already cover its 3 heat of weapons: no BV, no PV, no edge
    assert (hs["d_bv"], hs["d_pv"], hs["edge"]) == (0, 0, 0.0)
    # 64 of 69 armor points: one ton buys only 5 more (5 x 2.5 x 1.4 = 17.5 BV)
    assert armor["bv_new"] == 449 and "armor" in armor["note"]
    assert jump["d_pv"] == 1 and 0 <= jump["p_win"] <= 1
