"""The tactic-matrix tables of a round-robin section (issue 22), both games: one table per
pairing of the run's ``tactic_matrices`` metadata (the most and least surprising pairings,
computed once by the experiment, :mod:`sim.tactic_report`); the sections
``duel-round-robin`` and ``classic-round-robin`` call :func:`add_tactic_matrices`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from sim.report.formatting import fmt_num, fmt_pct, short_unit
from sim.report.types import Result, Section, Table


def _iv(e: Mapping[str, float], f: Callable[[float], str]) -> str:
    """``value (lo–hi)``: an estimate and its 95% interval."""
    if e["lo"] == e["value"] == e["hi"]:
        return f(e["value"])
    return f"{f(e['value'])} ({f(e['lo'])}–{f(e['hi'])})"


def cell_label(c: Mapping[str, Any]) -> str:
    """The text of one cell before A's score: P(A wins), P(B wins) and E[turns], each with
    its 95% interval."""
    return (f"A {_iv(c['p_win_a'], fmt_pct)}, B {_iv(c['p_win_b'], fmt_pct)}, "
            f"{_iv(c['expected_turns'], fmt_num)} turns; score")


def _mix(m: Mapping[str, float]) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in m.items() if v > 5e-3)


def add_tactic_matrices(sec: Section, res: Result,
                        where: Callable[[Any], str] = lambda r: f"at {r} range") -> None:
    """One table ``tactics_<n>`` per pairing of ``res``'s ``tactic_matrices`` metadata:
    cell (A's tactic, B's tactic) shows P(A wins), P(B wins) and E[turns] with their 95%
    intervals, then A's score (the table's value); the note has the pairing's round-robin
    score against the fairness curve's, each side's maximin with its guarantee's interval and
    the value of the zero-sum game in mixed strategies (within the widest cell interval,
    :meth:`sim.tactics.TacticMatrix.to_text`). ``where(range)``: the pairing's range in
    words. Nothing when the run has none."""
    entries = res.meta.get("tactic_matrices") or []
    for n, e in enumerate(entries):
        m = e["matrix"]
        rows, cols, cells = list(m["rows"]), list(m["cols"]), m["cells"]
        vals = pd.DataFrame([[c["score_a"]["value"] for c in row] for row in cells],
                            index=rows, columns=cols, dtype=float)
        labels = pd.DataFrame([[cell_label(c) for c in row] for row in cells],
                              index=rows, columns=cols, dtype=object)
        half = max(max(c["score_a"]["hi"] - c["score_a"]["value"],
                       c["score_a"]["value"] - c["score_a"]["lo"])
                   for row in cells for c in row)
        mm, g = m["maximin"], m["game"]
        i, j = rows.index(mm["a"]), cols.index(mm["b"])
        worst = min(cells[i], key=lambda c: c["score_a"]["value"])["score_a"]
        best = max((row[j] for row in cells), key=lambda c: c["score_a"]["value"])["score_a"]
        cost = str(e.get("cost", "pv")).upper()
        what = "most" if e["kind"] == "most" else "least"
        v = g["value"]
        value = (fmt_pct(v) if half == 0 else
                 f"{fmt_pct(v)} ({fmt_pct(max(v - half, 0.0))}–{fmt_pct(min(v + half, 1.0))})")
        sec.tables.append(Table(
            f"tactics_{n + 1}", f"Tactic matrix of a {what} surprising pairing: "
            f"{short_unit(e['a'])} against {short_unit(e['b'])} {where(e['range'])}",
            vals, fmt_pct, labels,
            note=f"Rows: A's tactic; columns: B's. Each cell: P(A wins), P(B wins) and the "
            f"expected turns with their 95% intervals over {e['trials']:,} Monte Carlo duels, "
            f"then A's score = P(A wins) + 1/2 P(draw or timeout) (95% half-width at most "
            f"{fmt_pct(half)}). In the round-robin A scored {fmt_pct(e['score'])} where its "
            f"{cost} ratio predicts {fmt_pct(e['expected'])} on the {cost} fairness curve "
            f"(surprise {fmt_pct(e['surprise'])}, the gap between the two). Maximin: A plays "
            f"{mm['a']} (score at least {_iv(worst, fmt_pct)} against B's best reply), B "
            f"plays {mm['b']} (holds A to at most {_iv(best, fmt_pct)}); value of the "
            f"zero-sum game in mixed strategies {value} (within the widest cell interval): A "
            f"mixes {_mix(g['mix_a'])}, B mixes {_mix(g['mix_b'])}.",
            index_name="A's tactic"))


__all__ = ["add_tactic_matrices", "cell_label"]
