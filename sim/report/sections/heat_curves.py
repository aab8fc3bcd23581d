"""Report section ``heat-curves``: Alpha Strike overheat policies compared over the turns.
Chance of having shut down, cumulative damage, heat-level distribution, and how water and an
incoming attacker with HT change them.

Policies are ordered by the model (:func:`sim.alphastrike.balance.ordered_policies`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim import plots
from sim.alphastrike.balance import ordered_policies
from sim.report.figures import bar_series
from sim.report.formatting import (
    exact_of,
    finite,
    fmt_num,
    fmt_pct,
    footnote_text,
    mc_ci,
    num,
    short_unit,
    two_lines,
    value,
)
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section, Table


def _condition(row: pd.Series) -> str:
    inc = row.get("incoming")
    has_inc = isinstance(inc, str) and inc not in ("", "[]", "none", "None") or (
        isinstance(inc, list | tuple | np.ndarray) and len(inc) > 0)
    water = bool(row.get("water")) if finite(row.get("water")) or isinstance(
        row.get("water"), bool | np.bool_) else False
    a = "HT attacker" if has_inc else "no attacker"
    return f"{a}, {'in water' if water else 'dry'}"


CONDITION_ORDER = ("no attacker, dry", "no attacker, in water", "HT attacker, dry",
                   "HT attacker, in water")


def _unit_panels(units: Sequence[str]) -> tuple[int, int]:
    n = len(units)
    cols = 2 if n > 1 else 1
    return math.ceil(n / cols), cols


@section("heat-curves", order=40, legacy=("overheat_curves",))
def build(res: Result) -> Section:
    """Shutdown and damage curves per overheat policy, heat levels, water and incoming HT."""
    sec = Section(res)
    f = res.frame.copy()
    f["condition"] = f.apply(_condition, axis=1)
    units = list(dict.fromkeys(f["unit"])) if "unit" in f.columns else ["unit"]
    if "unit" not in f.columns:
        f["unit"] = "unit"
    if "policy" not in f.columns:
        f["policy"] = "default"
    policies = ordered_policies(f["policy"].astype(str))
    conds = [c for c in CONDITION_ORDER if c in set(f["condition"])]
    base_cond = conds[0] if conds else "no attacker, dry"
    # curves show the stochastic case: without incoming fire the heat cycle is deterministic
    curve_cond = "HT attacker, dry" if "HT attacker, dry" in conds else base_cond
    last = int(f["turn"].max())
    foot = footnote_text(res, kind="curves")
    foot_cells = footnote_text(res, kind="cells")
    foot_bars = footnote_text(res)
    nr, nc = _unit_panels(units)

    def unit_title(u: str) -> str:
        """Two lines (unit, then OV and range) so titles never run into the next panel."""
        g = f[f["unit"] == u]
        bits = []
        if "ov" in g.columns and finite(g["ov"].iloc[0]):
            bits.append(f"OV {int(g['ov'].iloc[0])}")
        if "range" in g.columns:
            bits.append(f"{g['range'].iloc[0]} range")
        return short_unit(u) + ("\n" + ", ".join(bits) if bits else "")

    def curves_fig(metric: str, key: str, title: str, ylabel: str, caption: str,
                   scale: float = 1.0, complement: bool = False) -> None:
        with plots.style():
            fig, axes = plots.new_figure(nr, nc, width=10, height=3.2 * nr + 0.8, sharex=True,
                                         sharey=True)
            for k, u in enumerate(units):
                ax = axes[k // nc, k % nc]
                for j, p in enumerate(policies):
                    g = f[(f["unit"] == u) & (f["policy"] == p) & (f["condition"] == curve_cond)]
                    g = g.sort_values("turn")
                    if g.empty:
                        continue
                    mean, lo, hi = mc_ci(g, metric)
                    ex = exact_of(g, metric)
                    if complement:
                        mean = 1 - mean
                        if lo is not None and hi is not None:
                            lo, hi = 1 - hi, 1 - lo
                        ex = None if ex is None else 1 - ex
                    plots.curve(ax, g["turn"], mean * scale,
                                lo=None if lo is None else lo * scale,
                                hi=None if hi is None else hi * scale,
                                exact=None if ex is None else ex * scale, label=p,
                                color_=plots.color(j))
                ax.set_title(unit_title(u))
                plots.integer_ticks(ax.xaxis)
                if k // nc == nr - 1:
                    ax.set_xlabel("turn")
                if k % nc == 0:
                    ax.set_ylabel(ylabel)
            for k in range(len(units), nr * nc):
                axes[k // nc, k % nc].set_visible(False)
            plots.figure_legend(fig, axes[0, 0], "overheat policy", "exact (Markov chain)")
            fig.suptitle(title + f" ({curve_cond})")
            plots.footnote(fig, foot)
            sec.add_figure(fig, key, title, caption)

    if "p_shutdown_by" in f.columns or "p_shutdown_by_exact" in f.columns:
        curves_fig("p_shutdown_by", "fig_shutdown_by", "Chance of having shut down by turn t",
                   "shut down at least once (%)",
                   f"Chance each unit has shut down at least once by the end of turn t, per "
                   f"overheat policy ({curve_cond}; without incoming fire the heat cycle is "
                   f"deterministic, see the policy table).", scale=100.0)
    if "expected_cumulative_damage" in f.columns or \
            "expected_cumulative_damage_exact" in f.columns:
        curves_fig("expected_cumulative_damage", "fig_cumulative_damage",
                   "Cumulative expected damage dealt", "damage dealt (points)",
                   "Expected damage dealt up to turn t (weapon attacks that hit, overheat "
                   "included), per policy: what the heat buys.")

    # heat distribution over time: stacked bars per unit, most aggressive policy
    heat_cols = [f"p_heat_{i}" for i in range(5)]
    if all(c in f.columns or c + "_exact" in f.columns for c in heat_cols):
        hot = policies[-1]
        with plots.style():
            fig, axes = plots.new_figure(nr, nc, width=10, height=3.0 * nr + 0.8, sharex=True,
                                         sharey=True)
            cmap = plots.colormap("viridis")
            colors = [cmap(x) for x in (0.95, 0.7, 0.45, 0.22, 0.0)] + ["#999999"]
            for k, u in enumerate(units):
                ax = axes[k // nc, k % nc]
                g = f[(f["unit"] == u) & (f["policy"] == hot) & (f["condition"] == curve_cond)]
                g = g.sort_values("turn")
                comps = {("S (4, shut down)" if i == 4 else f"heat {i}"):
                         value(g, f"p_heat_{i}").to_numpy() * 100 for i in range(5)}
                comps["destroyed"] = value(g, "p_destroyed_by").fillna(0).to_numpy() * 100
                plots.stacked_bars(ax, [str(int(t)) for t in g["turn"]], comps,
                                   ylabel="units (%)" if k % nc == 0 else "",
                                   title=unit_title(u), colors=colors, legend=False)
                ax.set_ylim(0, 100)
                if k // nc == nr - 1:
                    ax.set_xlabel("turn")
            for k in range(len(units), nr * nc):
                axes[k // nc, k % nc].set_visible(False)
            handles, labels = axes[0, 0].get_legend_handles_labels()
            fig.legend(handles, labels, title="heat after End Phase",
                       loc="outside right center")
            fig.suptitle(f"Heat level after each End Phase, policy '{hot}' ({curve_cond})")
            plots.footnote(fig, foot_cells)
            sec.add_figure(fig, "fig_heat_levels", "Heat-level distribution over time",
                  f"Distribution of the heat level read after each turn's End Phase under "
                  f"policy '{hot}' ({curve_cond}); S = shut down for the next turn.")

    end = f[f["turn"] == last]
    # conditions: shutdown risk at the last turn, one panel per policy
    if len(conds) > 1:
        pr, pc_ = _unit_panels(policies)
        with plots.style():
            fig, axes = plots.new_figure(pr, pc_, width=11, height=3.3 * pr + 0.8,
                                         sharey=True)
            for k, pol in enumerate(policies):
                ax = axes[k // pc_, k % pc_]
                series = {}
                for j, cnd in enumerate(conds):
                    sub = end[(end["policy"] == pol) & (end["condition"] == cnd)]
                    sub = sub.assign(u=sub["unit"].astype(str))
                    s_ = bar_series(sub, "u", units, "p_shutdown_by", scale=100.0)
                    s_["color"] = plots.color(j)
                    series[cnd] = s_
                plots.grouped_bars(ax, [two_lines(short_unit(u)) for u in units],
                                   series, ylabel=f"shut down by turn {last} (%)"
                                   if k % pc_ == 0 else "", title=f"policy '{pol}'",
                                   legend=False)
                ax.set_ylim(0, 105)
            for k in range(len(policies), pr * pc_):
                axes[k // pc_, k % pc_].set_visible(False)
            plots.figure_legend(fig, axes[0, 0], "condition")
            fig.suptitle(f"Chance of having shut down by turn {last}: water and an incoming "
                         "HT attacker")
            plots.footnote(fig, foot_bars)
            sec.add_figure(fig, "fig_conditions", "Shutdown risk: water and HT",
                  f"Chance of having shut down by turn {last} for every policy, with and "
                  "without an incoming attacker with HT, in and out of water.")

    # tables
    cols = [f"damage by turn {last}", f"shut down by turn {last}", "first shutdown turn"]
    idx = [f"{short_unit(u)} / {p}" for u in units for p in policies]
    tv = pd.DataFrame(index=idx, columns=cols, dtype=float)
    for u in units:
        for p in policies:
            g = end[(end["unit"] == u) & (end["policy"] == p) & (end["condition"] == base_cond)]
            if g.empty:
                continue
            key = f"{short_unit(u)} / {p}"
            tv.loc[key, cols[0]] = num(value(g, "expected_cumulative_damage").iloc[0])
            tv.loc[key, cols[1]] = num(value(g, "p_shutdown_by").iloc[0])
            tv.loc[key, cols[2]] = num(value(g, "expected_first_shutdown_turn").iloc[0])
    sec.tables.append(ColumnTable(
        "policies", f"Policies compared ({base_cond})", tv,
        {cols[0]: fmt_num, cols[1]: fmt_pct, cols[2]: fmt_num}, index_name="unit / policy",
        note=f"Damage = expected damage dealt over {last} turns. First shutdown turn = "
        f"expected turn of the first shutdown, counting {last + 1} for a run that never shuts "
        "down."))
    if len(conds) > 1:
        for metric, key, ttl, fmt in (
                ("p_shutdown_by", "conditions", f"Chance of having shut down by turn {last}",
                 fmt_pct),
                ("expected_cumulative_damage", "conditions_damage",
                 f"Expected damage dealt by turn {last}", fmt_num)):
            cv = pd.DataFrame(index=idx, columns=list(conds), dtype=float)
            for u in units:
                for p in policies:
                    for cnd in conds:
                        g = end[(end["unit"] == u) & (end["policy"] == p)
                                & (end["condition"] == cnd)]
                        if len(g):
                            cv.loc[f"{short_unit(u)} / {p}", cnd] = num(
                                value(g, metric).iloc[0])
            sec.tables.append(Table(key, ttl + " by condition", cv, fmt,
                                    index_name="unit / policy"))

    # findings: per unit, the policy that deals the most damage, against never and max
    for i, u in enumerate(units):
        rows = [f"{short_unit(u)} / {p}" for p in policies]
        dmg = tv.loc[rows, cols[0]]
        if not dmg.notna().any():
            continue
        kb = str(dmg.idxmax())
        best_pol = kb.split(" / ", 1)[1]
        quotes = [("policies", kb, cols[0], num(tv.loc[kb, cols[0]]),
                   fmt_num(tv.loc[kb, cols[0]])),
                  ("policies", kb, cols[1], num(tv.loc[kb, cols[1]]),
                   fmt_pct(tv.loc[kb, cols[1]]))]
        text = (f"{short_unit(u)}: over {last} turns policy '{best_pol}' deals the most "
                f"expected damage, {quotes[0][4]}, with a {quotes[1][4]} chance of having shut "
                f"down")
        km = f"{short_unit(u)} / {policies[-1]}"
        if km != kb and finite(tv.loc[km, cols[0]]):
            dm, pm = fmt_num(tv.loc[km, cols[0]]), fmt_pct(tv.loc[km, cols[1]])
            quotes += [("policies", km, cols[0], num(tv.loc[km, cols[0]]), dm),
                       ("policies", km, cols[1], num(tv.loc[km, cols[1]]), pm)]
            text += f"; '{policies[-1]}' deals {dm} and shuts down with probability {pm}"
        sec.findings.append(Finding(res.name, text + ".", quotes, lead=i == 0))
    wet = "no attacker, in water"
    if wet in conds and base_cond in conds:
        cd = sec.table("conditions_damage")
        u0 = short_unit(units[0])
        rows = [r for r in cd.values.index if r.startswith(u0 + " / ")]
        kd = str(cd.values.loc[rows, base_cond].idxmax())
        kw = str(cd.values.loc[rows, wet].idxmax())
        dd, dw = cd.values.loc[kd, base_cond], cd.values.loc[kw, wet]
        if finite(dd) and finite(dw):
            sd, sw = fmt_num(dd), fmt_num(dw)
            pd_, pw = kd.split(" / ", 1)[1], kw.split(" / ", 1)[1]
            text = (f"Water changes the best policy: out of water the {u0} deals the most with "
                    f"'{pd_}' ({sd} by turn {last}), in water with '{pw}' ({sw})."
                    if pd_ != pw else
                    f"In water the {u0}'s most damaging policy stays '{pd_}': {sd} by turn "
                    f"{last} out of water, {sw} in water.")
            sec.findings.append(Finding(
                res.name, text,
                [("conditions_damage", kd, base_cond, num(dd), sd),
                 ("conditions_damage", kw, wet, num(dw), sw)]))
    if len(conds) > 1:
        ct = sec.table("conditions").values
        for other, what in (("no attacker, in water", "standing in water"),
                            ("HT attacker, dry", "an incoming HT attacker")):
            if other not in ct.columns or base_cond not in ct.columns:
                continue
            diff = (ct[other] - ct[base_cond]).abs()
            if not diff.notna().any() or diff.max() == 0:
                continue
            kx = str(diff.idxmax())
            a_, b_ = ct.loc[kx, base_cond], ct.loc[kx, other]
            sa, sb = fmt_pct(a_), fmt_pct(b_)
            unit_k, pol_k = kx.split(" / ", 1)
            sec.findings.append(Finding(
                res.name, f"{what[0].upper() + what[1:]} matters most for the {unit_k} with "
                f"policy "
                f"'{pol_k}': it has shut down by turn {last} with probability {sb}, against "
                f"{sa} with no attacker, out of water.",
                [("conditions", kx, base_cond, num(a_), sa),
                 ("conditions", kx, other, num(b_), sb)], lead=other.startswith("HT")))
    return sec
