"""``btsim units`` (issue 5): listing, --filter, --json shape, ``show`` for names and files,
user errors as one stderr line with exit status 2."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from units_helpers import MTF_DIR, SHARED_UNITS, mtf_text, needs_shared

from sim.cli import main
from sim.units.catalog import get_classic


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_units_table(capsys) -> None:
    rc, out, err = _run(capsys, "units")
    assert rc == 0 and err == ""
    assert "Atlas AS7-D" in out and "Loki (Hellbringer) Prime" in out
    assert "AMS,CASE,ECM,OMNI,PRB,RCN" in out


def test_units_filter(capsys) -> None:
    rc, out, _ = _run(capsys, "units", "--filter", "LOKI")
    assert rc == 0
    body = [ln for ln in out.splitlines()[1:] if ln.strip() and not ln.startswith("3 units")]
    assert len(body) == 3 and all("Loki" in ln for ln in body)
    rc, out, _ = _run(capsys, "units", "--filter", "no such unit")
    assert rc == 0 and "no catalog or imported unit matches" in out


def test_units_json_shape(capsys) -> None:
    rc, out, _ = _run(capsys, "units", "--json", "--filter", "hellbringer")
    assert rc == 0
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 3
    prime = next(d for d in data if d["name"] == "Loki (Hellbringer) Prime")
    assert prime["classic"] is True and prime["alphastrike"] is True
    assert (prime["tons"], prime["as_ov"], prime["as_pv"], prime["as_move"]) == (65, 3, 45,
                                                                                '10"')
    loki_a = next(d for d in data if d["name"] == "Loki (Hellbringer) A")
    assert loki_a["classic"] is False and loki_a["tons"] is None
    rc, out, _ = _run(capsys, "units", "--json", "--filter", "zzz")
    assert rc == 0 and json.loads(out) == []


def test_units_show_text(capsys, tmp_path) -> None:
    rc, out, _ = _run(capsys, "units", "show", "Hatchetman HCT-3F")
    assert rc == 0
    assert "physical weapons: hatchet (RA)" in out
    assert "PV 20" in out  # issue 9: every canonical 'Mech has its own card now
    path = tmp_path / "No Card.mtf"
    path.write_text(mtf_text(replace(get_classic("Hatchetman HCT-3F"), mul_id=None)))
    rc, out, _ = _run(capsys, "units", "show", str(path))
    assert rc == 0 and "source: converted" in out  # issue 20: converted from the file
    rc, out, _ = _run(capsys, "units", "show", "timber wolf prime")
    assert "LA actuators: shoulder, upper_arm, lower_arm (missing: hand)" in out
    rc, out, _ = _run(capsys, "units", "show", "Assassin")
    assert rc == 0 and "Classic: no data" in out and "IF0*,JMPW1" in out


GOLIATH = SHARED_UNITS / "corpus" / "Goliath GOL-1H.mtf"


@pytest.mark.skipif(not GOLIATH.is_file(), reason=f"corpus file not found: {GOLIATH}")
def test_units_show_a_quads_front_legs(capsys) -> None:
    """A quad's front legs (stored as LA/RA) are shown with their leg actuators, not as
    arms missing every actuator."""
    rc, out, _ = _run(capsys, "units", "show", str(GOLIATH))
    assert rc == 0 and "LA (front leg) actuators: hip, upper_leg, lower_leg, foot\n" in out
    assert "RA (front leg) actuators: hip, upper_leg, lower_leg, foot\n" in out
    assert "shoulder" not in out


@pytest.mark.parametrize("argv", [("units", "show", "Hellbringer Prime", "--json"),
                                  ("units", "--json", "show", "Hellbringer Prime")])
def test_units_show_json(capsys, argv) -> None:
    rc, out, _ = _run(capsys, *argv)
    assert rc == 0
    data = json.loads(out)
    assert set(data) == {"name", "classic", "alphastrike", "bv", "bv_source", "pv",
                         "pv_source", "bv_computed", "pv_computed"}
    assert (data["bv"], data["bv_source"], data["pv"], data["pv_source"]) == (
        2654, "MUL record 1929", 45, "MUL record 1929")  # issue 19
    assert data["classic"]["simulated"] == "complete"
    assert data["name"] == "Loki (Hellbringer) Prime"
    assert data["classic"]["actuators"]["LA"] == ["shoulder", "upper_arm"]
    assert data["classic"]["internal"]["CT"] == 21 and data["classic"]["case"] == ["CT", "RT"]
    assert data["alphastrike"]["ov"] == 3 and "CASE" in data["alphastrike"]["specials"]
    assert data["alphastrike"]["damage"] == ["4", "4", "4", "0"]


def test_units_show_file(capsys, tmp_path: Path) -> None:
    path = tmp_path / "Catapult.mtf"
    path.write_text(mtf_text(get_classic("Catapult CPLT-C1")))
    rc, out, _ = _run(capsys, "units", "show", str(path), "--json")
    assert rc == 0
    data = json.loads(out)
    assert data["classic"]["source"] == str(path) and "slots" in data["classic"]
    assert data["alphastrike"]["pv"] == 32  # catalog card found by the file's MUL id


@needs_shared
def test_units_show_shared_file(capsys) -> None:
    rc, out, _ = _run(capsys, "units", "show", str(MTF_DIR / "Atlas AS7-D.mtf"))
    assert rc == 0 and "armor total 304" in out and "PV 52" in out


@pytest.mark.parametrize("argv,needle", [
    (("units", "show", "atlas"), "ambiguous"),
    (("units", "show", "Zeus ZEU-6S"), "unknown unit 'Zeus ZEU-6S'"),
    (("units", "show", "missing.mtf"), "missing.mtf: expected a readable .mtf file"),
])
def test_units_errors_one_line_exit_2(capsys, argv, needle) -> None:
    rc, out, err = _run(capsys, *argv)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("btsim: error: ") and needle in err


def test_units_malformed_file_exit_2(capsys, tmp_path: Path) -> None:
    """Issue 5 bad input through the CLI: file name and line number on one stderr line."""
    text = mtf_text(get_classic("Atlas AS7-D")).replace("walk mp:3", "walk mp:three")
    path = tmp_path / "Bad.mtf"
    path.write_text(text)
    line = text.split("\n").index("walk mp:three") + 1
    rc, _, err = _run(capsys, "units", "show", str(path))
    assert rc == 2
    assert err == (f"btsim: error: Bad.mtf:{line}: expected an integer walk MP, "
                   "got 'three'\n")


def test_units_usage_errors(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["units", "show"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["units", "frobnicate"])
    assert info.value.code == 2
