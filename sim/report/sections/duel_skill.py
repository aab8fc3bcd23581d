"""Report section ``duel-skill``: what skill buys in a duel (issue 10 "Points value"): the
same card at skills 2-6 against a fixed opponent, beside the PV the skill table charges for
each step (reference 23.1), and the duel outcome curves (the chance each side has been
destroyed by turn t). Numbers from :func:`sim.alphastrike.duel.analysis.skill_table`.
"""

from __future__ import annotations

import math

import pandas as pd

from sim import plots
from sim.alphastrike.duel import analysis as DA
from sim.report.formatting import (
    finite,
    fmt_count,
    fmt_pct,
    footnote_text,
    mc_ci,
    num,
    short_unit,
)
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section


def _fmt_per_pv(v: float) -> str:
    """Score gained per PV point, in percentage points (no unit: the column says it)."""
    return "–" if not finite(v) else f"{100 * float(v):.2f}"


@section("duel-skill", order=100, legacy=("duel_skill",))
def build(res: Result) -> Section:
    """What skill buys: win chance at skills 2-6 against a fixed opponent, PV per step."""
    sec = Section(res)
    d = DA.duels(res.frame)
    t = DA.skill_table(d)
    ranges = DA.ordered_ranges(t["range"])
    units = list(dict.fromkeys(t["unit"]))
    skills = sorted(set(t["skill"]))
    mid = "medium" if "medium" in ranges else ranges[0]
    foot = footnote_text(res, extra=DA.SCORE_NOTE + ".", kind="cells")
    opp = {u: str(t[t["unit"] == u]["opponent"].iloc[0]) for u in units}
    sec.notes.append("Side A is the card at the skill shown; side B, the fixed opponent, is "
                     + "; ".join(f"{short_unit(u)}: {opp[u]}" for u in units) + ". "
                     + DA.SCORE_NOTE[0].upper() + DA.SCORE_NOTE[1:] + ".")
    cols = ["PV", "PV step", *[f"win {r}" for r in ranges], f"score gain {mid}",
            f"gain per PV {mid}"]
    idx = [f"{short_unit(u)} / skill {s}" for u in units for s in skills]
    tv = pd.DataFrame(index=idx, columns=cols, dtype=float)
    for _, r in t.iterrows():
        k = f"{short_unit(r['unit'])} / skill {int(r['skill'])}"
        tv.loc[k, "PV"] = r["pv"]
        tv.loc[k, f"win {r['range']}"] = r["win"]
        if r["range"] == mid:
            tv.loc[k, "PV step"] = r["pv_step"]
            tv.loc[k, f"score gain {mid}"] = r["score_step"]
            tv.loc[k, f"gain per PV {mid}"] = r["score_per_pv"]
    tv = tv.dropna(how="all")
    sec.tables.append(ColumnTable(
        "skill", "What skill buys: the same card at each skill against a fixed opponent", tv,
        {"PV": fmt_count, "PV step": fmt_count, **{f"win {r}": fmt_pct for r in ranges},
         f"score gain {mid}": fmt_pct, f"gain per PV {mid}": _fmt_per_pv},
        index_name="card / skill",
        note="PV = the card's PV at that skill (23.1). PV step = what the table charges for "
        "this skill over the next worse one. Score gain = the score gained by that step (in "
        "percentage points); gain per PV = score gain / PV step (percentage points per PV "
        "point)."))

    with plots.style():
        fig, axes = plots.new_figure(1, len(ranges), width=4.2 * len(ranges) + 2, height=4.2,
                                     sharey=True)
        for n, rg in enumerate(ranges):
            ax = axes[0, n]
            for j, u in enumerate(units):
                g = d[(d["unit_a"] == u) & (d["range"] == rg)].sort_values("skill_a")
                ax.plot(g["skill_a"], g["p_win_a"] * 100, marker="o", markersize=4,
                        color=plots.color(j), label=short_unit(u))
            ax.set_title(f"{rg} range")
            ax.set_xlabel("skill of side A (lower is better)")
            ax.invert_xaxis()
            plots.integer_ticks(ax.xaxis)
            if n == 0:
                ax.set_ylabel("P(side A wins) (%)")
        plots.figure_legend(fig, axes[0, 0], "card (against itself at skill 4)")
        fig.suptitle("What skill buys: win chance against the same card at skill 4")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_skill", "Win chance by skill",
                       "Chance side A wins at each skill against the fixed opponent, per "
                       "range; the x axis runs from worse (6) to better (2) skill.")

    f = res.frame
    if "turn" in f.columns and "p_b_destroyed_by" in f.columns:
        g0 = f[f["range"].astype(str) == mid].copy()
        g0["unit_a"] = [DA.split_label(x)[0] for x in g0["a"]]
        g0["skill_a"] = [DA.split_label(x)[1] for x in g0["a"]]
        nc = 3 if len(units) > 4 else 2 if len(units) > 1 else 1
        nr = math.ceil(len(units) / nc)
        cmap = plots.colormap("viridis")
        with plots.style():
            fig, axes = plots.new_figure(nr, nc, width=4.2 * nc + 2, height=3.2 * nr + 0.8,
                                         sharex=True, sharey=True)
            for m, u in enumerate(units):
                ax = axes[m // nc, m % nc]
                for j, s in enumerate(skills):
                    g = g0[(g0["unit_a"] == u) & (g0["skill_a"] == s)].sort_values("turn")
                    if g.empty:
                        continue
                    mean, lo, hi = mc_ci(g, "p_b_destroyed_by")
                    c = cmap(j / max(len(skills) - 1, 1) * 0.9)
                    plots.curve(ax, g["turn"], mean * 100, lo=None if lo is None else lo * 100,
                                hi=None if hi is None else hi * 100, label=f"skill {s}",
                                color_=c, marker="", step=True)
                    a_dead, _, _ = mc_ci(g, "p_a_destroyed_by")
                    ax.plot(g["turn"], a_dead * 100, color=c, linestyle=":", linewidth=1.0,
                            drawstyle="steps-post")
                ax.set_title(short_unit(u))
                plots.integer_ticks(ax.xaxis)
                if m // nc == nr - 1:
                    ax.set_xlabel("turn")
                if m % nc == 0:
                    ax.set_ylabel("destroyed by turn t (%)")
            for m in range(len(units), nr * nc):
                axes[m // nc, m % nc].set_visible(False)
            plots.figure_legend(fig, axes[0, 0], "side A's skill")
            fig.suptitle(f"Duel outcome curves ({mid} range): the opponent destroyed by "
                         "turn t (solid), side A destroyed (dotted)")
            plots.footnote(fig, footnote_text(res, kind="curves"))
            sec.add_figure(fig, "fig_outcome_curves", "Duel outcome curves",
                           f"At {mid} range: the chance side A has destroyed its opponent by "
                           "the end of turn t (solid, with its 95% band) and the chance side A "
                           "has been destroyed (dotted), for each skill of side A.")

    # findings: the best and worst value per PV of one step, at the middle range
    per = tv[f"gain per PV {mid}"].astype(float)
    if per.notna().any():
        for k, word in ((str(per.idxmax()), "most"), (str(per.idxmin()), "least")):
            u, s = k.split(" / skill ", 1)
            q = [("skill", k, c, num(tv.loc[k, c]), fm(num(tv.loc[k, c]))) for c, fm in
                 ((f"score gain {mid}", fmt_pct), ("PV step", fmt_count),
                  (f"gain per PV {mid}", _fmt_per_pv))]
            if not all(v >= 0 for *_, v, _d in q):
                continue  # quoted numbers are shown unsigned: a loss is not a finding here
            sec.findings.append(Finding(
                res.name, f"At {mid} range skill buys the {word} per PV point for the {u} "
                f"going from skill {int(s) + 1} to {s}: {q[0][4]} more score for {q[1][4]} "
                f"PV ({q[2][4]} percentage points per PV).", q, lead=word == "most"))
    if f"win {mid}" in tv.columns and len(skills) > 1:
        best_s, worst_s = skills[0], skills[-1]
        u0 = short_unit(units[-1])
        kb, kw = f"{u0} / skill {best_s}", f"{u0} / skill {worst_s}"
        if kb in tv.index and kw in tv.index:
            wb, ww = tv.loc[kb, f"win {mid}"], tv.loc[kw, f"win {mid}"]
            if finite(wb) and finite(ww):
                sec.findings.append(Finding(
                    res.name, f"The {u0} wins {fmt_pct(wb)} of its {mid}-range duels at "
                    f"skill {best_s} and {fmt_pct(ww)} at skill {worst_s}, against itself "
                    "at skill 4.",
                    [("skill", kb, f"win {mid}", num(wb), fmt_pct(wb)),
                     ("skill", kw, f"win {mid}", num(ww), fmt_pct(ww))], lead=False))
    return sec
