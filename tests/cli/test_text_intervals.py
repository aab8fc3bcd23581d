"""Every Monte Carlo estimate a text output prints carries its 95% interval in the one
convention (issue 18): ``0.412 (0.398–0.426)``, the header stating it; exact numbers stand
alone and the header says exact. Each command runs a few hundred trials."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.summary import INTERVAL_NOTE, proportion_interval, text_table, with_interval

#: an interval as every text output prints it, right after its estimate
INTERVAL = re.compile(r" \((?:n/a|[-+]?[\d.e+-]+–[-+]?[\d.e+-]+|[-+]?[\d.e+-]+–∞)\)")
#: a decimal number (an estimate of a mean or a probability)
DECIMAL = re.compile(r"(?<![\w.+-])[-+]?\d+\.\d+(?:e[-+]?\d+)?")


def bare_decimals(line: str) -> list[str]:
    """The decimal numbers of ``line`` that are neither followed by an interval nor one of
    an interval's bounds."""
    marked = INTERVAL.sub("§", line)
    return [m.group() for m in DECIMAL.finditer(marked)
            if not marked[m.end():].startswith("§")]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 0
    return capsys.readouterr().out.splitlines()


def table_rows(lines: list[str], head: str) -> list[str]:
    """The lines after the header line starting with ``head`` up to a blank or text line."""
    i = next(k for k, line in enumerate(lines) if line.lstrip().startswith(head))
    out = []
    for line in lines[i + 1:]:
        if not line.strip() or not line.lstrip()[0].isdigit():
            break
        out.append(line)
    assert out, f"no rows under {head!r}"
    return out


def test_the_checker_catches_a_bare_estimate() -> None:
    assert bare_decimals("   1 0.412 (0.398–0.426) 2.000 (1.9–2.1)") == []
    assert bare_decimals("   1 0.412 (0.398–0.426) 2.000") == ["2.000"]
    assert bare_decimals("x -0.0277 (-0.0288–-0.0266) 1.0000 (0.99996–1.0000)") == []
    assert bare_decimals("HD 0.0011 (6.29707e-05–0.00213703)") == []


def test_heat(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "heat", "--turns", "3", "--trials", "400", "--seed", "1")
    assert INTERVAL_NOTE in lines[0]
    rows = table_rows(lines, "turn")
    for row in rows + [line for line in lines if line.startswith("expected first")]:
        assert bare_decimals(row) == [], row
    assert all(len(INTERVAL.findall(r)) == 10 for r in rows)
    exact = run(capsys, "heat", "--turns", "3")
    assert "(exact)" in exact[0] and not any(INTERVAL.search(x) for x in exact)


def test_compare_has_no_bare_se_column(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "compare", "heat", "--set", "ov=2", "--set", "turns=3",
                "--a", "policy=never", "--b", "policy=max", "--trials", "640", "--seed", "1")
    assert INTERVAL_NOTE in lines[0]
    head = next(x for x in lines if x.startswith("turn"))
    assert " SE" not in head and "CI" not in head
    rows = [x for x in lines if re.match(r"\d+\s+p_", x)]
    assert rows and all(len(INTERVAL.findall(r)) == 3 for r in rows)


def test_attack_fire_profile(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "attack", "kick", "--tons", "60", "--trials", "500", "--seed", "1")
    facts = ("target_number", "damage_on_hit")
    for row in lines[2:]:
        if not row.strip().startswith(facts):
            assert bare_decimals(row) == [], row
    lines = run(capsys, "fire", "Hunchback HBK-4G", "--turns", "2", "--trials", "300",
                "--seed", "1")
    assert INTERVAL_NOTE in lines
    rows = table_rows(lines, "turn")
    assert all(bare_decimals(r) == [] and len(INTERVAL.findall(r)) == 6 for r in rows)
    lines = run(capsys, "profile", "Hunchback HBK-4G", "--turns", "2", "--trials", "100",
                "--seed", "1")
    rows = table_rows(lines, "range")
    # max and hit-weighted are exact (no dice), sustained is the estimate
    assert all(len(INTERVAL.findall(r)) == 1 and len(bare_decimals(r)) == 2 for r in rows)


def test_hit(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "hit", "Hunchback HBK-4G", "--damage", "10", "--groups", "5,5",
                "--side", "front", "--trials", "500", "--seed", "1")
    assert any(INTERVAL_NOTE in x for x in lines)
    for row in lines[2:]:
        if not row.strip().startswith("note:"):
            assert bare_decimals(row) == [], row
    # a probability's interval is Wilson's: inside [0, 1]
    assert not re.search(r"\(-\d", "\n".join(lines[2:]))


def test_duels(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "duel", "Locust LCT-1V", "Commando COM-1B", "--range", "short",
                "--turns", "3", "--trials", "400", "--seed", "1")
    assert INTERVAL_NOTE in lines[0]
    rows = table_rows(lines, "turn")
    assert all(bare_decimals(r) == [] and len(INTERVAL.findall(r)) == 7 for r in rows)
    lines = run(capsys, "duel", "--game", "classic", "Locust LCT-1V", "Commando COM-2D",
                "--range", "3", "--turns", "3", "--trials", "200", "--seed", "1")
    assert INTERVAL_NOTE in lines
    rows = table_rows(lines, "turn")
    assert all(bare_decimals(r) == [] and len(INTERVAL.findall(r)) == 5 for r in rows)


def test_sensitivity_text() -> None:
    from sim.cli.sensitivity import to_text

    table = pd.DataFrame({"metric": ["p_hit", "p_hit"], "factor": ["tons", "piloting"],
                          "first": [20, 3], "last": [100, 6], "effect": [0.0, -0.15],
                          "se": [0.0, 0.01], "source": ["exact", "monte-carlo"],
                          "significant": [False, True]})
    lines = to_text(table, "x").splitlines()
    assert INTERVAL_NOTE in lines[0] and " SE " not in lines[1]
    assert bare_decimals(lines[3]) == [] and len(INTERVAL.findall(lines[3])) == 1
    assert INTERVAL.search(lines[2]) is None      # exact: the value alone


def test_rating_text() -> None:
    from sim.rating.text import summary_lines

    frame = pd.DataFrame({
        "scenario": ["all"], "rated": [True], "unit": ["U"], "price": [20.0],
        "fair_price": [25.0], "fair_price_ci_low": [20.0], "fair_price_ci_high": [30.0],
        "beyond_data": [False], "ratio": [0.8], "strength": [0.5], "strength_ci_low": [0.4],
        "strength_ci_high": [0.6], "n": [1000], "verdict": ["no verdict"], "reason": ["r"],
        "robustness": [""]})
    meta = {"price_label": "PV", "pool": ["U"], "pool_how": "h", "scenarios": [],
            "seatings": "both", "tactic": "t", "correction": "holm", "alpha": 0.05,
            "duels": 1000, "exact_pairings": 0, "seed": 0, "target_error": 0.3,
            "gap": {"ratio_for": [{"score": 0.75, "ratio": 1.4, "low": 1.2, "high": 1.7}]}}
    lines = summary_lines(frame, meta)
    row = next(x for x in lines if x.startswith("U "))
    assert bare_decimals(row.split("  no verdict")[0]) == ["20.0"]   # the unit's own price
    assert "0.80 (0.67–1.00)" in row and "25.0 (20.0–30.0)" in row
    assert bare_decimals(next(x for x in lines if x.startswith("a PV ratio"))) == []


def test_helpers() -> None:
    lo, hi = proportion_interval(0.0, 100)
    assert lo < 1e-12 and 0.03 < hi < 0.04
    lo, hi = proportion_interval(0.5, 100)
    assert lo < 0.5 < hi and np.isclose(0.5 - lo, hi - 0.5)
    head, row = text_table(["a", "bb"], [["x", with_interval(1.0, 0.1)]], left=1)
    assert row == "x 1.000 (0.804–1.196)" and len(head) == len(row) and head.startswith("a ")


def test_tactic_matrix_text() -> None:
    """The maximin guarantees and the game's value carry intervals too (Monte Carlo)."""
    from sim import tactics as G

    def play(r: str, c: str) -> G.Cell:
        return G.cell(0.6 if r == c else 0.3, 0.3, 3.0, 0.01, 0.01, 0.1)

    text = G.play_matrix(play, ["x", "y"]).to_text().splitlines()
    for line in text:
        if line.startswith(("maximin", "value of")):
            assert bare_decimals(line.split("; A mixes")[0]) == [], line
    cells = [x for x in text if x.startswith(("x ", "y "))]
    assert cells and all(bare_decimals(x) == [] for x in cells)
