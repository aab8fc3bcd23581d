"""Report section ``real-units``: catalog 'Mechs in melee against each other. Each unit's
best legal physical attack (by damage and net of self-risk), per match-up and averaged over
the targets, and the attacks a unit cannot make with the model's reason.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pandas as pd

from sim import plots
from sim.classic.balance import balance_frame
from sim.report.classic import (
    attack_sort_key,
    cell_label,
    ordered_attacks,
    reason_text,
    with_labels,
)
from sim.report.figures import bar_series
from sim.report.formatting import (
    and_list,
    finite,
    fmt_num,
    footnote_text,
    num,
    possible,
    short_unit,
    two_lines,
)
from sim.report.registry import section
from sim.report.types import Finding, Result, Section, Table


@section("real-units", order=30, legacy=("real_units_melee",))
def build(res: Result) -> Section:
    """Catalog units in melee: each unit's best legal attack and why others are impossible."""
    sec = Section(res)
    f = with_labels(res.frame)
    f["possible"] = possible(f)
    f = balance_frame(f)  # ev, risk, net: the model's balance metrics
    att_col = "attacker" if "attacker" in f.columns else "tons"
    tgt_col = "target" if "target" in f.columns else "target_tons"
    attackers = [str(a) for a in dict.fromkeys(f[att_col])]
    targets = [str(t) for t in dict.fromkeys(f[tgt_col])]
    f[att_col] = f[att_col].astype(str)
    f[tgt_col] = f[tgt_col].astype(str)
    attacks = ordered_attacks(f["attack_label"])
    n_t = len(targets)
    foot = footnote_text(res, "Net = expected damage dealt − attacker's self-risk "
                         "(self-damage + fall damage).", kind="cells")
    foot_bars = footnote_text(res)
    ok = f[f["possible"]]

    # per match-up: the best legal attack by net damage
    vn = pd.DataFrame(index=attackers, columns=targets, dtype=float)
    ln = pd.DataFrame(index=attackers, columns=targets, dtype=object)
    for (a, t), g in ok.groupby([att_col, tgt_col], sort=False):
        g = g.sort_values(["net", "ev"], ascending=False)
        vn.loc[a, t] = num(g["net"].iloc[0])
        ln.loc[a, t] = g["attack_label"].iloc[0]

    # per unit: the best legal attack, averaged over the targets
    per = ok.groupby([att_col, "attack_label"], sort=False)[["ev", "net"]].mean()
    cols = ["most damaging attack", "best net of self-risk"]
    bu = pd.DataFrame(index=attackers, columns=cols, dtype=float)
    bl = pd.DataFrame(index=attackers, columns=cols, dtype=object)
    for a in attackers:
        if a not in per.index.get_level_values(0):
            bl.loc[a, cols[0]] = bl.loc[a, cols[1]] = "no legal attack"
            continue
        g = cast(pd.DataFrame, per.loc[a])
        for col, crit, other in ((cols[0], "ev", "net"), (cols[1], "net", "ev")):
            k = g.sort_values([crit, other], ascending=False).index[0]
            bu.loc[a, col] = num(g.loc[k, crit])
            bl.loc[a, col] = k
    sec.tables.append(Table("best_per_unit", f"Best legal attack of each unit, averaged over "
                            f"the {n_t} targets", bu, fmt_num, bl, index_name="attacker",
                            note="Most damaging: highest expected damage dealt (points per "
                            "attack declared, misses count as 0). Best net: highest expected "
                            "damage − self-risk (the attacker's expected self-damage plus "
                            "expected fall damage). Both averaged over the targets."))
    sec.tables.append(Table("best_net", "Best legal attack by net damage (damage dealt − "
                            "self-risk): attacker (row) against target (column)", vn, fmt_num,
                            ln, index_name="attacker",
                            note="Self-risk = the attacker's expected self-damage plus "
                            "expected fall damage; a charge's self-damage grows with the "
                            "target's tonnage, so the best attack can change with the target."))

    # legal attacks: attacker x attack, averaged over targets; why the others are impossible
    leg = pd.DataFrame(index=attackers, columns=attacks, dtype=float)
    leg_l = pd.DataFrame(index=attackers, columns=attacks, dtype=object)
    why: dict[tuple[str, str], list[str]] = {}
    for (a_, lab_), g in f.groupby([att_col, "attack_label"], sort=False):
        a, lab = str(a_), str(lab_)
        good = g[g["possible"]]
        if len(good):
            leg.loc[a, lab] = num(good["ev"].mean())
            continue
        leg_l.loc[a, lab] = "impossible"
        reasons = g["impossible"].dropna().astype(str)
        miss = g["missing"].iloc[0] if "missing" in g.columns else ""
        text = reason_text(reasons.iloc[0], a, miss) if len(reasons) else "not allowed"
        why.setdefault((lab, text), []).append(a)
    sec.tables.append(Table("legal_attacks", f"Expected damage of each legal attack, averaged "
                            f"over the {n_t} targets", leg, fmt_num, leg_l,
                            index_name="attacker", note="'impossible': the unit cannot make "
                            "that attack (see the next table for why)."))
    if why:
        keys = sorted(why, key=lambda k: (attack_sort_key(k[0]), k[1]))
        iv = pd.DataFrame(index=[f"{lab}: {r}" for lab, r in keys],
                          columns=["impossible for", "can make it"], dtype=float)
        il = pd.DataFrame(index=iv.index, columns=iv.columns, dtype=object)
        for (lab, r), idx in zip(keys, iv.index, strict=True):
            il.loc[idx, "impossible for"] = ", ".join(short_unit(u) for u in why[(lab, r)])
            can = [short_unit(u) for u in attackers if finite(leg.loc[u, lab])]
            il.loc[idx, "can make it"] = ", ".join(can) or "none"
        sec.tables.append(Table("impossible", "Attacks a unit cannot make, and why", iv,
                                fmt_num, il, index_name="attack: reason (from the rules "
                                "model)"))

    with plots.style():
        fig, axes = plots.new_figure(1, 1, width=2.8 + 1.5 * len(targets),
                                     height=1.8 + 0.62 * len(attackers))
        cells = np.array([[(f"{cell_label(ln.loc[r, c])}\n{fmt_num(vn.loc[r, c])}"
                            if finite(vn.loc[r, c]) else "none") for c in vn.columns]
                          for r in vn.index], dtype=object)
        plots.heatmap(axes[0, 0], vn.to_numpy(float), [short_unit(a) for a in vn.index],
                      [two_lines(short_unit(t)) for t in vn.columns], text=cells,
                      cbar_label="net damage (points)", xlabel="target", ylabel="attacker",
                      title="Best legal physical attack by net damage", fontsize=7.5)
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_best_matchups", "Best attack per match-up",
              "For every attacker (row) and target (column): the legal physical attack with "
              "the highest net damage (expected damage dealt minus the attacker's self-risk) "
              "and that net damage; 'none' = no legal attack.")

    def tons_of(name: str) -> float:
        g = f[f[tgt_col] == name]
        return num(g["target_tons"].iloc[0]) if "target_tons" in g.columns else 0.0

    pick = sorted(targets, key=tons_of)
    pick = [pick[0], pick[-1]] if len(pick) > 1 else pick
    with plots.style():
        fig, axes = plots.new_figure(len(pick), 1, width=11, height=3.8 * len(pick),
                                     sharey=True)
        for i, tname in enumerate(pick):
            sub = f[(f[tgt_col] == tname)]
            series = {}
            for j, lab in enumerate(attacks):
                s = sub[sub["attack_label"] == lab]
                ser = bar_series(s, att_col, attackers, "expected_damage")
                okm = s.set_index(att_col)["possible"]
                mask = np.array([bool(okm.get(a, False)) for a in attackers])
                for k in ("values", "lo", "hi", "exact"):
                    if ser.get(k) is not None:
                        ser[k] = np.where(mask, ser[k], np.nan)
                ser["color"] = plots.color(j)
                series[lab] = ser
            plots.grouped_bars(axes[i, 0], [short_unit(a) for a in attackers], series,
                               ylabel="expected damage (points)",
                               title=f"Against {short_unit(tname)}", legend=False,
                               mark_missing="impossible")
        plots.figure_legend(fig, axes[0, 0], "attack")
        fig.suptitle("Expected damage of each attack (missing bar = impossible)")
        plots.footnote(fig, foot_bars)
        sec.add_figure(fig, "fig_unit_attacks", "Legal attacks against a light and a heavy target",
              "Expected damage per attack declared, for each unit's legal attacks against the "
              "lightest and the heaviest target; 'impossible' marks an attack the unit cannot "
              "make.")

    # findings: each unit's best attack, by damage and net of self-risk
    tab = sec.table("best_per_unit")
    for col, what in ((cols[0], "most damaging legal attack"),
                      (cols[1], "best legal attack net of self-risk (self-damage and "
                                "falls)")):
        v = bu[col]
        if not v.notna().any():
            continue
        groups: dict[str, list[str]] = {}
        for a in attackers:
            if finite(v[a]):
                groups.setdefault(str(bl.loc[a, col]), []).append(a)
        hi, lo = str(v.idxmax()), str(v.idxmin())
        dh, dl = tab.fmt(v[hi]), tab.fmt(v[lo])
        if len(groups) == 1:
            who = f"of every unit is a {next(iter(groups))}"
        else:
            who = "is " + and_list([f"a {lab} for the " + and_list([short_unit(u) for u in us])
                                for lab, us in groups.items()])
        text = (f"Averaged over the {n_t} targets, the {what} {who}: from {dh} points "
                f"({short_unit(hi)}) down to {dl} ({short_unit(lo)}).")
        quotes = [("best_per_unit", hi, col, num(v[hi]), dh),
                  ("best_per_unit", lo, col, num(v[lo]), dl)]
        if col == cols[1]:
            # match-ups where the target changes that choice
            odd = [(a, t) for a in attackers for t in targets
                   if isinstance(ln.loc[a, t], str) and ln.loc[a, t] != str(bl.loc[a, col])]
            if odd:
                a, t = max(odd, key=lambda at: num(vn.loc[at[0], at[1]]))
                d = fmt_num(vn.loc[a, t])
                text += (f" The target can change the choice: against the {short_unit(t)} "
                         f"the {short_unit(a)} does best with a {str(ln.loc[a, t])} ({d} net).")
                quotes.append(("best_net", a, t, num(vn.loc[a, t]), d))
        sec.findings.append(Finding(res.name, text, quotes))

    # findings: which attacks are impossible for whom, and which pairs cannot fight
    if why:
        parts = []
        for lab, reason in sorted(why, key=lambda k: (attack_sort_key(k[0]), k[1])):
            us = why[(lab, reason)]
            parts.append(f"{lab} for the {and_list([short_unit(u) for u in us])} ({reason})")
        sec.findings.append(Finding(res.name, "Impossible attacks: " + "; ".join(parts) + ".",
                                    []))
    none = [(a, t) for a in attackers for t in targets if not finite(vn.loc[a, t])]
    everyone = [lab for lab in attacks if leg[lab].notna().all()]
    if none:
        text = ("These pairs cannot fight at all (no legal physical attack): "
                + "; ".join(f"{short_unit(a)} against {short_unit(t)}" for a, t in none)
                + ".")
    else:
        text = (f"Every unit has at least one legal physical attack against each of the "
                f"{n_t} targets" + (f"; {and_list(everyone)} are open to all {len(attackers)} "
                                    f"units." if everyone else "."))
    sec.findings.append(Finding(res.name, text, [], lead=bool(none)))
    return sec


