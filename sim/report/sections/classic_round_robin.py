"""Report section ``classic-round-robin``: the Classic duel round-robin (model
``classic-duel``, issue 13): the win matrix at each range, a strength rating with intervals,
and "what one hit does" for big single-group weapons against light to assault targets (exact,
:func:`sim.classic.hit_api.hit`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim import plots
from sim.report.formatting import fmt_num, fmt_pct, footnote_text, short_unit, value
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section

#: (weapon, damage of its one group) and (weight class, catalog target) of the hit table.
BIG_HITS: tuple[tuple[str, int], ...] = (("AC/20", 20), ("Gauss rifle", 15), ("PPC", 10))
TARGETS: tuple[tuple[str, str], ...] = (("light", "Locust LCT-1V"),
                                        ("medium", "Hunchback HBK-4G"),
                                        ("heavy", "Catapult CPLT-C1"),
                                        ("assault", "Atlas AS7-D"))


def _case(r: object) -> str:
    """Label of a range case: the brawl (1 hex) or the distance."""
    try:
        d = int(str(r))
    except ValueError:
        return str(r)
    return "brawl (1 hex)" if d == 1 else f"{d} hexes"


def one_hit_table() -> pd.DataFrame | None:
    """P(destroyed) of one group of each big weapon from the front, by target (exact)."""
    try:
        from sim.classic.hit_api import hit

        out = pd.DataFrame(index=[f"{w} ({d})" for w, d in BIG_HITS],
                           columns=[f"{c}: {short_unit(u)}" for c, u in TARGETS], dtype=float)
        for w, d in BIG_HITS:
            for c, u in TARGETS:
                out.loc[f"{w} ({d})", f"{c}: {short_unit(u)}"] = float(
                    hit(u, damage=d, side="front")["p_destroyed"])
        return out
    except Exception:  # noqa: BLE001 - the report still renders without the catalog
        return None


@section("classic-round-robin", order=110, legacy=("classic_round_robin",))
def build(res: Result) -> Section:
    """Win matrices, strength rating and the one-hit table."""
    sec = Section(res)
    f = res.frame.copy()
    last = f[f["turn"] == f["turn"].max()] if "turn" in f.columns else f
    last = last.assign(_case=[_case(r) for r in last["range"]],
                       _a=[short_unit(u) for u in last["unit_a"]],
                       _b=[short_unit(u) for u in last["unit_b"]])
    last = last.assign(_win=value(last, "p_win_a").to_numpy(),
                       _draw=value(last, "p_draw").to_numpy())
    cases = list(dict.fromkeys(last["_case"]))
    units = list(dict.fromkeys(last["_a"]))
    mats = {c: last[last["_case"] == c].pivot_table(index="_a", columns="_b", values="_win")
            .reindex(index=units, columns=units) for c in cases}
    with plots.style():
        fig, axes = plots.new_figure(1, len(cases), width=4.6 * len(cases), height=4.6)
        for j, c in enumerate(cases):
            ax = axes[0, j]
            m = mats[c].to_numpy(float)
            ax.imshow(m, vmin=0, vmax=1, cmap="RdBu")
            ax.set_xticks(range(len(units)), units, rotation=60, ha="right", fontsize=7)
            ax.set_yticks(range(len(units)), units, fontsize=7)
            for (i, k), v in np.ndenumerate(m):
                if np.isfinite(v):
                    ax.text(k, i, f"{v * 100:.0f}", ha="center", va="center", fontsize=6)
            ax.set_title(c)
            ax.set_xlabel("B")
            if j == 0:
                ax.set_ylabel("A")
        fig.suptitle("P(A wins) in percent, every pairing")
        plots.footnote(fig, footnote_text(res, "Cell: chance the row unit (A) destroys the "
                                          "column unit (B) first."))
        sec.add_figure(fig, "fig_win_matrix", "Win matrix",
                       "Chance that the row unit destroys the column unit first, at each "
                       "range and in the brawl.")
    # strength rating: mean score (win + half a draw) against the other 'Mechs, as A
    rows = []
    for u in units:
        row = {}
        for c in cases:
            g = last[(last["_case"] == c) & (last["_a"] == u) & (last["_b"] != u)]
            row[c] = float((g["_win"] + 0.5 * g["_draw"]).mean()) if len(g) else np.nan
        rows.append(row)
    rating = pd.DataFrame(rows, index=units)
    rating["overall"] = rating[cases].mean(axis=1)
    sec.tables.append(ColumnTable(
        "rating", "Strength rating: mean score against the other units (win 1, draw 1/2)",
        rating, {c: fmt_pct for c in rating.columns}, index_name="unit (as A)",
        note="Score of the row unit as side A against every other unit of the round-robin; "
        "each pairing's win chance has a Monte Carlo interval in the results."))
    for c in cases:
        sec.tables.append(ColumnTable(f"wins_{c}", f"P(A wins), {c}", mats[c],
                                      {k: fmt_pct for k in mats[c].columns},
                                      index_name="A vs B"))
    best = str(rating["overall"].idxmax())
    v = float(rating["overall"].to_numpy(float)[list(rating.index).index(best)])
    sec.findings.append(Finding(
        res.name, f"The strongest unit of the round-robin is {best}, with a mean score of "
        f"{fmt_pct(v)} against the others over all ranges.",
        [("rating", best, "overall", v, fmt_pct(v))]))
    hits = one_hit_table()
    if hits is not None:
        sec.tables.append(ColumnTable(
            "one_hit", "What one hit does: P(destroyed) by one group from the front (exact)",
            hits, {k: fmt_pct for k in hits.columns}, index_name="weapon (damage)",
            note="One damage group on a fresh unit, location rolled on the front column "
            "(through-armor criticals, explosions and transfer included): btsim hit."))
        r0, c0 = hits.index[0], hits.columns[0]
        p0 = float(hits.loc[r0, c0])
        sec.findings.append(Finding(
            res.name, f"A single {r0} hit from the front destroys a fresh {c0.split(': ')[1]} "
            f"with probability {fmt_pct(p0)}.",
            [("one_hit", r0, c0, p0, fmt_pct(p0))]))
    if "expected_turns" in last.columns:
        et = value(last, "expected_turns")
        sec.notes.append(f"Duels last {fmt_num(float(et.min()))} to "
                         f"{fmt_num(float(et.max()))} turns on average across pairings.")
    return sec
