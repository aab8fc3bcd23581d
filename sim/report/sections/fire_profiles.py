"""Report section ``fire-profiles``: damage versus range of Classic 'Mechs (issue 11,
"Report"). Small multiples of the maximum, hit-weighted and sustained (heat carried) damage
per turn at every range, and the catalog ranked by sustained damage at one range with its
95% interval, beside the hit-ignoring and hit-weighted columns and their ranks.

Definitions (ranks, the range read, policy order) live in :mod:`sim.classic.fire.balance`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from sim import plots
from sim.classic.fire import balance as FB
from sim.report.formatting import (
    and_list,
    exact_of,
    finite,
    fmt_num,
    footnote_text,
    mc_ci,
    num,
    short_unit,
    two_lines,
    value,
)
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section

MAX_COLOR = "#888888"
HW_COLOR = "#444444"


def fmt_rank(v: Any) -> str:
    """A rank as a whole number."""
    return "–" if not finite(v) else f"{int(round(float(v)))}"


@section("fire-profiles", order=70, legacy=("fire_profiles",))
def build(res: Result) -> Section:
    """Damage versus range of the catalog, and its ranking by sustained damage at one range."""
    sec = Section(res)
    f = res.frame.copy()
    if "policy" not in f.columns:
        f["policy"] = "all"
    f["unit"] = f["unit"].astype(str)
    f["policy"] = f["policy"].astype(str)
    units = list(dict.fromkeys(f["unit"]))
    # the hottest policy first: 'all' is what the hit-ignoring column assumes
    policies = list(reversed(FB.ordered_policies(f["policy"])))
    main = policies[0]
    turns = int(f["turns"].iloc[0]) if "turns" in f.columns else 0
    per_turn = f"per turn over {turns} turns" if turns else "per turn"

    # small multiples: one panel per unit
    nc = 4 if len(units) > 6 else max(1, min(3, len(units)))
    nr = math.ceil(len(units) / nc)
    with plots.style():
        fig, axes = plots.new_figure(nr, nc, width=3.0 * nc + 1.8, height=2.5 * nr + 1.0)
        for k, u in enumerate(units):
            ax = axes[k // nc, k % nc]
            g0 = f[(f["unit"] == u) & (f["policy"] == main)].sort_values("range")
            if g0.empty:
                g0 = f[f["unit"] == u].drop_duplicates("range").sort_values("range")
            x = g0["range"].to_numpy(float)
            ax.plot(x, value(g0, "max_damage").to_numpy(float), color=MAX_COLOR,
                    linestyle=":", linewidth=1.6, label="max damage (all hit)")
            ax.plot(x, value(g0, "hit_weighted").to_numpy(float), color=HW_COLOR,
                    linewidth=1.3, label="hit-weighted (one turn)")
            for j, p in enumerate(policies):
                g = f[(f["unit"] == u) & (f["policy"] == p)].sort_values("range")
                if g.empty:
                    continue
                mean, lo, hi = mc_ci(g, "sustained")
                plots.curve(ax, g["range"], mean, lo=lo, hi=hi,
                            exact=exact_of(g, "sustained"), label=f"sustained, '{p}'",
                            color_=plots.color(j), marker="")
            ax.set_title(short_unit(u), fontsize=9)
            ax.set_ylim(bottom=0)
            plots.integer_ticks(ax.xaxis)
            if k // nc == nr - 1 or k + nc >= len(units):
                ax.set_xlabel("range (hexes)")
            if k % nc == 0:
                ax.set_ylabel("damage (points)")
        for k in range(len(units), nr * nc):
            axes[k // nc, k % nc].set_visible(False)
        plots.figure_legend(fig, axes[0, 0], "damage per turn", "exact (Markov chain)")
        fig.suptitle("Damage versus range")
        plots.footnote(fig, footnote_text(res, kind="curves"))
        sec.add_figure(fig, "fig_profiles", "Damage versus range",
                       f"For every range from 1 to the 'Mech's longest: the damage if every "
                       f"forward weapon in range hits (max damage, the hit-ignoring number), "
                       f"one turn's expected damage at Gunnery 4 with no heat (hit-weighted), "
                       f"and btsim's sustained expected damage {per_turn} with heat, "
                       f"shutdowns, jams and ammunition carried (one line per firing policy).")

    # the ranking at one range
    rng = FB.closest_range(f["range"], FB.RANK_RANGE)
    prof = FB.profile_at(f, rng, units, policies)
    c_max, c_hw = "max damage", "hit-weighted"
    r_max, r_hw = "rank (max)", "rank (hit-weighted)"
    c_s = {p: f"sustained, '{p}'" for p in policies}
    r_s = {p: f"rank ('{p}')" for p in policies}
    lo_c, hi_c = "95% CI low", "95% CI high"
    cols = [c_s[main], lo_c, hi_c, r_s[main], c_hw, r_hw, c_max, r_max]
    for p in policies[1:]:
        cols += [c_s[p], r_s[p]]
    tv = pd.DataFrame(np.nan, index=units, columns=cols, dtype=float)
    tv[c_max] = prof["max_damage"]
    tv[c_hw] = prof["hit_weighted"]
    tv[r_max] = FB.rank_desc(tv[c_max])
    tv[r_hw] = FB.rank_desc(tv[c_hw])
    for p in policies:
        tv[c_s[p]] = prof[f"sustained|{p}"]
        tv[r_s[p]] = FB.rank_desc(tv[c_s[p]])
    tv[lo_c] = prof[f"sustained_ci_low|{main}"]
    tv[hi_c] = prof[f"sustained_ci_high|{main}"]
    tv = tv.sort_values([r_s[main], c_hw], ascending=[True, False])
    tv.index = [short_unit(u) for u in tv.index]
    fmts = {c: (fmt_rank if c.startswith("rank") else fmt_num) for c in cols}
    sec.tables.append(ColumnTable(
        "ranking", f"The catalog ranked by sustained damage at range {rng}", tv, fmts,
        index_name="'Mech",
        note=f"Expected damage per turn at {rng} hexes, Gunnery 4, both 'Mechs standing. "
        f"Sustained = averaged over {turns} turns with heat carried, under the firing policy "
        f"named; 95% CI = Monte Carlo interval of the '{main}' column (the value shown is "
        f"exact where the Markov chain gives it). Hit-weighted = one turn, no heat. Max "
        f"damage = every forward weapon in range hits (the hit-ignoring number). Rank 1 = "
        f"most damage; ties share a rank. A 'Mech out of range deals 0."))

    # ranking bars: the three numbers side by side, in the ranking's order
    with plots.style():
        fig, axes = plots.new_figure(1, 1, width=max(8.0, 0.85 * len(units) + 3.0), height=4.8)
        x = np.arange(len(tv))
        ax = axes[0, 0]
        by_short = prof.set_index(pd.Index([short_unit(u) for u in prof.index]))
        nser = 2 + len(policies)
        w = 0.8 / nser
        ax.bar(x - 0.4 + w * 0.5, tv[c_max].to_numpy(float), width=w * 0.92, color="#cccccc",
               label=c_max)
        ax.bar(x - 0.4 + w * 1.5, tv[c_hw].to_numpy(float), width=w * 0.92, color=HW_COLOR,
               label=c_hw)
        for j, p in enumerate(policies):
            vals = tv[c_s[p]].to_numpy(float)
            ci = by_short.loc[tv.index]
            l_ = ci[f"sustained_ci_low|{p}"].to_numpy(float)
            h_ = ci[f"sustained_ci_high|{p}"].to_numpy(float)
            err = None
            if np.isfinite(l_).any():
                err = np.vstack([np.clip(vals - np.where(np.isfinite(l_), l_, vals), 0, None),
                                 np.clip(np.where(np.isfinite(h_), h_, vals) - vals, 0, None)])
            ax.bar(x - 0.4 + w * (2.5 + j), vals, width=w * 0.92, color=plots.color(j),
                   label=c_s[p], yerr=err, error_kw={"elinewidth": 0.9, "ecolor": "#333333"})
        ax.set_xticks(x)
        ax.set_xticklabels([two_lines(u) for u in tv.index], fontsize=8)
        ax.grid(axis="x", visible=False)
        ax.set_ylabel(f"expected damage per turn at range {rng}")
        ax.set_title(f"Catalog at range {rng}, ordered by sustained damage under '{main}'")
        ax.legend(loc="upper right", fontsize=8)
        plots.footnote(fig, footnote_text(res, "Sustained: exact value, error bar = Monte "
                                          "Carlo 95% CI.", kind="cells"))
        sec.add_figure(fig, "fig_ranking", f"Ranking at range {rng}",
                       f"Max damage, hit-weighted and sustained expected damage per turn at "
                       f"range {rng}, 'Mechs in the order of the ranking table.")

    # findings
    top = str(tv.index[0])
    top_max = str(tv[c_max].idxmax())
    q = [("ranking", top, c_s[main], num(tv.loc[top, c_s[main]]),
          fmt_num(tv.loc[top, c_s[main]]))]
    text = (f"At range {rng} the {top} deals the most sustained damage under '{main}', "
            f"{q[0][4]} per turn over {turns} turns")
    if finite(tv.loc[top, lo_c]):
        sl, sh = fmt_num(tv.loc[top, lo_c]), fmt_num(tv.loc[top, hi_c])
        q += [("ranking", top, lo_c, num(tv.loc[top, lo_c]), sl),
              ("ranking", top, hi_c, num(tv.loc[top, hi_c]), sh)]
        text += f" (95 per cent Monte Carlo interval {sl} to {sh})"
    if top_max != top:
        sm = fmt_num(tv.loc[top_max, c_max])
        q.append(("ranking", top_max, c_max, num(tv.loc[top_max, c_max]), sm))
        text += (f"; the hit-ignoring column would put the {top_max} first with {sm} "
                 f"points")
    sec.findings.append(Finding(res.name, text + ".", q, lead=True))

    drop = tv[c_hw] - tv[c_s[main]]
    if drop.notna().any() and drop.max() > 0:
        d = str(drop.idxmax())
        a, b = fmt_num(tv.loc[d, c_hw]), fmt_num(tv.loc[d, c_s[main]])
        ra, rb = fmt_rank(tv.loc[d, r_hw]), fmt_rank(tv.loc[d, r_s[main]])
        q = [("ranking", d, c_hw, num(tv.loc[d, c_hw]), a),
             ("ranking", d, c_s[main], num(tv.loc[d, c_s[main]]), b)]
        text = (f"The {d} loses the most once heat is carried from turn to turn: from {a} "
                f"hit-weighted to {b} sustained under '{main}' at range {rng} (rank {ra} to "
                f"rank {rb})")
        fall = tv[r_s[main]] - tv[r_hw]
        fr = str(fall.idxmax())
        if fall.notna().any() and fall.max() > 0 and fr != d:
            fa, fb = fmt_num(tv.loc[fr, c_hw]), fmt_num(tv.loc[fr, c_s[main]])
            q += [("ranking", fr, c_hw, num(tv.loc[fr, c_hw]), fa),
                  ("ranking", fr, c_s[main], num(tv.loc[fr, c_s[main]]), fb)]
            text += (f"; the {fr} falls furthest in the ranking, from rank "
                     f"{fmt_rank(tv.loc[fr, r_hw])} to {fmt_rank(tv.loc[fr, r_s[main]])} "
                     f"({fa} to {fb})")
        flat = [u for u in tv.index if abs(num(drop[u])) < 1e-9]
        if flat:
            text += (f". For the {and_list(flat)} the two are equal: "
                     f"heat never costs {'it' if len(flat) == 1 else 'them'} damage "
                     f"firing everything at that range")
        sec.findings.append(Finding(res.name, text + ".", q, lead=True))

    for p in policies[1:]:
        gain = tv[c_s[p]] - tv[c_s[main]]
        better = [u for u in tv.index if finite(gain[u]) and gain[u] > 1e-9]
        if not better:
            sec.findings.append(Finding(
                res.name, f"At range {rng} policy '{p}' never deals more sustained damage than "
                f"'{main}'.", [], lead=False))
            continue
        g = max(better, key=lambda u: num(gain[u]))
        a, b = fmt_num(tv.loc[g, c_s[p]]), fmt_num(tv.loc[g, c_s[main]])
        sec.findings.append(Finding(
            res.name, f"Holding back pays: policy '{p}' deals more sustained damage than "
            f"'{main}' at range {rng} for {len(better)} of the {len(tv)} 'Mechs, most for the "
            f"{g} ({a} against {b} per turn).",
            [("ranking", g, c_s[p], num(tv.loc[g, c_s[p]]), a),
             ("ranking", g, c_s[main], num(tv.loc[g, c_s[main]]), b)], lead=False))
    return sec
