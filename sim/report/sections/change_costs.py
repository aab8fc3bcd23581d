"""Report section ``change-costs``: what a change to a design costs (issue 20): BV and PV of
one more heat sink, ton of armor or jump MP beside the win probability it buys in a mirror
duel against the unchanged 'Mech and the turns to a kill (Classic Monte Carlo with 95%
intervals; Alpha Strike exact).
Numbers from :func:`sim.units.costs.change_cost_table`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim import plots
from sim.report.formatting import finite, fmt_count, fmt_spec, footnote_text, num, short_unit
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section

#: an edge P(A wins) - P(B wins) in percentage points; a signed price change; turns; a ratio
_fmt_edge, _fmt_signed = fmt_spec(".1f", 100), fmt_spec("+g")
_fmt_turns, _fmt_ratio = fmt_spec(".2f"), fmt_spec(".0f")


def _movement_note(frame: Any) -> str:
    """What the Classic duel's tactics (the results' ``tactic_a`` / ``tactic_b``) let a jump
    MP buy."""
    tactics = sorted({str(v) for c in ("tactic_a", "tactic_b") if c in frame
                      for v in frame[c].dropna().unique()})
    if tactics == ["stand-and-fire"]:
        return "The Classic duel stands still (stand-and-fire), so a jump MP buys nothing there."
    return ("The Classic duel plays " + " / ".join(tactics or ["competent"]) + " (initiative, "
            "mode and distance chosen each turn, issue 22), so a jump MP buys movement "
            "modifiers and reach there.")


@section("change-costs", order=115)
def build(res: Result) -> Section:
    """What a change costs: ΔBV, ΔPV and the win probability one more heat sink, ton of armor
    or jump MP buys."""
    from sim.units.costs import change_cost_table

    sec = Section(res)
    t = res.memo("change-costs", lambda: change_cost_table(res.frame))
    idx = [f"{short_unit(u)} / {c}" for u, c in zip(t["unit"], t["change"], strict=True)]
    tv = pd.DataFrame({
        "BV": t["bv"].to_numpy(float), "ΔBV": t["d_bv"].to_numpy(float),
        "PV": t["pv"].to_numpy(float), "ΔPV": t["d_pv"].to_numpy(float),
        "AS edge": t["as_edge"].to_numpy(float),
        "Classic edge": t["edge"].to_numpy(float),
        "95% low": t["edge_lo"].to_numpy(float), "95% high": t["edge_hi"].to_numpy(float),
        "gain": t["gain"].to_numpy(float), "gain low": t["gain_lo"].to_numpy(float),
        "gain high": t["gain_hi"].to_numpy(float), "E[turns]": t["turns"].to_numpy(float),
        "turns low": t["turns_lo"].to_numpy(float), "turns high": t["turns_hi"].to_numpy(float),
        "ΔBV per +10 pts": t["bv_per_gain"].to_numpy(float)}, index=idx)
    sec.tables.append(ColumnTable(
        "costs", "What a change costs: the price and what it buys against the unchanged "
        "design", tv,
        {"BV": fmt_count, "ΔBV": _fmt_signed, "PV": fmt_count, "ΔPV": _fmt_signed,
         "AS edge": _fmt_edge, "Classic edge": _fmt_edge, "95% low": _fmt_edge,
         "95% high": _fmt_edge, "gain": _fmt_edge, "gain low": _fmt_edge,
         "gain high": _fmt_edge, "E[turns]": _fmt_turns, "turns low": _fmt_turns, "turns high": _fmt_turns,
         "ΔBV per +10 pts": _fmt_ratio},
        index_name="unit / change",
        note="BV and PV of the unchanged 'Mech, computed from its design; ΔBV and ΔPV what "
        "the change adds. Edge = P(changed wins) - P(unchanged wins) in percentage points: "
        "AS edge from the Alpha Strike mirror duel of the converted cards (short range, "
        "stand-and-fire, exact; 0 when the change leaves the card as it was), Classic edge "
        "from the Classic duel (Monte Carlo, with its 95% interval; 'unchanged' is the check: "
        "0 by symmetry, up to what the duel itself favours). Gain = Classic edge minus the "
        "unchanged row's, with a 95% interval that adds both variances (conservative: the "
        "edits share their dice). ΔBV per +10 pts: the BV the change costs per 10 "
        "percentage points of gain, where the gain's interval excludes 0. E[turns]: the Classic "
        "duel's expected turns to a kill (a timeout counts its turn limit), with its 95% "
        "interval (turns low / high)."))
    sec.notes.append("Every change adds its weight (tonnage=free): the question is what one "
                     "more item is worth, not which trade a designer should make. "
                     + _movement_note(res.frame)
                     + " In Alpha Strike a jump MP's heat counts in the conversion's heat step.")

    changes = [c for c in dict.fromkeys(t["change"]) if c != "unchanged"]
    units = list(dict.fromkeys(t["unit"]))
    with plots.style():
        fig, axes = plots.new_figure(1, 2, width=13, height=4.6)
        cats = [short_unit(u) for u in units]
        series_e: dict[str, dict[str, Any]] = {}
        series_b: dict[str, dict[str, Any]] = {}
        for j, c in enumerate(changes):
            g = t[t["change"] == c].set_index("unit").reindex(units)
            series_e[c] = {"values": 100 * g["edge"].to_numpy(float),
                           "lo": 100 * g["edge_lo"].to_numpy(float),
                           "hi": 100 * g["edge_hi"].to_numpy(float),
                           "exact": 100 * g["as_edge"].to_numpy(float), "color": plots.color(j)}
            series_b[c] = {"values": g["d_bv"].to_numpy(float), "color": plots.color(j)}
        plots.grouped_bars(axes[0, 0], cats, series_b, ylabel="ΔBV", title="Battle Value of "
                           "the change", legend=False)
        plots.grouped_bars(axes[0, 1], cats, series_e, ylabel="edge (percentage points)",
                           title="What it buys: edge over the unchanged 'Mech",
                           exact_label="Alpha Strike (exact)", legend=False)
        axes[0, 1].axhline(0, color="#333333", linewidth=0.8)
        plots.figure_legend(fig, axes[0, 1], "change")
        fig.suptitle("What a change costs, and what it buys in a mirror duel")
        plots.footnote(fig, footnote_text(res, extra="Bars: the Classic duel's edge with its "
                                          "95% interval; diamonds: the Alpha Strike edge "
                                          "(exact)."))
        sec.add_figure(fig, "fig_change_costs", "BV of a change and the edge it buys",
                       "Left: the Battle Value each change adds. Right: the edge P(changed "
                       "wins) - P(unchanged wins) in the Classic mirror duel (bars, 95% "
                       "interval) and in the Alpha Strike duel of the converted cards "
                       "(diamonds, exact).")

    # findings: the change with the largest Classic edge, and the costliest one that buys
    # nothing measurable
    ce = tv["gain"]
    if ce.notna().any() and float(ce.max()) > 0:
        k = str(ce.idxmax())
        q = [("costs", k, c, num(tv.loc[k, c]), f(num(tv.loc[k, c]))) for c, f in
             (("gain", _fmt_edge), ("ΔBV", _fmt_signed), ("ΔPV", _fmt_signed))]
        sec.findings.append(Finding(
            res.name, f"Of the changes priced, {k.replace(' / ', ' with ')} buys the most in "
            f"the Classic mirror duel: {q[0][4]} percentage points of edge over the "
            f"unchanged 'Mech, for {q[1][4]} BV ({q[2][4]} PV).", q, lead=True))
    lo = tv["gain low"]
    hi = tv["gain high"]
    nothing = [i for n, i in enumerate(tv.index) if t["change"].iloc[n] != "unchanged"
               and finite(lo.iloc[n]) and lo.iloc[n] <= 0 <= hi.iloc[n]
               and finite(tv["ΔBV"].iloc[n]) and tv["ΔBV"].iloc[n] > 0]
    if nothing:
        k = max(nothing, key=lambda i: num(tv.loc[i, "ΔBV"]))
        q = [("costs", k, "ΔBV", num(tv.loc[k, "ΔBV"]), _fmt_signed(num(tv.loc[k, "ΔBV"])))]
        sec.findings.append(Finding(
            res.name, f"{k.replace(' / ', ' with ')} costs {q[0][4]} BV but buys no edge the "
            "Classic duel can tell from zero (the 95 percent interval of its gain includes "
            "0).", q, lead=False))
    return sec
