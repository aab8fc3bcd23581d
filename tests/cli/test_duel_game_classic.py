"""``btsim duel --game classic`` reuses the Alpha Strike flags: --closing takes only
``close``, --start-distance is in hexes and needs --closing, a range script is shown as the
user wrote it; a flag of the other game exits 2 naming the flag and its game; ``--help``
says what each flag means in each game."""

from __future__ import annotations

import subprocess
import sys

import pytest

A, B = "Locust LCT-1V", "Atlas AS7-D"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim", "duel", "--game", "classic", A, B,
                           "--trials", "40", "--seed", "1", *args],
                          capture_output=True, text=True)


@pytest.mark.parametrize("args, words", [
    (["--closing", "hold-band"], "hold-band is an Alpha Strike policy"),
    (["--start-distance", "30"], "used with --closing"),
])
def test_bad_combinations_exit_2(args: list[str], words: str) -> None:
    p = _run(*args)
    assert p.returncode == 2 and p.stdout == "" and words in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_closing_start_distance_in_hexes_and_range_script_label() -> None:
    p = _run("--closing", "close", "--start-distance", "30")
    assert p.returncode == 0, p.stderr
    assert "closing from 30" in p.stdout
    p = _run("--ranges", "9,6,3,1")
    assert p.returncode == 0, p.stderr
    assert "range 9,6,3,1, at most" in p.stdout


def _duel(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim", "duel", *args], capture_output=True,
                          text=True)


@pytest.mark.parametrize("flag, value, game", [
    ("--skill-a", "3", "alphastrike"), ("--terrain-a", "woods", "alphastrike"),
    ("--rules", "seed", "alphastrike"),     # --targeting-a/-b: both games (classic forces)
    ("--skill-b", "4", "alphastrike"),     # given at its default: still the other game's flag
])
def test_alpha_strike_flags_refused_by_the_classic_duel(flag: str, value: str,
                                                        game: str) -> None:
    p = _run(flag, value)
    assert p.returncode == 2 and p.stdout == "", p.stdout
    assert len(p.stderr.strip().splitlines()) == 1
    assert flag in p.stderr and f"--game {game}" in p.stderr


@pytest.mark.parametrize("flag, value", [
    ("--gunnery-a", "0"), ("--piloting-b", "5"), ("--physical-a", "none"), ("--bv-a", "5")])
def test_classic_flags_refused_by_the_alpha_strike_duel(flag: str, value: str) -> None:
    p = _duel("Atlas AS7-D", "Locust LCT-1V", flag, value)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
    assert flag in p.stderr and "--game classic" in p.stderr


def test_classic_flags_reach_the_classic_duel() -> None:
    p = _run("--gunnery-a", "3", "--piloting-b", "6", "--physical-a", "none", "--bv-a",
             "1000", "--turns", "2")
    assert p.returncode == 0, p.stderr
    assert "gunnery 3, piloting 5" in p.stdout and "physical none, BV 1200" in p.stdout
    assert "gunnery 4, piloting 6" in p.stdout


def test_help_says_what_each_flag_means_per_game() -> None:
    from sim.alphastrike.duel.scenario import PARAMS
    from sim.classic.duel.api import DEFAULT_TURNS

    p = _duel("--help")
    text = " ".join(p.stdout.split())
    assert f"default {PARAMS['turns']} for alphastrike, {DEFAULT_TURNS} for classic" in text
    assert "classic: hexes (default 6" in text
    assert "an option of the alphastrike game" not in text
    assert "override one rule option of the chosen --game" in text
    assert "Battle Value of A at gunnery 4 / piloting 5" in text
    assert "Alpha Strike only: side A's terrain" in text and "Classic only: gunnery" in text


def test_unknown_bv_note_names_the_flag() -> None:
    """A unit without a BV (as a .mtf file): the note names --bv-a/--bv-b, says N is the BV
    at gunnery 4 / piloting 5, and has no nested parentheses (``units show`` wraps it)."""
    import dataclasses

    from sim.classic.bv import bv_facts
    from sim.units.catalog import get_classic

    note = bv_facts(dataclasses.replace(get_classic(A), bv=None))["notes"][0]
    assert "--bv-a/--bv-b" in note and "(" not in note and "gunnery 4 / piloting 5" in note


@pytest.mark.parametrize("cmd", [["duel", "--game", "classic"], ["classic-duel"]])
def test_piloting_rule_option_refused_in_the_duel(cmd: list[str]) -> None:
    """The fire model's ``piloting`` option (C3) would change nothing the duel rolls (each
    side has its own piloting): refused with a pointer to --piloting-a/--piloting-b."""
    p = subprocess.run([sys.executable, "-m", "sim", *cmd, A, B, "--trials", "20",
                        "--rule", "piloting=2"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
    assert "piloting" in p.stderr and "--piloting-a/--piloting-b" in p.stderr
    import sim
    from sim.errors import ConfigError

    with pytest.raises(ConfigError, match="piloting_a/piloting_b"):
        sim.classic_duel(A, B, trials=10, rules={"piloting": 2})
