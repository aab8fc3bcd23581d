"""``btsim duel --game classic`` reuses the Alpha Strike flags: --closing takes only
``close``, --start-distance is in hexes and needs --closing, a range script is shown as the
user wrote it."""

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
