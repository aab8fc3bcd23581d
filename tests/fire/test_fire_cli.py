"""``btsim fire`` / ``btsim profile``: the JSON contract of issue 11 and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fire_helpers import MTF_DIR, needs_shared

from sim.cli import main

ROOT = Path(__file__).resolve().parents[2]
HBK = "Hunchback HBK-4G"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_fire_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "fire", HBK, "--range", "3", "--moved", "run", "--turns", "5",
                     "--json")
    assert rc == 0
    doc = json.loads(out)
    assert set(doc) >= {"params", "notes", "weapons", "turns"}
    assert doc["mode"] == "exact"
    assert doc["params"]["gunnery"] == 4 and doc["params"]["policy"] == "all"
    for w in doc["weapons"]:
        assert {"name", "location", "rear"} <= set(w)
        assert ("reason" in w) or {"target_number", "p_hit", "expected_damage"} <= set(w)
    assert [t["turn"] for t in doc["turns"]] == [1, 2, 3, 4, 5]
    for t in doc["turns"]:
        assert {"expected_damage", "expected_cumulative_damage", "mean_heat", "p_heat",
                "p_shutdown", "p_shutdown_by", "p_ammo_explosion_by"} <= set(t)
        assert abs(sum(t["p_heat"].values()) - 1) < 1e-9
    assert doc["turns"][4]["mean_heat"] == 15                    # example 9
    assert abs(doc["turns"][4]["p_shutdown"] - 1 / 12) < 1e-12


def test_fire_json_monte_carlo_has_se(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "fire", HBK, "--ranges", "3,6", "--policy", "neutral",
                     "--turns", "3", "--trials", "3000", "--seed", "1", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["mode"] == "monte-carlo" and doc["trials"] == 3000
    t = doc["turns"][0]
    for m in ("expected_damage", "expected_cumulative_damage", "mean_heat", "p_shutdown",
              "p_shutdown_by", "p_ammo_explosion_by"):
        assert m + "_se" in t
    assert "p_heat_se" in t
    assert doc["params"]["ranges"] == [3, 6, 6]


def test_fire_table_and_rule(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "fire", HBK, "--rule", "tacops_shutdown=true", "--turns", "2")
    assert rc == 0 and "exact" in out.splitlines()[0]


@pytest.mark.parametrize("argv", [
    ["fire", "No Such Mech"],
    ["fire", HBK, "--range", "0"],
    ["fire", HBK, "--ranges", "3,0"],
    ["fire", HBK, "--policy", "sometimes"],
    ["fire", HBK, "--policy", "below:x"],
    ["fire", HBK, "--moved", "fly"],
    ["fire", HBK, "--rule", "nonsense=1"],
    ["fire", HBK, "--rule", "uac_jam=sometimes"],
    ["fire", HBK, "--seed", "3"],
    ["fire", HBK, "--moved", "jump"],
    ["profile", "No Such Mech"],
    ["profile", HBK, "--policy", "nope"],
])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                         argv: list[str]) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unknown_weapon_is_named() -> None:
    """Issue 19: a weapon the table lacks never fires; the unit is incomplete and the
    result's first note names the weapon."""
    from dataclasses import replace

    from sim.api import fire
    from sim.units.catalog import get_classic
    from sim.units.types import WeaponMount

    base = get_classic(HBK)
    mech = replace(base, weapon_mounts=(*base.weapon_mounts,
                                        WeaponMount("Phaser Bank", None, "RA", line=42)))
    res = fire(mech, turns=1, progress=False)
    assert res.notes[0].startswith(f"{base.name} is incomplete: not simulated: weapon Phaser "
                                   "Bank (RA): never fires")
    plain = fire(base, turns=1, progress=False)
    cols = [c for c in plain.frame.columns if c.startswith("expected_damage")]
    assert cols and res.frame[cols].equals(plain.frame[cols])  # it adds nothing
    # a unit that is not asked to fire is fine: the catalog entry itself reads
    assert get_classic(HBK).weapons


def test_profile_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "profile", HBK, "--turns", "4", "--json")
    assert rc == 0
    doc = json.loads(out)
    rows = doc["ranges"]
    assert [r["range"] for r in rows] == list(range(1, len(rows) + 1))
    assert all({"range", "max_damage", "hit_weighted", "sustained"} <= set(r) for r in rows)
    assert rows[0]["max_damage"] >= rows[0]["hit_weighted"] >= rows[0]["sustained"] - 1e-9
    assert rows[0]["sustained"] > 0


@needs_shared
def test_mtf_reader_path_rear_mounts(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "fire", str(MTF_DIR / "Atlas AS7-D.mtf"), "--turns", "1",
                     "--json")
    assert rc == 0
    doc = json.loads(out)
    rear = [w for w in doc["weapons"] if w["rear"]]
    assert len(rear) == 2 and all("rear" in w["reason"] for w in rear)


def test_module_entry_point() -> None:
    res = subprocess.run([sys.executable, "-m", "sim", "fire", HBK, "--range", "0"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
