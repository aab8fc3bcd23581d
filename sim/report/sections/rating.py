"""Report section ``rating`` (issue 23): the fair price of every rated unit with the evidence.

The rating table (price, fair price with its 95% interval, ratio, strength with its 95%
interval, verdict, robustness, duels), the fairness curve with its band, the verdict list and
how big a price gap decides a fight (score of the dearer side against the price ratio, with
intervals). All numbers come from :mod:`sim.rating` (methods there); the top box holds only
verdicts that pass the corrected test in every scenario, and says so when none do.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from sim import plots
from sim.rating.fit import NONE, OVER, UNDER
from sim.rating.prices import short_source
from sim.rating.text import fair_text, fmt_price
from sim.report.formatting import num, short_unit
from sim.report.registry import section
from sim.report.types import ColumnTable, Finding, Result, Section, Table


def _text_table(key: str, title: str, cells: pd.DataFrame, index_name: str, note: str
                ) -> Table:
    """A table of display strings (the numbers are formatted where they are computed)."""
    values = pd.DataFrame(np.nan, index=cells.index, columns=cells.columns)
    return Table(key, title, values, lambda v: f"{v:g}", cells, note, index_name)


def _iv(v: float, lo: float, hi: float, fmt: str = "{:+.2f}") -> str:
    return f"{fmt.format(v)} ({fmt.format(lo)} to {fmt.format(hi)})"


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%" if np.isfinite(v) else "–"


def assumptions(meta: dict[str, Any]) -> str:
    """The assumptions and evidence every finding of a rating rests on."""
    return (f"{meta.get('game')} rating against the pool {', '.join(meta.get('pool', []))} in "
            f"{len(meta.get('scenarios', []))} scenarios ("
            + ", ".join(s["name"] for s in meta.get("scenarios", []))
            + f"; seatings {meta.get('seatings')}); tactic: {meta.get('tactic')}; "
            f"{int(meta.get('duels', 0)):,} duels"
            + (f" (+ {int(meta['screen_duels']):,} screening the maximin tactics)"
               if meta.get("screen_duels") else "")
            + f", {meta.get('exact_pairings', 0)} exact pairings; {meta.get('correction')} "
            f"correction over all {meta.get('family', '?')} rated units; catalog "
            f"{meta.get('catalog', 'builtin')}")


@section("rating", order=120, legacy=("rating_alphastrike", "rating_classic"))
def build(res: Result) -> Section:
    """The rating table, the fairness curve, the verdicts and the price gap."""
    sec = Section(res)
    meta = res.meta
    lab = str(meta.get("price_label", "price"))
    f = res.frame
    allr = f[(f["scenario"] == "all") & f["rated"].astype(bool)].sort_values(
        "strength", ascending=False)
    label = {u: short_unit(u) for u in allr["unit"]}
    cells = pd.DataFrame(index=[label[u] for u in allr["unit"]],
                         columns=[lab, "source", f"fair {lab} (95%)", "ratio", "strength (95%)",
                                  "verdict", "robustness", "duels"], dtype=object)
    for _, r in allr.iterrows():
        ratio = "–" if not np.isfinite(r["ratio"]) or r["beyond_data"] else f"{r['ratio']:.2f}"
        cells.loc[label[r["unit"]]] = [
            fmt_price(r["price"]), short_source(str(r.get("price_source", "") or "")),
            fair_text(r), ratio,
            _iv(r["strength"], r["strength_ci_low"], r["strength_ci_high"]), r["verdict"],
            r["robustness"] if r["verdict"] != NONE else (r["reason"] or r["robustness"]),
            f"{int(r['n']):,}" + (f" + {int(r['n_exact'])} exact" if r["n_exact"] else "")]
    sec.tables.append(_text_table(
        "rating", f"Fair {lab} of every rated unit, strongest first", cells, "unit",
        f"Strength: Bradley-Terry (logit units, mean 0 over the pool and the rated units; the "
        f"difference of two is the logit of one's score against the other), 95% Monte Carlo "
        f"interval (delta method). Fair {lab}: the {lab} at which the strength-price curve "
        f"fitted to the other judged units predicts the unit's strength, with its 95% "
        f"(Fieller) interval; 'beyond the data' when it lies outside the rated units' {lab}s "
        f"(an extrapolation). Ratio = {lab} / fair {lab}. A verdict needs the "
        f"{meta.get('correction')}-corrected test (5%) in every scenario, so a {lab} just "
        f"outside the 95% interval can still have none. Source: where the {lab} comes "
        f"from under price = {meta.get('price_mode', 'official')} (sim.rating.prices: the "
        f"Master Unit List's by MUL id or name, or computed from the unit file; a file "
        f"matched by name only whose computed BV differs by more than 1% takes the "
        f"computed one; each unit's full source is in the metadata's price_sources). "
        f"Assumptions: {assumptions(meta)}."))

    # the fairness curve per scenario
    curve = meta.get("curve") or {}
    names = [s["name"] for s in meta.get("scenarios", [])] + ["all"]
    cv = pd.DataFrame(index=names, columns=["slope b (95%)", "judged units"], dtype=object)
    for n in names:
        c = curve.get(n) or {}
        b = c.get("b", math.nan)
        cv.loc[n] = [_iv(b, c.get("b_low", math.nan), c.get("b_high", math.nan))
                     if b is not None and np.isfinite(b) else "–",
                     str(curve.get("judged_units", "–"))]
    sec.tables.append(_text_table(
        "curve", f"The fairness curve: strength = a + b ln {lab}, per scenario", cv,
        "scenario", f"Least squares over the judged units (priced, nothing unsimulated); "
        f"95% interval of the slope (Student's t). A slope whose interval includes 0 means "
        f"the curve does not say what a strength costs there: no fair {lab}, no verdict."))

    # verdicts (numbers, so the findings can quote them)
    judged = allr[allr["verdict"] != NONE]
    vrows = [f"{label[u]} ({v})" for u, v in zip(judged["unit"], judged["verdict"],
                                                  strict=True)] or ["(none)"]
    vt = pd.DataFrame(np.nan, index=vrows, columns=[lab, f"fair {lab}", "low", "high",
                                                    "adjusted p"])
    for row, (_, r) in zip(vrows, judged.iterrows(), strict=False):
        vt.loc[row] = [r["price"], np.nan if r["beyond_data"] else r["fair_price"],
                       r["fair_price_ci_low"], r["fair_price_ci_high"], r["p_adjusted"]]
    sec.tables.append(ColumnTable(
        "verdicts", "Verdicts that hold", vt,
        {"adjusted p": lambda v: f"{v:.2g}"}, index_name="unit (verdict)", fmt=fmt_price,
        note=f"Only units whose {lab} lies outside their fair {lab} after the correction in "
        f"every scenario of the set; fair {lab} '–' where it lies beyond the data (low/high: "
        "its 95% interval). A unit with anything not simulated is never judged."))
    n_incomplete = int((~allr["complete"].astype(bool)).sum())
    ev = pd.DataFrame({"value": [float(meta.get("alpha", 0.05)),
                                 float(meta.get("family", len(allr))),
                                 float(int(allr["complete"].astype(bool).sum())),
                                 float(len(meta.get("scenarios", [])))]},
                      index=[f"error rate ({meta.get('correction')})",
                             "rated units (the correction's family)", "units judged",
                             "scenarios"])
    sec.tables.append(ColumnTable(
        "evidence", "Evidence behind the verdicts", ev, {}, index_name="",
        fmt=lambda v: f"{100 * v:.0f}%" if 0 < v < 1 else f"{v:.0f}",
        note=f"Assumptions: {assumptions(meta)}."))

    # the price gap
    gap = meta.get("gap") or {}
    gt = pd.DataFrame(np.nan, index=[f"{lab} ratio {w['ratio']:g}" for w in gap.get("win", [])],
                      columns=["score", "low", "high"])
    for w in gap.get("win", []):
        gt.loc[f"{lab} ratio {w['ratio']:g}"] = [w["score"], w["low"], w["high"]]
    gr = pd.DataFrame(np.nan, index=[f"{100 * w['score']:.0f}% score"
                                     for w in gap.get("ratio_for", [])],
                      columns=[f"{lab} ratio", "low", "high"])
    for w in gap.get("ratio_for", []):
        gr.loc[f"{100 * w['score']:.0f}% score"] = [w["ratio"], w["low"], w["high"]]
    if len(gt):
        sec.tables.append(ColumnTable(
            "gap", f"How big a {lab} gap decides a fight: score of the dearer side", gt, {},
            index_name="", fmt=_pct,
            note=f"Score (win + half of draws and timeouts) of the side with the higher {lab}, "
            f"fitted as sigma(beta ln ratio) over every pairing between priced units; 95% "
            f"band from a bootstrap over the units. Assumptions: {assumptions(meta)}."))
        sec.tables.append(ColumnTable(
            "gap_ratio", f"The {lab} ratio at which the dearer side reaches a score", gr, {},
            index_name="score", fmt=lambda v: f"{v:.2f}",
            note="With its 95% interval (the same bootstrap); '–' where a replicate's slope "
            "is not positive."))
    _figures(sec, res, allr, lab, curve, gap)

    # findings: the top box holds verdicts that pass, or says none does
    et = sec.table("evidence")
    er = str(et.values.index[0])
    rate_txt = et.cell(er, "value")
    if judged.empty:
        sec.findings.append(Finding(
            res.name, f"Verdicts ({meta.get('game')}): no unit is over- or under-priced beyond "
            f"doubt: no {lab} lies outside its fair {lab} after the {meta.get('correction')} "
            f"correction at {rate_txt} in every scenario ({assumptions(meta)}; "
            f"{n_incomplete} units with something not simulated were not judged).",
            [("evidence", er, "value", num(et.values.loc[er, "value"]), rate_txt)]))
    for row, (_, r) in zip(vrows, judged.iterrows(), strict=False):
        cols = ([lab] + ([] if r["beyond_data"] else [f"fair {lab}"]) + ["low", "high"])
        q = [("verdicts", row, c, num(vt.loc[row, c]), fmt_price(vt.loc[row, c]))
             for c in cols]
        d = {c: fmt_price(vt.loc[row, c]) for c in cols}
        fair = ("beyond the data" if r["beyond_data"] else d[f"fair {lab}"])
        sec.findings.append(Finding(
            res.name, f"{label[r['unit']]} is {r['verdict']}: {lab} {d[lab]}, fair {lab} "
            f"{fair} ({d['low']} to {d['high']}), {r['robustness']}, after the "
            f"{meta.get('correction')} correction at {rate_txt} ({assumptions(meta)}).",
            [*q, ("evidence", er, "value", num(et.values.loc[er, "value"]), rate_txt)]))
    gkey = "75% score"
    if len(gt) and gkey in gr.index and np.isfinite(num(gr.loc[gkey, f"{lab} ratio"])):
        gv = {str(c): num(gr.loc[gkey, c]) for c in gr.columns}
        gcells = [(c, f"{gv[c]:.2f}") for c in (f"{lab} ratio", "low", "high")
                  if np.isfinite(gv[c])]
        high = (gcells[2][1] if len(gcells) == 3 else
                "beyond the data")  # an open upper end is not a number to quote
        sec.findings.append(Finding(
            res.name, f"A {lab} gap decides a fight only when it is large: the dearer side "
            f"wins three fights in four (score) at a {lab} ratio of {gcells[0][1]} "
            f"({gcells[1][1] if len(gcells) > 1 else 'beyond the data'} to {high}).",
            [("gap_ratio", gkey, c, gv[c], t) for c, t in gcells], lead=False))
    sec.notes.append(f"Rated {len(allr)} units ({n_incomplete} with something not simulated: "
                     f"rated, never judged). Pool chosen: {meta.get('pool_how')}. Units: "
                     f"{meta.get('units_how', 'given')}.")
    left = meta.get("left_out") or {}
    if left:  # grouped by the reason's first clause (the metadata keeps each one in full)
        groups: dict[str, list[str]] = {}
        for u, why in sorted(left.items()):
            groups.setdefault(str(why).split(":")[0], []).append(short_unit(u))
        sec.notes.append(f"{len(left)} units of the catalog cannot play this game and were "
                         "not rated: " + "; ".join(f"{why} ({', '.join(us)})"
                                                   for why, us in groups.items()) + ".")
    return sec


def _figures(sec: Section, res: Result, allr: pd.DataFrame, lab: str, curve: dict[str, Any],
             gap: dict[str, Any]) -> None:
    foot = (f"Rating: {assumptions(res.meta)}. Seed {res.meta.get('seed')}, btsim "
            f"{res.meta.get('btsim_version', '?')}, experiment '{res.name}'.")
    band = curve.get("band") or {}
    with plots.style():
        fig, axes = plots.new_figure(1, 2, width=14, height=6)
        ax = axes[0, 0]
        if band.get("price"):
            ax.fill_between(band["price"], band["low"], band["high"], color="#cccccc",
                            alpha=0.6, label="curve, 95% band")
            ax.plot(band["price"], band["strength"], color="black", linewidth=1)
        for name, sub, colr in (
                ("judged, no verdict", allr[allr["complete"] & (allr["verdict"] == NONE)],
                 plots.color(0)),
                (OVER, allr[allr["verdict"] == OVER], plots.color(3)),
                (UNDER, allr[allr["verdict"] == UNDER], plots.color(2)),
                ("not fully simulated (not judged)", allr[~allr["complete"].astype(bool)],
                 "#999999")):
            if len(sub):
                ax.errorbar(sub["price"], sub["strength"],
                            yerr=np.vstack([sub["strength"] - sub["strength_ci_low"],
                                            sub["strength_ci_high"] - sub["strength"]]),
                            fmt="o", color=colr, markersize=4, capsize=2, label=name)
        ax.set_xscale("log")
        ax.set_xlabel(f"{lab} (log scale)")
        ax.set_ylabel("strength (Bradley-Terry, 95% interval)")
        ax.legend(loc="upper left", fontsize=8)
        ax.set_title(f"Strength against {lab}: the fairness curve")
        ax = axes[0, 1]
        if gap.get("win"):
            xs = np.exp(np.linspace(0, math.log(4), 60))
            beta = float(gap["beta"])
            lo_b, hi_b = float(gap["beta_low"]), float(gap["beta_high"])
            ax.fill_between(xs, 1 / (1 + xs ** -lo_b), 1 / (1 + xs ** -hi_b), color="#cccccc",
                            alpha=0.6, label="fit, 95% band")
            ax.plot(xs, 1 / (1 + xs ** -beta), color="black", linewidth=1)
            for b in gap.get("bins", []):
                mid = math.sqrt(b["ratio_low"] * min(b["ratio_high"], 4.0))
                ax.errorbar([mid], [b["score"]], yerr=[[b["score"] - b["low"]],
                                                       [b["high"] - b["score"]]],
                            fmt="s", color=plots.color(1), capsize=3, markersize=4)
        ax.axhline(0.5, color="#bbbbbb", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel(f"{lab} ratio (dearer / cheaper)")
        ax.set_ylabel("score of the dearer side")
        ax.set_title(f"How big a {lab} gap decides a fight (binned pairings, 95% intervals)")
        fig.suptitle(f"Fair {lab}: {res.meta.get('game')} rating")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_rating", f"The {lab} fairness curve and the price gap",
                       f"Left: every rated unit's strength (95% interval) against its {lab} "
                       "with the fitted curve and its band; colour: verdict. Right: score of "
                       f"the dearer side against the {lab} ratio, fitted curve with its band "
                       "and the pairings' mean score per ratio bin with its 95% interval.")
