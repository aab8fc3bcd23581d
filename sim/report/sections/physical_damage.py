"""Report section ``physical-damage``: expected damage of every Classic physical attack by
attacker tonnage and piloting skill, its self-risk, and the best attack for its risk.

Self-risk, net damage and damage per self-risk are the model's balance metrics
(:mod:`sim.classic.balance`); this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from sim import plots
from sim.classic.balance import NET_DEFINITION, RATIO_DEFINITION, RISK_FLOOR, balance_frame
from sim.report.classic import (
    NO_RISK,
    cell_label,
    ordered_attacks,
    risk_label,
    tick_label,
    with_labels,
)
from sim.report.figures import bar_series
from sim.report.formatting import (
    column_of,
    exact_of,
    finite,
    fmt_num,
    footnote_text,
    grid_text,
    middle,
    num,
    pick,
    possible,
)
from sim.report.registry import section
from sim.report.types import Finding, Result, Section, Table


@section("physical-damage", order=10, legacy=("physical_damage",))
def build(res: Result) -> Section:
    """Expected damage, self-risk and the best attack per tonnage and piloting skill."""
    sec = Section(res)
    f = with_labels(res.frame)
    f = f[possible(f)].copy()
    if f.empty:
        sec.notes.append("Every scenario of this experiment was impossible; nothing to plot.")
        return sec
    f = balance_frame(f)  # ev, risk, net, ratio: the model's balance metrics
    attacks = ordered_attacks(f["attack_label"])
    tons_all = sorted(f["tons"].unique())
    pil_all = sorted(f["piloting"].unique())
    moves = sorted(column_of(f, "target_hexes", 0).fillna(0).unique())
    still, moved = moves[0], moves[-1]
    pil = middle(pil_all, 4)
    tons_pick = pick(tons_all, [20, 40, 60, 80, 100])
    tons_text = grid_text(tons_all, "attacker tonnage", "t")
    tt = sorted(column_of(f, "target_tons", 50).dropna().unique())
    target_txt = f"Target: {', '.join(f'{int(x)} t' for x in tt)}, front arc, clear terrain."
    foot = footnote_text(res, f"Attacker piloting {pil}. {target_txt}")
    foot_cells = footnote_text(res, target_txt, kind="cells")

    def move_name(h: Any) -> str:
        return "target stood still" if int(h) == 0 else f"target moved {int(h)} hexes"

    # Figure 1: expected damage per attack, grouped by tonnage, for each target movement.
    with plots.style():
        fig, axes = plots.new_figure(len(moves), 1, width=10, height=3.6 * len(moves),
                                     sharey=True)
        for i, h in enumerate(moves):
            ax = axes[i, 0]
            series = {}
            for j, t in enumerate(tons_pick):
                sub = f[(f["tons"] == t) & (f["piloting"] == pil)
                        & (column_of(f, "target_hexes", 0) == h)]
                s = bar_series(sub, "attack_label", attacks, "expected_damage")
                s["color"] = plots.color(j)
                series[f"{t} t"] = s
            plots.grouped_bars(ax, [tick_label(a) for a in attacks], series,
                               ylabel="expected damage (points)",
                               title=move_name(h).capitalize(), legend=False)
        plots.figure_legend(fig, axes[0, 0], "attacker")
        fig.suptitle("Expected damage per attack declared, by attacker tonnage")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_damage_by_attack", "Expected damage per attack",
              f"Expected damage (points per attack declared, misses count as 0) of every "
              f"physical attack at piloting {pil}, by attacker tonnage; top: target stood "
              f"still, bottom: target moved {int(moved)} hexes.")

    # Figure 2: self-risk beside the reward.
    sub_still = f[column_of(f, "target_hexes", 0) == still]
    with plots.style():
        fig, axes = plots.new_figure(2, 1, width=10, height=7.2)
        series_fall, series_risk = {}, {}
        for j, t in enumerate(tons_pick):
            sub = sub_still[(sub_still["tons"] == t) & (sub_still["piloting"] == pil)]
            s = bar_series(sub, "attack_label", attacks, "p_attacker_falls", scale=100.0)
            s["color"] = plots.color(j)
            series_fall[f"{t} t"] = s
            sr = sub.set_index("attack_label")["risk"]
            sr = sr[~sr.index.duplicated()]
            series_risk[f"{t} t"] = {"values": np.array([sr.get(a, np.nan) for a in attacks]),
                                     "color": plots.color(j)}
        ticks = [tick_label(a) for a in attacks]
        plots.grouped_bars(axes[0, 0], ticks, series_fall, ylabel="attacker falls (%)",
                           title="Chance the attacker falls", legend=False)
        plots.grouped_bars(axes[1, 0], ticks, series_risk,
                           ylabel="self-risk (damage points)",
                           title="Self-risk: expected self-damage + expected fall damage"
                           + (" (exact values)" if exact_of(f, "expected_self_damage")
                              is not None else ""),
                           legend=False)
        plots.figure_legend(fig, axes[0, 0], "attacker")
        fig.suptitle(f"The price of each attack ({move_name(still)})")
        plots.footnote(fig, foot + "\nSelf-risk = expected self-damage (charge, DFA) + "
                       "expected fall damage, per attack declared.")
        sec.add_figure(fig, "fig_self_risk", "Self-risk of each attack",
              "Chance the attacker falls and its self-risk (expected damage points it "
              "inflicts on itself per attack declared: charge/DFA self-damage plus fall "
              "damage) by attack and tonnage.")

    # Tables and Figures 3-4: best attack per tonnage x piloting.
    def best_table(h: Any, crit: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        vals = pd.DataFrame(index=[f"{t} t" for t in tons_all],
                            columns=[f"piloting {p}" for p in pil_all], dtype=float)
        labs = pd.DataFrame(index=vals.index, columns=vals.columns, dtype=object)
        sub = f[column_of(f, "target_hexes", 0) == h]
        for (t, p), g in sub.groupby(["tons", "piloting"]):
            g = g.sort_values([crit, "ev"], ascending=False)
            r = g.iloc[0]
            vals.loc[f"{t} t", f"piloting {p}"] = num(r[crit])
            lab = str(r["attack_label"])
            labs.loc[f"{t} t", f"piloting {p}"] = lab + (NO_RISK if r["risk"] <= 0 else "")
        return vals, labs

    for h in moves:
        v, lab = best_table(h, "ev")
        lab = lab.map(lambda s: s.replace(NO_RISK, "") if isinstance(s, str) else s)
        sec.tables.append(Table(f"best_damage_{int(h)}",
                                f"Best attack by expected damage ({move_name(h)})", v, fmt_num,
                                lab, note="Cell: attack with the highest expected damage "
                                "(points per attack declared).", index_name="attacker"))
    v, lab = best_table(still, "net")
    sec.tables.append(Table("best_net", f"Best attack by net damage: expected damage − "
                            f"self-risk ({move_name(still)})", v, fmt_num, lab,
                            note=NET_DEFINITION + " 'no risk': the attack cannot hurt or fell "
                            "the attacker in that cell.", index_name="attacker"))
    v, lab = best_table(still, "ratio")
    sec.tables.append(Table("best_ratio", f"Best attack by damage per point of self-risk, "
                            f"self-risk floored at {RISK_FLOOR:g} points ({move_name(still)})",
                            v, fmt_num, lab, note=RATIO_DEFINITION + " 'no risk': the attack "
                            "carries no self-risk in that cell (its ratio is its expected "
                            f"damage / {RISK_FLOOR:g}).", index_name="attacker"))
    # compact reward/risk table at piloting pil, target still
    rr = sub_still[sub_still["piloting"] == pil]
    for key, colname, ttl in (
            ("damage_by_attack", "ev", f"Expected damage by attack and tonnage (piloting {pil}, "
             f"{move_name(still)})"),
            ("risk_by_attack", "risk", f"Self-risk by attack and tonnage (piloting {pil}, "
             f"{move_name(still)}; damage points)")):
        tv = pd.DataFrame(index=attacks, columns=[f"{t} t" for t in tons_pick], dtype=float)
        for a in attacks:
            for t in tons_pick:
                g = rr[(rr["attack_label"] == a) & (rr["tons"] == t)]
                if len(g):
                    tv.loc[a, f"{t} t"] = num(g[colname].iloc[0])
        sec.tables.append(Table(key, ttl, tv, fmt_num, index_name="attack"))

    def heat_fig(key: str, panels: Sequence[tuple[str, str, str]], title: str, fig_title: str,
                 caption: str, extra_foot: str = "") -> None:
        with plots.style():
            fig, axes = plots.new_figure(1, len(panels), width=5.4 * len(panels),
                                         height=0.42 * len(tons_all) + 2.4)
            for k, (tkey, ttl, cb) in enumerate(panels):
                t = sec.table(tkey)
                text = np.array([[(f"{cell_label(t.label_frame.loc[r, c])}\n"
                                   f"{t.fmt(t.values.loc[r, c])}"
                                   if finite(t.values.loc[r, c]) else "")
                                  for c in t.values.columns] for r in t.values.index],
                                dtype=object)
                plots.heatmap(axes[0, k], t.values.to_numpy(float), list(t.values.index),
                              [c.replace("piloting ", "") for c in t.values.columns],
                              text=text, cbar_label=cb, xlabel="attacker piloting skill",
                              ylabel="attacker tonnage" if k == 0 else "", title=ttl,
                              fontsize=6.5)
            fig.suptitle(fig_title)
            plots.footnote(fig, foot_cells + ("\n" + extra_foot if extra_foot else ""))
            sec.add_figure(fig, key, title, caption)

    heat_fig("fig_best_attack",
             [(f"best_damage_{int(h)}", move_name(h).capitalize(), "expected damage (points)")
              for h in moves],
             "Best attack per tonnage and piloting", "Most damaging physical attack per "
             "tonnage and piloting skill",
             f"The attack with the highest expected damage in each cell (colour = that "
             f"damage), against a target that stood still and one that moved {int(moved)} "
             f"hexes; {tons_text}.")
    heat_fig("fig_best_risk",
             [("best_net", "By net damage (damage − self-risk)", "net damage (points)"),
              ("best_ratio", f"By damage per self-risk (floor {RISK_FLOOR:g})",
               "damage / max(self-risk, floor)")],
             "Best attack for its risk", f"Best physical attack for its risk "
             f"({move_name(still)})",
             f"The best attack in each cell when self-risk counts. Left: by net damage = "
             f"expected damage − self-risk (points). Right: by expected damage per point of "
             f"self-risk, with self-risk floored at {RISK_FLOOR:g} points so that attacks "
             f"which almost never hurt the attacker (e.g. a kick by a good pilot) do not get "
             f"huge ratios from tiny denominators; 'no risk' marks an attack that carries "
             f"none. {tons_text[0].upper() + tons_text[1:]}.",
             extra_foot=NET_DEFINITION + " " + RATIO_DEFINITION)
    sec.notes.append(f"Grid: {tons_text}; piloting {', '.join(str(p) for p in pil_all)}. "
                     + NET_DEFINITION + " " + RATIO_DEFINITION)

    # Findings
    t0 = sec.table(f"best_damage_{int(still)}")
    vals = t0.values
    r, c = np.unravel_index(np.nanargmax(vals.to_numpy(float)), vals.shape)
    row, col = vals.index[int(r)], vals.columns[int(c)]
    d = t0.fmt(vals.loc[row, col])
    sec.findings.append(Finding(
        res.name, f"The most damaging physical attack is a {t0.label_frame.loc[row, col]} by a "
        f"{row} attacker with {col}: {d} points expected per attack against a target that "
        f"stood still.", [(t0.key, row, col, num(vals.loc[row, col]), d)]))
    light = vals.index[0]
    pc = f"piloting {pil}"
    if pc in vals.columns and finite(vals.loc[light, pc]):
        d = t0.fmt(vals.loc[light, pc])
        sec.findings.append(Finding(
            res.name, f"For the lightest attacker ({light}, {pc}) the best attack is a "
            f"{t0.label_frame.loc[light, pc]} at {d} expected points.",
            [(t0.key, light, pc, num(vals.loc[light, pc]), d)], lead=False))
    tn, tb = sec.table("best_net"), sec.table("best_ratio")
    heavy = tn.values.index[-1]
    if pc in tn.values.columns and finite(tn.values.loc[heavy, pc]) \
            and finite(tb.values.loc[heavy, pc]):
        dn, dr = tn.fmt(tn.values.loc[heavy, pc]), tb.fmt(tb.values.loc[heavy, pc])
        dd = t0.fmt(t0.values.loc[heavy, pc])
        a_d = str(t0.label_frame.loc[heavy, pc])
        a_n, a_r = str(tn.label_frame.loc[heavy, pc]), str(tb.label_frame.loc[heavy, pc])
        net_txt = (f"net of its self-risk the {a_d} stays best ({dn} points)"
                   if a_n.replace(NO_RISK, "") == a_d else
                   f"net of its self-risk a {risk_label(a_n)} is better ({dn} points)")
        rat_txt = (f"per point of self-risk (risk floored at half a point) it is best too "
                   f"({dr})" if a_r.replace(NO_RISK, "") == a_d else
                   f"per point of self-risk (risk floored at half a point) a "
                   f"{risk_label(a_r)} gives the most ({dr})")
        sec.findings.append(Finding(
            res.name, f"Weighing damage against self-risk, for a {heavy} attacker with {pc}: "
            f"a {a_d} deals the most ({dd} points); {net_txt}; {rat_txt}.",
            [(t0.key, heavy, pc, num(t0.values.loc[heavy, pc]), dd),
             (tn.key, heavy, pc, num(tn.values.loc[heavy, pc]), dn),
             (tb.key, heavy, pc, num(tb.values.loc[heavy, pc]), dr)]))
    counts = tb.label_frame.stack().map(lambda s: str(s).replace(NO_RISK, "")).value_counts()
    if len(counts):
        top = counts.index[0]
        sec.findings.append(Finding(
            res.name, f"By damage per point of self-risk the {top} is the best attack in "
            f"{int(counts.iloc[0])} of {int(counts.sum())} tonnage × piloting cells "
            f"(target stood still).", [], lead=False))
    return sec
