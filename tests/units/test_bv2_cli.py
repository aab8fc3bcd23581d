"""``btsim units bv|card|check`` and ``units show --json``'s computed prices (issue 20)."""

from __future__ import annotations

import json

import pytest
from units_helpers import MTF_DIR, SHARED_UNITS, needs_shared

from sim.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_units_bv_prints_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "units", "bv", "Atlas AS7-D")
    assert rc == 0
    assert "  heat efficiency 6 + 20 - 2 = 24" in out
    assert "DBR + OBR = 1897.1 cockpit x 1.0 = 1897.1 -> BV 1897" in out
    assert "MUL (btsim's BV catalog): 1897 -> equal" in out


def test_units_bv_json_and_skill(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "units", "bv", "Atlas AS7-D", "--json", "--gunnery", "3",
                      "--piloting", "4")
    doc = json.loads(out)
    assert rc == 0 and doc["bv"] == 1897 and doc["bv_at_skill"] == round(1897 * 1.32)
    assert doc["steps"][-1].endswith("BV 1897")


def test_units_bv_rule_option_and_bad_rule(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "units", "bv", "Atlas AS7-D", "--json", "--rule",
                      "bv_heat_cutoff=within")
    assert rc == 0 and json.loads(out)["bv"] < 1897
    rc, _, err = _run(capsys, "units", "bv", "Atlas AS7-D", "--rule", "bv_heat_cutoff=maybe")
    assert rc == 2 and "bv_heat_cutoff" in err and "crossing-full" in err
    rc, _, err = _run(capsys, "units", "bv", "Atlas AS7-D", "--rule", "nonsense=1")
    assert rc == 2 and "bv_masc_run" in err


def test_units_card_beside_the_mul_card(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "units", "card", "Catapult CPLT-C1")
    assert rc == 0
    assert "every field equal" in out
    assert "factor 0.6818" in out and "PV 32" in out
    rc, out, _ = _run(capsys, "units", "card", "Catapult CPLT-C1", "--rule",
                      "asc_hidden_specials=show")
    assert "field(s) differ (*)" in out and "SOA" in out


def test_units_card_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "units", "card", "Locust LCT-1V", "--json", "--skill", "3")
    doc = json.loads(out)
    assert rc == 0 and doc["pv"] == 18 and doc["pv_at_skill"] == 18 + 4 and doc["differs"] == []
    assert doc["source"] == "converted"


def test_units_show_json_computed(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = _run(capsys, "units", "show", "Loki (Hellbringer) Prime", "--json")
    doc = json.loads(out)
    assert rc == 0 and doc["bv_computed"] == 2654 and doc["pv_computed"] == 45


@needs_shared
def test_units_check_lists_disagreements(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    rc, out, _ = _run(capsys, "units", "check", str(MTF_DIR), "--mul",
                      str(SHARED_UNITS / "mul_mechs.csv"))
    assert rc == 0
    assert "no disagreement with the MUL" in out
    assert "BV exact 14/14" in out and "PV exact 14/14" in out and "cards exact 14/14" in out
    # a file edited away from its MUL record is reported with the step
    src = (MTF_DIR / "Locust LCT-1V.mtf").read_text(encoding="utf-8")
    (tmp_path / "Locust.mtf").write_text(src.replace("walk mp:8", "walk mp:6"), "utf-8")
    rc, out, _ = _run(capsys, "units", "check", str(tmp_path), "--mul",
                      str(SHARED_UNITS / "mul_mechs.csv"), "--cards",
                      str(SHARED_UNITS / "alphastrike.csv"))
    assert "Locust LCT-1V: BV" in out and "card move 12 vs alphastrike.csv 16 (step: 2.2" in out


def test_units_check_refuses_a_missing_folder(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = _run(capsys, "units", "check", "/nonexistent/folder")
    assert rc == 2 and "expected a folder" in err
