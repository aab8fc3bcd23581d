"""One convention for a Monte Carlo estimate in every text output (issue 18): the value and
its 95% interval, ``0.412 (0.398–0.426)``, stated in the output's header."""

from __future__ import annotations

import math

from sim.summary import INTERVAL_NOTE, Z95, with_interval


def test_with_interval_forms() -> None:
    assert with_interval(0.412, low=0.398, high=0.426) == "0.412 (0.398–0.426)"
    assert with_interval(2.0, se=0.5, digits=2) == \
        f"2.00 ({2 - Z95 * 0.5:.2f}–{2 + Z95 * 0.5:.2f})"
    assert with_interval(1.5) == "1.500"                       # exact: the value alone
    assert with_interval(None) == "-" and with_interval(math.nan) == "-"
    assert with_interval(0.5, se=math.nan) == "0.500 (n/a)"   # never NaN as an interval
    assert "95% interval" in INTERVAL_NOTE


def test_duel_texts_share_it() -> None:
    """The Alpha Strike and the Classic duel print the same form."""
    from sim.classic.duel.api import _ci
    from sim.cli.duel import to_text

    assert _ci({"p": 0.5, "ci_low": 0.4, "ci_high": 0.6}) == "0.500 (0.400–0.600)"
    doc = {"params": {"a": "A", "b": "B", "range": "short", "turns": 3}, "mode":
           "monte-carlo", "trials": 100, "pv_a": 1, "pv_b": 1, "turns": [], "notes": [],
           **{k: 0.5 for k in ("p_win_a", "p_win_b", "p_draw", "p_timeout",
                               "expected_turns")},
           **{f"{k}_se": 0.01 for k in ("p_win_a", "p_win_b", "p_draw", "p_timeout",
                                       "expected_turns")}}
    text = to_text(doc)
    assert INTERVAL_NOTE in text and "±" not in text
    assert f"0.500 ({0.5 - Z95 * 0.01:.3f}–{0.5 + Z95 * 0.01:.3f})" in text
