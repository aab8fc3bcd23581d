"""Report section ``duel-overheat``: what OV buys in a duel (issue 10 "Points value"): per card
with OV and range, the win chance and damage with its best overheat policy against ``never``,
beside the PV the card pays for its OV (reference 23.4). Numbers from
:func:`sim.alphastrike.duel.analysis.ov_table`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim import plots
from sim.alphastrike.duel import analysis as DA
from sim.report.formatting import (
    finite,
    fmt_count,
    fmt_num,
    fmt_pct,
    footnote_text,
    num,
    short_unit,
)
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section, Table


def _fmt_gain(v: float) -> str:
    """A change of score in percentage points, signed."""
    return "–" if not finite(v) else f"{100 * float(v):+.1f} pp"


@section("duel-overheat", order=90, legacy=("duel_overheat",))
def build(res: Result) -> Section:
    """What OV buys: win chance and damage with the best overheat policy against never."""
    sec = Section(res)
    d = DA.duels(res.frame)
    t = DA.ov_table(d)
    ranges = DA.ordered_ranges(t["range"])
    foot = footnote_text(res, extra=DA.SCORE_NOTE + ".", kind="cells")
    sec.notes.append(
        "Side A fights its own card, which never overheats. Best policy = the one with the "
        "highest score, but 'never' unless it beats never's score by more than 3 standard "
        "errors of the difference (so Monte Carlo noise does not pick a policy that buys "
        "nothing), and 'never' where the card cannot overheat at the range (6.2: Long only "
        "with OVL). " + DA.SCORE_NOTE[0].upper()
        + DA.SCORE_NOTE[1:] + ".")
    cols = ["OV", "PV", "PV for OV", "win never", "win best", "score gain",
            "damage/turn never", "damage/turn best", "shut down (max)"]
    idx = [f"{short_unit(u)} / {r}" for u, r in zip(t["unit"], t["range"], strict=True)]
    tv = pd.DataFrame(index=idx, columns=cols, dtype=float)
    for k, (_, r) in zip(idx, t.iterrows(), strict=True):
        tv.loc[k] = [r["ov"], r["pv"], r["pv_for_ov"], r["win_never"], r["win_best"],
                     r["gain"], r["damage_never"], r["damage_best"], r["shutdown_max"]]
    sec.tables.append(ColumnTable(
        "ov", "What OV buys: best overheat policy against never, per card and range", tv,
        {"OV": fmt_count, "PV": fmt_count, "PV for OV": fmt_num, "win never": fmt_pct,
         "win best": fmt_pct, "score gain": _fmt_gain, "damage/turn never": fmt_num,
         "damage/turn best": fmt_num, "shut down (max)": fmt_pct}, index_name="card / range",
        note="Win = P(side A wins). Score gain = score with the best policy minus with "
        "never. Damage/turn = expected damage side A deals over the fight / expected turns. Shut down (max) "
        "= P(side A has shut down by the end) firing full OV every turn. PV for OV = the "
        "overheat term of the PV formula (23.4: 1 + 0.5 (OV - 1), halved without Medium or "
        "Long damage, + OV/4 for OVL), before rounding."))
    units = list(dict.fromkeys(t["unit"]))
    bv = pd.DataFrame(index=[short_unit(u) for u in units], columns=ranges, dtype=float)
    bl = pd.DataFrame(index=bv.index, columns=ranges, dtype=object)
    for _, r in t.iterrows():
        bv.loc[short_unit(r["unit"]), r["range"]] = r["gain"]
        bl.loc[short_unit(r["unit"]), r["range"]] = r["best_policy"]
    sec.tables.append(Table("best", "Best overheat policy and its score gain over never",
                            bv, _fmt_gain, labels=bl, index_name="card",
                            note="Each cell: the best policy, then its score gain over "
                            "never in percentage points."))

    with plots.style():
        fig, axes = plots.new_figure(len(ranges), 1, width=11, height=3.2 * len(ranges) + 1,
                                     sharex=True, sharey=True)
        pols = ["never", "best", "max"]
        for n, rg in enumerate(ranges):
            ax = axes[n, 0]
            sub = t[t["range"] == rg].set_index("unit").reindex(units)
            x = np.arange(len(units))
            width = 0.27
            for j, (p, col) in enumerate(zip(pols, ("score_never", "score_best", "score_max"),
                                             strict=True)):
                ax.bar(x + (j - 1) * width, sub[col].to_numpy(float) * 100, width,
                       color=plots.color(j), label=p if p != "best" else "best policy")
            ax.axhline(50, color="#999999", linewidth=0.8)
            ax.set_ylabel(f"{rg} range\nscore (%)")
            ax.set_ylim(0, 100)
            ax.set_xticks(x)
            ax.set_xticklabels([short_unit(u) for u in units], rotation=35, ha="right",
                               fontsize=8)
        plots.figure_legend(fig, axes[0, 0], "side A's policy")
        fig.suptitle("What OV buys: score against the same card that never overheats")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_ov", "What OV buys",
                       "Score of each card with OV against its own card that never "
                       "overheats, when it never overheats (about 50%), with its best "
                       "policy, and firing full OV every turn (max), per range.")

    # findings
    best = tv["score gain"].astype(float)
    if best.notna().any():
        k = str(best.idxmax())
        q: list[tuple[str, str, str, float, str]] = [("ov", k, c, num(tv.loc[k, c]), f(tv.loc[k, c])) for c, f in
             (("win never", fmt_pct), ("win best", fmt_pct), ("PV for OV", fmt_num))]
        u, rg = k.split(" / ", 1)
        sec.findings.append(Finding(
            res.name, f"OV buys the most for the {u} at {rg} range: its win chance rises "
            f"from {q[0][4]} to {q[1][4]} with its best policy, for {q[2][4]} PV of "
            "overheat term.", q))
        zero = int((best <= 0).sum())
        sec.findings.append(Finding(
            res.name, f"In {zero} of {len(best)} card-range pairs no overheat policy beats "
            "never.", [], lead=False))
    if tv["shut down (max)"].notna().any():
        maxscore = pd.Series({f"{short_unit(r['unit'])} / {r['range']}": r["score_max"] -
                              r["score_never"] for _, r in t.iterrows()})
        k = str(maxscore.idxmin())
        if maxscore[k] < 0:
            sd = tv.loc[k, "shut down (max)"]
            sec.findings.append(Finding(
                res.name, f"Full OV every turn costs the {k.replace(' / ', ' at ')} range "
                f"the most: it has shut down by the end with probability {fmt_pct(sd)}.",
                [("ov", k, "shut down (max)", num(sd), fmt_pct(sd))], lead=False))
    return sec
