"""Report section ``head-risk``: the chance one Classic physical attack hits the head or
destroys a fresh head, and where its expected damage lands.

Location codes and their order come from the model's table (:data:`sim.classic.tables.
LOCATIONS`); this module only groups them for one chart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim import plots
from sim.classic import tables as CT
from sim.report.classic import ordered_attacks, with_labels
from sim.report.formatting import (
    finite,
    fmt_pct,
    footnote_text,
    grid_text,
    middle,
    num,
    possible,
    value,
)
from sim.report.registry import section
from sim.report.types import Finding, Result, Section, Table

#: how the location chart groups the model's location codes (a code the model adds later
#: without a group here gets a group of its own: :func:`location_groups`)
LOCATION_GROUPS: dict[str, tuple[str, ...]] = {
    "head": ("HD",),
    "centre torso": ("CT",),
    "side torsos": ("LT", "RT"),
    "arms": ("LA", "RA"),
    "legs": ("LL", "RL"),
    "rear torsos": ("CTR", "LTR", "RTR"),
}
LOCATION_COLORS = ("#D55E00", "#0072B2", "#56B4E9", "#009E73", "#E69F00", "#CC79A7")


def location_groups() -> dict[str, tuple[str, ...]]:
    """The model's location codes (:data:`sim.classic.tables.LOCATIONS`, in its order within
    each group) grouped for the chart; every code is in exactly one group."""
    groups = {g: tuple(c for c in CT.LOCATIONS if c in codes)
              for g, codes in LOCATION_GROUPS.items()}
    grouped = {c for codes in groups.values() for c in codes}
    groups.update({c: (c,) for c in CT.LOCATIONS if c not in grouped})
    return {g: codes for g, codes in groups.items() if codes}


@section("head-risk", order=20, legacy=("head_risk",))
def build(res: Result) -> Section:
    """Head hits, one-attack head kills and where the damage lands, per attack."""
    sec = Section(res)
    f = with_labels(res.frame)
    f["possible"] = possible(f)
    attacks = ordered_attacks(f["attack_label"])
    tons_all = sorted(f["tons"].unique())
    foot = footnote_text(res, kind="cells")
    # tables: P(head hit), P(head destroyed) per attack x tonnage
    tabs = {}
    for metric, key, ttl in (("p_head_hit", "head_hit", "Chance one attack hits the head"),
                             ("p_head_destroyed", "head_destroyed",
                              "Chance one attack destroys a fresh head (9 armor + 3 structure)")):
        v = pd.DataFrame(index=attacks, columns=[f"{t} t" for t in tons_all], dtype=float)
        for (a, t), g in f[f["possible"]].groupby(["attack_label", "tons"]):
            v.loc[a, f"{t} t"] = num(value(g, metric).iloc[0])
        tabs[key] = Table(key, ttl, v, fmt_pct, index_name="attack")
    # summary table per attack
    summ = pd.DataFrame(index=attacks, columns=["max head hit", "max head kill",
                                                "lightest head-killer"], dtype=float)
    labs = pd.DataFrame(index=attacks, columns=summ.columns, dtype=object)
    hh, hd = tabs["head_hit"].values, tabs["head_destroyed"].values
    for a in attacks:
        summ.loc[a, "max head hit"] = hh.loc[a].max()
        summ.loc[a, "max head kill"] = hd.loc[a].max()
        kill = [int(c.split()[0]) for c in hd.columns if finite(hd.loc[a, c]) and num(hd.loc[a, c]) > 0]
        labs.loc[a, "lightest head-killer"] = f"{min(kill)} t" if kill else "never"
    summ["lightest head-killer"] = np.nan

    def fmt_summary(v: float) -> str:
        return fmt_pct(v)

    summary = Table("head_summary", "Head risk per attack over all tonnages", summ,
                    fmt_summary, labs, index_name="attack",
                    note="'never': no tonnage in this experiment can destroy a fresh head "
                    "with that attack (exact probability 0).")
    sec.tables += [summary, tabs["head_hit"], tabs["head_destroyed"]]

    with plots.style():
        fig, axes = plots.new_figure(2, 1, width=min(3.0 + 0.75 * len(tons_all), 15),
                                     height=1.0 + 0.42 * len(attacks) * 2 + 1.5)
        for k, key in enumerate(("head_hit", "head_destroyed")):
            t = tabs[key]
            vals = t.values.to_numpy(float) * 100
            text = np.array([[fmt_pct(x / 100).replace("%", "") if np.isfinite(x) else "n/a"
                              for x in row] for row in vals], dtype=object)
            plots.heatmap(axes[k, 0], vals, list(t.values.index),
                          [c.replace(" t", "") for c in t.values.columns], text=text,
                          cbar_label="probability (%)", xlabel="attacker tonnage (t)",
                          title=t.title, fontsize=7, vmin=0)
        fig.suptitle("Head hits and one-attack head kills")
        plots.footnote(fig, foot + "\nCells in %; 'n/a': attack impossible.")
        sec.add_figure(fig, "fig_head_risk", "Head hit and head kill chance",
              "Chance that one attack strikes the head (top) and destroys a fresh head "
              f"outright (bottom), per attack and attacker tonnage "
              f"({grid_text(tons_all, 'attacker tonnage', 't')}).")

    # stacked location bars: where the expected damage lands, at a middle tonnage
    loc_cols = [c for c in CT.LOCATIONS
                if f"expected_damage_{c}" in f.columns or f"expected_damage_{c}_exact" in f.columns]
    if loc_cols:
        t_mid = middle(tons_all, 60)
        sub = f[(f["tons"] == t_mid) & f["possible"]].drop_duplicates("attack_label")
        sub = sub.set_index("attack_label").reindex([a for a in attacks
                                                      if a in set(sub["attack_label"])])
        comps = {}
        for gname, locs in location_groups().items():
            cols = [loc for loc in locs if loc in loc_cols]
            if cols:
                comps[gname] = sum(value(sub, f"expected_damage_{c}").fillna(0).to_numpy()
                                   for c in cols)
        with plots.style():
            fig, axes = plots.new_figure(1, 1, width=9, height=0.45 * len(sub) + 1.8)
            plots.stacked_bars(axes[0, 0], list(sub.index), comps, horizontal=True,
                               ylabel="expected damage (points per attack declared)",
                               title=f"Where the damage lands ({t_mid} t attacker)",
                               legend_title="location",
                               colors=[*LOCATION_COLORS, *(plots.color(i)
                                                           for i in range(len(comps)))],
                               totals_fmt="{:.2f}")
            plots.footnote(fig, foot)
            sec.add_figure(fig, "fig_locations", "Expected damage by hit location",
                  f"Expected damage per attack split by the location it lands on, for a "
                  f"{t_mid} t attacker (rear torso only from rear attacks).")

    never = [a for a in attacks if labs.loc[a, "lightest head-killer"] == "never"]
    if never:
        sec.findings.append(Finding(
            res.name, "Attacks that can never destroy a fresh head in one blow at any tonnage: "
            + ", ".join(never) + ".", []))
    if np.isfinite(hd.to_numpy(float)).any() and np.nanmax(hd.to_numpy(float)) > 0:
        r, c = np.unravel_index(np.nanargmax(hd.to_numpy(float)), hd.shape)
        a, t = hd.index[int(r)], hd.columns[int(c)]
        d = fmt_pct(hd.loc[a, t])
        sec.findings.append(Finding(
            res.name, f"The highest one-attack head-kill chance is {d}, for a {a} by a {t} "
            f"attacker.", [("head_destroyed", a, t, num(hd.loc[a, t]), d)]))
    if np.isfinite(hh.to_numpy(float)).any():
        r, c = np.unravel_index(np.nanargmax(hh.to_numpy(float)), hh.shape)
        a, t = hh.index[int(r)], hh.columns[int(c)]
        d = fmt_pct(hh.loc[a, t])
        sec.findings.append(Finding(
            res.name, f"A {a} by a {t} attacker strikes the head most often: {d} of attacks.",
            [("head_hit", a, t, num(hh.loc[a, t]), d)], lead=False))
    return sec
