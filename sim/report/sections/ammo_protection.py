"""Report section ``ammo-protection``: an Alpha Strike unit's survival under the same
incoming fire with each ammo protection. Protection names and order, survival, turns gained
and the Ammo Hit odds come from the model (:mod:`sim.alphastrike.balance`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim import plots
from sim.alphastrike import balance as AB
from sim.report.figures import bar_series
from sim.report.formatting import (
    LEGEND_NOTES,
    and_list,
    column_of,
    exact_of,
    finite,
    fmt_num,
    fmt_pct,
    footnote_text,
    incoming_text,
    mc_ci,
    num,
    short_unit,
    std_error,
    value,
)
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section

#: how the report shows the model's "the card's own specials" protection value
AS_ON_CARD = "as on card"


def _protection(f: pd.DataFrame) -> pd.Series:
    """The ammo protection of each row: the heat model's ``protection`` parameter, with its
    default (the card's own specials) shown as "as on card"."""
    d = AB.PROTECTION_DEFAULT
    return column_of(f, "protection", d).fillna(d).astype(str).replace(
        {d: AS_ON_CARD, "": AS_ON_CARD})


def ammo_hit_odds() -> tuple[str, str] | None:
    """How often a critical-hit roll is an Ammo Hit, as words: ``("1 in 36", "a 2")``; None
    when the model's table has none (:func:`sim.alphastrike.balance.ammo_hit_odds`)."""
    p, rolls = AB.ammo_hit_odds()
    if p == 0 or not rolls:
        return None
    return f"{p.numerator} in {p.denominator}", "a " + " or ".join(str(r) for r in rolls)


@section("ammo-protection", order=50, legacy=("ammo_protection",))
def build(res: Result) -> Section:
    """Survival under the same incoming fire with each ammo protection (none, CASE, ...)."""
    sec = Section(res)
    f = res.frame.copy()
    pc = "_protection"
    f[pc] = _protection(f)
    prots = AB.ordered_protections(f[pc])
    others = [c for c in ("unit",) if c in f.columns]
    unit = short_unit(f[others[0]].iloc[0]) if others else "the unit"
    last = int(f["turn"].max())
    inc = incoming_text(f["incoming"].iloc[0]) if "incoming" in f.columns else "none"
    base = "none" if "none" in prots else None
    gained = [p for p in prots if p != base] if base else []

    with plots.style():
        ncol = 3 if base and gained else 2
        fig, axes = plots.new_figure(1, ncol, width=5.0 * ncol, height=4.4)
        ax = axes[0, 0]
        for j, p in enumerate(prots):
            g = f[f[pc] == p].sort_values("turn")
            mean, lo, hi = mc_ci(g, "p_destroyed_by")
            ex = exact_of(g, "p_destroyed_by")
            turns = np.concatenate([[0], g["turn"].to_numpy(float)])
            surv = np.concatenate([[100.0], (1 - mean) * 100])
            lo_s = None if hi is None else np.concatenate([[100.0], (1 - hi) * 100])
            hi_s = None if lo is None else np.concatenate([[100.0], (1 - lo) * 100])
            ex_s = None if ex is None else np.concatenate([[100.0], (1 - ex) * 100])
            plots.curve(ax, turns, surv, lo=lo_s, hi=hi_s, exact=ex_s, label=p,
                        color_=plots.color(j), step=True)
        ax.set_xlabel("turn")
        ax.set_ylabel("still operational (%)")
        ax.set_title(f"Survival curve of {unit}")
        ax.set_ylim(0, 102)
        handles, labels = plots.legend_entries(ax, "exact (Markov chain)")
        ax.legend(handles, labels, title="ammo protection", loc="lower left")
        if base and gained:
            # the curves differ by a few points: show the difference itself
            ax = axes[0, 1]
            g0 = f[f[pc] == base].sort_values("turn")
            m0 = mc_ci(g0, "p_destroyed_by")[0]
            e0 = exact_of(g0, "p_destroyed_by")
            s0 = std_error(g0, "p_destroyed_by")
            for j, p in enumerate(prots):
                if p == base:
                    continue
                g = f[f[pc] == p].sort_values("turn")
                m = mc_ci(g, "p_destroyed_by")[0]
                d = (m0 - m) * 100  # survival gain = P(destroyed | none) - P(destroyed | p)
                s1 = std_error(g, "p_destroyed_by")
                band = None if s0 is None or s1 is None else 196 * np.sqrt(s0 ** 2 + s1 ** 2)
                ex = exact_of(g, "p_destroyed_by")
                plots.curve(ax, g["turn"], d, lo=None if band is None else d - band,
                            hi=None if band is None else d + band,
                            exact=None if ex is None or e0 is None else (e0 - ex) * 100,
                            label=p, color_=plots.color(j))
            ax.axhline(0, color="#777777", linewidth=0.8)
            ax.set_xlabel("turn")
            ax.set_ylabel("percentage points")
            ax.set_title(f"Survival gain over '{base}'")
            plots.integer_ticks(ax.xaxis)
            h2, l2 = plots.legend_entries(ax, "exact (Markov chain)")
            ax.legend(h2, l2, loc="upper left")
        ax = axes[0, ncol - 1]
        end = f[f["turn"] == last]
        if base and gained:
            e = end.set_index(pc)
            e = e[~e.index.duplicated()]
            mean, _, _ = mc_ci(e, "expected_turns_survived")
            ex = exact_of(e, "expected_turns_survived")
            se = std_error(e, "expected_turns_survived")
            pos = {p: i for i, p in enumerate(e.index)}
            i0 = pos[base]
            vals = np.array([mean[pos[p]] - mean[i0] for p in gained])
            band = None if se is None else np.array(
                [1.96 * math.hypot(se[pos[p]], se[i0]) for p in gained])
            s = {"values": vals, "lo": None if band is None else vals - band,
                 "hi": None if band is None else vals + band,
                 "exact": None if ex is None else np.array([ex[pos[p]] - ex[i0]
                                                            for p in gained]),
                 "color": plots.color(0)}
            plots.grouped_bars(ax, gained, {"Monte Carlo (95% CI)": s},
                               ylabel="turns", title=f"Expected turns survived: gain over "
                               f"'{base}'", value_fmt="+{:.2f}", legend=False)
        else:
            s = bar_series(end, pc, prots, "expected_turns_survived")
            s["color"] = plots.color(0)
            plots.grouped_bars(ax, prots, {"Monte Carlo (95% CI)": s}, ylabel="turns",
                               title=f"Expected turns survived (of {last})",
                               value_fmt="{:.2f}", legend=False)
        h3, l3 = plots.legend_entries(ax)
        ax.legend(h3, l3, loc="lower right", framealpha=0.9, frameon=True)
        ax.set_xlabel("ammo protection")
        fig.suptitle(f"Ammo protection under the same incoming fire ({unit})")
        plots.footnote(fig, footnote_text(
            res, f"Right: {LEGEND_NOTES['bars']} Incoming fire each turn: {inc}. Differences: "
            f"band / error bar = 95% CI of the difference of two independent estimates.",
            kind="curves"))
        sec.add_figure(fig, "fig_survival", "Survival by ammo protection",
              f"Left: survival curve (chance the unit is not yet destroyed after turn t) of "
              f"{unit} with {and_list(prots)} under identical incoming fire"
              + (f". Middle: how many percentage points more units are still operational "
                 f"than with '{base}'. Right: expected turns survived (of {last}) gained over "
                 f"'{base}'." if base and gained else "; right: expected turns survived."))

    cols = [f"survives {last} turns", "expected turns survived"]
    if base:
        cols.append(f"turns gained over '{base}'")
    tv = pd.DataFrame(index=prots, columns=cols, dtype=float)
    for p in prots:
        g = f[(f[pc] == p) & (f["turn"] == last)]
        if len(g):
            tv.loc[p, cols[0]] = num(AB.survival(g).iloc[0])
            tv.loc[p, cols[1]] = num(value(g, "expected_turns_survived").iloc[0])
    if base:
        tv[cols[2]] = AB.turns_gained(tv[cols[1]], base)
    tab = ColumnTable("survival", f"Survival of {unit} by ammo protection", tv,
                       {cols[0]: fmt_pct, cols[1]: fmt_num, **({cols[2]: fmt_num}
                                                              if base else {})},
                       index_name="protection",
                       note=f"Expected turns survived counts turns up to {last} (a unit "
                       f"still operational after turn {last} counts {last}).")
    sec.tables.append(tab)
    if base and gained:
        best = str(tv.loc[gained, cols[1]].idxmax())
        a, b, gain = tv.loc[base, cols[1]], tv.loc[best, cols[1]], tv.loc[best, cols[2]]
        if finite(a) and finite(b):
            sa, sb, sg = fmt_num(a), fmt_num(b), fmt_num(gain)
            odds = ammo_hit_odds()
            why = (f"An Ammo Hit is only {odds[0]} critical-hit rolls ({odds[1]} on 2D6), "
                   f"and only attacks that damage structure roll for one, so ammo protection "
                   f"changes little: " if odds else "Ammo protection: ")
            sec.findings.append(Finding(
                res.name, f"{why}{unit} survives {sa} turns on average unprotected and {sb} "
                f"with {best}, {sg} turns more, under the same incoming fire.",
                [("survival", base, cols[1], num(a), sa),
                 ("survival", best, cols[1], num(b), sb),
                 ("survival", best, cols[2], num(gain), sg)]))
        if "CASE" in tv.index:
            c = tv.loc["CASE", cols[0]]
            n0 = tv.loc[base, cols[0]]
            if finite(c) and finite(n0):
                sc, sn = fmt_pct(c), fmt_pct(n0)
                sec.findings.append(Finding(
                    res.name, f"The chance to survive all {last} turns is {sn} without "
                    f"protection and {sc} with CASE.",
                    [("survival", "CASE", cols[0], num(c), sc),
                     ("survival", base, cols[0], num(n0), sn)], lead=False))
    return sec
