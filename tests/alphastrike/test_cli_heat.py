"""``btsim heat`` command line contract (issue 4)."""

from __future__ import annotations

import json

import pytest

from sim.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["heat", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv", [
    ["--ov", "5"], ["--ov", "-1"], ["--policy", "sometimes"], ["--policy", "fixed:9"],
    ["--start-heat", "5"], ["--start-heat", "-1"], ["--incoming", "tn=8"],
    ["--incoming", "tn=8,dmg=2,zz=1"], ["--incoming", "garbage"], ["--turns", "0"],
    ["--option", "nope=1"], ["--option", "water_ov=maybe"],
])
def test_bad_input_exits_2_with_one_line(capsys, argv) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("btsim: error:")


def test_argparse_errors_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["heat", "--range", "far"])
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exc:
        main(["heat", "--exact", "--trials", "10"])
    assert exc.value.code == 2


def test_json_shape_exact(capsys) -> None:
    rc, out, _ = run(capsys, "--ov", "2", "--turns", "3", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert len(doc["turns"]) == 3
    row = doc["turns"][0]
    for key in ("turn", "p_heat", "p_shutdown", "p_shutdown_by", "mean_heat",
                "expected_damage", "p_destroyed_by"):
        assert key in row
    assert row["turn"] == 1 and len(row["p_heat"]) == 5
    assert doc["turns"][1]["p_heat"] == [0.0, 0.0, 0.0, 0.0, 1.0]   # 2 + 2 -> S
    assert doc["turns"][1]["p_shutdown"] == 1.0
    assert doc["mode"] == "exact" and doc["expected_first_shutdown_turn"] == 2.0
    assert not any(k.endswith("_se") for k in row)


def test_json_shape_monte_carlo(capsys) -> None:
    rc, out, _ = run(capsys, "--ov", "2", "--turns", "2", "--incoming", "tn=7,dmg=2,ht=1",
                     "--incoming", "tn=9,dmg=1", "--trials", "2000", "--seed", "3", "--json")
    assert rc == 0
    doc = json.loads(out)
    row = doc["turns"][0]
    assert {"p_heat_se", "p_shutdown_se", "mean_heat_se", "expected_damage_se",
            "p_destroyed_by_se", "p_shutdown_by_se"} <= set(row)
    assert doc["mode"] == "monte-carlo" and doc["trials"] == 2000
    rc2, out2, _ = run(capsys, "--ov", "2", "--turns", "2", "--incoming", "tn=7,dmg=2,ht=1",
                       "--incoming", "tn=9,dmg=1", "--trials", "2000", "--seed", "3", "--json")
    assert out2 == out                                  # same seed, same numbers


def test_table_output_and_help(capsys) -> None:
    rc, out, _ = run(capsys, "--ov", "3", "--policy", "below:2", "--water", "--turns", "4",
                     "--rules", "seed")
    assert rc == 0 and "turn" in out and len(out.splitlines()) >= 6
    with pytest.raises(SystemExit):
        main(["heat", "--help"])
    help_text = capsys.readouterr().out
    assert "generic 'Mech" in help_text and "Armor 5" in help_text


def test_exact_flag(capsys) -> None:
    rc, out, _ = run(capsys, "--ov", "1", "--turns", "2", "--exact", "--json")
    assert rc == 0 and json.loads(out)["mode"] == "exact"


def test_seed_without_trials_and_depth_without_water_are_errors():
    import subprocess
    import sys

    for args in (["--ov", "2", "--seed", "3"], ["--ov", "2", "--water-depth", "3"]):
        res = subprocess.run([sys.executable, "-m", "sim", "heat", *args], capture_output=True,
                             text=True)
        assert res.returncode == 2
        assert len(res.stderr.strip().splitlines()) == 1
