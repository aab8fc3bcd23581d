"""Report section ``weapon-fire``: overheat risk curves of Classic 'Mechs firing their weapons
under each firing policy (issue 11, "Report"). Mean heat and the chance of having shut down
per turn, ammunition explosion and "out" curves, the damage the heat buys, and a table at
the last turn.

Policies are ordered by the model (:func:`sim.classic.fire.balance.ordered_policies`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sim import plots
from sim.classic.fire.balance import HEAT_BANDS, heat_bands, hist_rows, ordered_policies
from sim.report.figures import bar_series
from sim.report.formatting import (
    and_list,
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
from sim.report.types import ColumnTable, Finding, Result, Section

#: curves drawn per unit: (metric, y label, scale)
HEAT_ROWS = (("mean_heat", "mean heat", 1.0),
             ("p_shutdown_by", "shut down at least once (%)", 100.0))
AMMO_ROWS = (("p_ammo_explosion_by", "ammo explosion so far (%)", 100.0),
             ("p_out_by", "out (uncontained) so far (%)", 100.0))


def _row_key(unit: str, policy: str) -> str:
    return f"{short_unit(unit)} / {policy}"


def shut_words(tv: pd.DataFrame, row: str, col: str,
               quotes: list[tuple[str, Any, Any, float, str]]) -> str:
    """"never shuts down", or "shuts down with probability P" quoting cell (row, col) of
    the last-turn table (the quote is appended to ``quotes``)."""
    v = tv.loc[row, col]
    if not finite(v) or v == 0:
        return "never shuts down"
    sp = fmt_pct(v)
    quotes.append(("last_turn", row, col, num(v), sp))
    return f"shuts down with probability {sp}"


@section("weapon-fire", order=60, legacy=("weapon_fire",))
def build(res: Result) -> Section:
    """Classic weapon fire: heat, shutdown and ammunition curves per firing policy."""
    sec = Section(res)
    f = res.frame.copy()
    if "unit" not in f.columns:
        f["unit"] = "unit"
    if "policy" not in f.columns:
        f["policy"] = "all"
    f["unit"] = f["unit"].astype(str)
    f["policy"] = f["policy"].astype(str)
    units = list(dict.fromkeys(f["unit"]))
    policies = ordered_policies(f["policy"])
    last = int(f["turn"].max())
    foot = footnote_text(res, kind="curves")

    def set_text() -> str:
        bits = []
        for col, fmt in (("range", "range {}"), ("moved", "attacker {}s")):
            if col in f.columns and f[col].nunique() == 1:
                bits.append(fmt.format(f[col].iloc[0]))
        if "gunnery" in f.columns and f["gunnery"].nunique() == 1:
            bits.append(f"Gunnery {f['gunnery'].iloc[0]}")
        return ", ".join(bits)

    setup = set_text()

    def curves(rows: Sequence[tuple[str, str, float]], key: str, title: str,
               caption: str) -> None:
        rows = [r for r in rows if r[0] in f.columns or r[0] + "_exact" in f.columns]
        if not rows:
            return
        nr, nc = len(rows), len(units)
        with plots.style():
            fig, axes = plots.new_figure(nr, nc, width=max(6.0, 2.05 * nc + 1.6),
                                         height=2.5 * nr + 1.0, sharex=True)
            for i, (metric, ylabel, scale) in enumerate(rows):
                top = 0.0
                for k, u in enumerate(units):
                    ax = axes[i, k]
                    for j, p in enumerate(policies):
                        g = f[(f["unit"] == u) & (f["policy"] == p)].sort_values("turn")
                        if g.empty:
                            continue
                        mean, lo, hi = mc_ci(g, metric)
                        ex = exact_of(g, metric)
                        plots.curve(ax, g["turn"], mean * scale,
                                    lo=None if lo is None else lo * scale,
                                    hi=None if hi is None else hi * scale,
                                    exact=None if ex is None else ex * scale, label=p,
                                    color_=plots.color(j))
                        for arr in (mean, hi, ex):
                            if arr is not None and np.isfinite(arr).any():
                                top = max(top, float(np.nanmax(arr)) * scale)
                    if i == 0:
                        ax.set_title(two_lines(short_unit(u)), fontsize=9)
                    if i == nr - 1:
                        ax.set_xlabel("turn")
                    if k == 0:
                        ax.set_ylabel(ylabel)
                    else:
                        ax.tick_params(labelleft=False)
                    plots.integer_ticks(ax.xaxis)
                upper = 105.0 if scale == 100.0 else max(1.0, top * 1.08)
                for k in range(nc):
                    axes[i, k].set_ylim(-0.02 * upper, upper)
            plots.figure_legend(fig, axes[0, 0], "firing policy", "exact (Markov chain)")
            fig.suptitle(title + (f" ({setup})" if setup else ""))
            plots.footnote(fig, foot)
            sec.add_figure(fig, key, title, caption)

    curves(HEAT_ROWS, "fig_heat_shutdown", "Heat and shutdown per turn",
           "Top: mean heat after each turn's heat phase; bottom: chance of having shut down at "
           "least once by the end of turn t. One panel per 'Mech, one line per firing policy.")
    curves(AMMO_ROWS, "fig_ammo", "Ammunition explosions per turn",
           "Top: chance that heat has cooked off an ammunition bin by the end of turn t; "
           "bottom: chance that such an explosion has put the 'Mech out (no CASE to contain "
           "it). One panel per 'Mech, one line per firing policy.")

    # time spent in each band of the heat scale, averaged over the turns
    if "heat_hist" in f.columns or "heat_hist_exact" in f.columns:
        with plots.style():
            fig, axes = plots.new_figure(1, len(units), width=max(6.0, 2.05 * len(units) + 2.6),
                                         height=4.0, sharey=True)
            cmap = plots.colormap("inferno")
            colors = [cmap(x) for x in np.linspace(0.92, 0.15, len(HEAT_BANDS))]
            for k, u in enumerate(units):
                comps: dict[str, list[float]] = {b[0]: [] for b in HEAT_BANDS}
                for p in policies:
                    g = f[(f["unit"] == u) & (f["policy"] == p)]
                    hh = hist_rows(g, "heat_hist")
                    band = heat_bands(hh).mean(axis=0) * 100 if hh is not None else \
                        np.full(len(HEAT_BANDS), np.nan)
                    for b, v in zip(HEAT_BANDS, band, strict=True):
                        comps[b[0]].append(float(v))
                plots.stacked_bars(axes[0, k], policies, comps,
                                   ylabel="share of turns (%)" if k == 0 else "",
                                   title=two_lines(short_unit(u)), colors=colors, legend=False)
                axes[0, k].set_ylim(0, 100)
                axes[0, k].tick_params(axis="x", labelrotation=60, labelsize=8)
            handles, labels = axes[0, 0].get_legend_handles_labels()
            fig.legend(handles, labels, title="heat after the heat phase",
                       loc="outside right center")
            fig.suptitle(f"Where the heat sits: share of the {last} turns in each band of the "
                         "heat scale")
            plots.footnote(fig, footnote_text(res, kind="cells"))
            sec.add_figure(fig, "fig_heat_bands", "Heat bands",
                           f"Share of the {last} turns each 'Mech ends in each band of the heat "
                           "scale (heat after the heat phase, averaged over the turns), per "
                           "firing policy: no effect, slowed with to-hit penalties, shutdown "
                           "rolls, ammunition explosion rolls too, automatic shutdown.")

    end = f[f["turn"] == last]
    cols = [f"damage by turn {last}", f"shut down by turn {last}",
            f"ammo explosion by turn {last}", f"out by turn {last}", f"mean heat, turn {last}"]
    metrics = ["expected_cumulative_damage", "p_shutdown_by", "p_ammo_explosion_by",
               "p_out_by", "mean_heat"]
    fmts = [fmt_num, fmt_pct, fmt_pct, fmt_pct, fmt_num]
    idx = [_row_key(u, p) for u in units for p in policies]
    tv = pd.DataFrame(np.nan, index=idx, columns=cols, dtype=float)
    for u in units:
        for p in policies:
            g = end[(end["unit"] == u) & (end["policy"] == p)]
            if g.empty:
                continue
            for c, m in zip(cols, metrics, strict=True):
                tv.loc[_row_key(u, p), c] = num(value(g, m).iloc[0])
    tab = ColumnTable("last_turn", f"Every unit and firing policy after {last} turns", tv,
                      dict(zip(cols, fmts, strict=True)), index_name="'Mech / policy",
                      note=f"Damage = expected damage dealt over {last} turns. Shut down, ammo "
                      f"explosion and out = chance it has happened at least once by turn "
                      f"{last}; out = an ammunition explosion not contained by CASE. Mean "
                      f"heat after the heat phase of turn {last}.")
    sec.tables.append(tab)

    # damage the heat buys: grouped bars, one group per unit
    with plots.style():
        fig, axes = plots.new_figure(1, 1, width=max(7.0, 1.5 * len(units) + 2.5), height=4.6)
        series = {}
        for j, p in enumerate(policies):
            sub = end[end["policy"] == p]
            s = bar_series(sub, "unit", units, "expected_cumulative_damage")
            s["color"] = plots.color(j)
            series[p] = s
        plots.grouped_bars(axes[0, 0], [two_lines(short_unit(u)) for u in units], series,
                           ylabel="expected damage dealt (points)",
                           title=f"Damage dealt over {last} turns", legend_title="firing policy",
                           exact_label="exact (Markov chain)")
        plots.footnote(fig, footnote_text(res))
        sec.add_figure(fig, "fig_damage", f"Damage over {last} turns",
                       f"Expected damage dealt over {last} turns by each 'Mech under each "
                       "firing policy: what the heat buys.")

    # findings: per unit, the policy that deals the most; and what 'all' costs
    c_d, c_s, c_a, c_o = cols[:4]
    gaps: dict[str, float] = {}
    per_unit: list[Finding] = []
    for u in units:
        rows = [_row_key(u, p) for p in policies]
        dmg = tv.loc[rows, c_d]
        if not dmg.notna().any():
            continue
        kb = str(dmg.idxmax())
        best = kb.split(" / ", 1)[1]
        sd = fmt_num(tv.loc[kb, c_d])
        quotes = [("last_turn", kb, c_d, num(tv.loc[kb, c_d]), sd)]
        if dmg.nunique() == 1:
            text = (f"{short_unit(u)}: every policy deals the same {sd} over {last} turns "
                    f"(the policies choose the same weapons)")
            per_unit.append(Finding(res.name, text + ".", quotes, lead=False))
            continue

        text = (f"{short_unit(u)}: policy '{best}' deals the most damage over {last} turns, "
                f"{sd}, and {shut_words(tv, kb, c_s, quotes)}")
        hot = policies[-1]
        kh = _row_key(u, hot)
        if kh != kb and kh in tv.index and finite(tv.loc[kh, c_d]):
            hd = fmt_num(tv.loc[kh, c_d])
            quotes.append(("last_turn", kh, c_d, num(tv.loc[kh, c_d]), hd))
            hot_parts = [f"deals {hd}", shut_words(tv, kh, c_s, quotes)]
            if finite(tv.loc[kh, c_a]) and num(tv.loc[kh, c_a]) > 0:
                ha = fmt_pct(tv.loc[kh, c_a])
                quotes.append(("last_turn", kh, c_a, num(tv.loc[kh, c_a]), ha))
                hot_parts.append(f"cooks off its ammunition with probability {ha}")
                if finite(tv.loc[kh, c_o]) and num(tv.loc[kh, c_o]) < num(tv.loc[kh, c_a]):
                    ho = fmt_pct(tv.loc[kh, c_o])
                    quotes.append(("last_turn", kh, c_o, num(tv.loc[kh, c_o]), ho))
                    hot_parts[-1] += f" (contained: put out with probability {ho})"
            text += f"; '{hot}' " + and_list(hot_parts)
            gaps[u] = num(tv.loc[kb, c_d]) - num(tv.loc[kh, c_d])
        elif kh == kb:
            text += f" ('{hot}' is the best policy)"
        per_unit.append(Finding(res.name, text + ".", quotes, lead=False))
    if gaps:
        worst = max(gaps, key=lambda k: gaps[k])
        for fd in per_unit:
            if fd.text.startswith(short_unit(worst) + ":"):
                fd.lead = True
    elif per_unit:
        per_unit[0].lead = True
    sec.findings.extend(per_unit)

    hot = policies[-1]
    rows_h = [_row_key(u, hot) for u in units if _row_key(u, hot) in tv.index
              and finite(tv.loc[_row_key(u, hot), c_s])]
    if rows_h:
        shut = [r for r in rows_h if num(tv.loc[r, c_s]) > 0]
        never = [r for r in rows_h if num(tv.loc[r, c_s]) == 0]
        quotes = []
        parts = []
        for r in sorted(shut, key=lambda r: -num(tv.loc[r, c_s])):
            s_ = fmt_pct(tv.loc[r, c_s])
            quotes.append(("last_turn", r, c_s, num(tv.loc[r, c_s]), s_))
            parts.append(f"the {r.split(' / ', 1)[0]} ({s_})")
        if parts:
            text = (f"Firing under '{hot}', {len(shut)} of the {len(rows_h)} 'Mechs risk a "
                    f"shutdown within {last} turns: " + and_list(parts))
        else:
            text = f"Firing under '{hot}', none of the {len(rows_h)} 'Mechs shuts down"
        if never and parts:
            text += ("; the " + and_list([r.split(" / ", 1)[0] for r in never])
                     + " never shut down")
        out = [r for r in rows_h if finite(tv.loc[r, c_o]) and num(tv.loc[r, c_o]) > 0]
        if out:
            r = max(out, key=lambda r: num(tv.loc[r, c_o]))
            so = fmt_pct(tv.loc[r, c_o])
            quotes.append(("last_turn", r, c_o, num(tv.loc[r, c_o]), so))
            text += (f". The worst ammunition risk is the {r.split(' / ', 1)[0]}'s: put out by "
                     f"a heat-induced explosion with probability {so}")
        sec.findings.insert(0, Finding(res.name, text + ".", quotes, lead=True))
    return sec
