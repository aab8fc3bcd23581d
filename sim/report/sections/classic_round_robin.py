"""Report section ``classic-round-robin``: the Classic duel round-robin (model
``classic-duel``, issue 13): the win matrix at each range, Bradley-Terry strength ratings with
95% Monte Carlo intervals, the BV fairness curve (score against the Battle Value ratio, with a
bootstrap band over the 'Mechs) and the 'Mechs furthest from what their BV predicts, and "what
one hit does" for big single-group weapons against light to assault targets (exact,
:func:`sim.classic.hit_api.hit`), and the Classic tactic matrices of the pairings the BV
fairness curve explains worst and best (issue 22, :mod:`sim.tactic_report`, computed by the
experiment). The ratings, curve and outliers are :mod:`sim.alphastrike.duel.analysis` with
``cost="bv"`` (methods there).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim import plots
from sim.alphastrike.duel import analysis as DA
from sim.report import fits
from sim.report.figures import fairness_panel, outlier_panel
from sim.report.formatting import fmt_num, fmt_pct, footnote_text, num, short_unit, value
from sim.report.outliers import OutlierWords, outlier_findings
from sim.report.registry import section
from sim.report.sections.duel_round_robin import _seed, fmt_theta
from sim.report.tactic_tables import add_tactic_matrices
from sim.report.types import ColumnTable, Finding, Result, Section, Table

#: bootstrap replicates for the rating intervals and the BV fairness band (fixed seed)
N_BOOT = 200
#: BV ratios at which the fairness table reads the fitted curve
RATIOS = (1.25, 1.5, 2.0, 3.0)
#: 'Mechs labelled at each end of the outlier list
N_OUT = 3

#: (weapon, damage of its one group) and (weight class, catalog target) of the hit table.
BIG_HITS: tuple[tuple[str, int], ...] = (("AC/20", 20), ("Gauss rifle", 15), ("PPC", 10),
                                         ("large laser", 8), ("medium laser", 5))
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


def one_hit_table() -> dict[str, pd.DataFrame] | None:
    """P(destroyed) and P(at least one critical hit) of one group of each big weapon from the
    front, by target (exact, :func:`sim.classic.hit_api.hit`)."""
    try:
        from sim.classic.hit_api import hit

        rows = [f"{w} ({d})" for w, d in BIG_HITS]
        cols = [f"{c}: {short_unit(u)}" for c, u in TARGETS]
        out = {k: pd.DataFrame(index=rows, columns=cols, dtype=float)
               for k in ("p_destroyed", "p_any_critical")}
        for (_w, d), r in zip(BIG_HITS, rows, strict=True):
            for (_c, u), col in zip(TARGETS, cols, strict=True):
                res = hit(u, damage=d, side="front")
                for k, frame in out.items():
                    frame.loc[r, col] = float(res[k])
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
                    ax.text(k, i, f"{v * 100:.0f}", ha="center", va="center", fontsize=6,
                            color="white" if abs(v - 0.5) > 0.3 else "black")
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
    lo_col, hi_col = "p_win_a_ci_low", "p_win_a_ci_high"
    for c in cases:
        g = last[last["_case"] == c]
        cells = pd.DataFrame("", index=units, columns=units, dtype=object)
        for _, r in g.iterrows():
            iv = (f" ({fmt_pct(r[lo_col])} to {fmt_pct(r[hi_col])})"
                  if lo_col in g.columns and hi_col in g.columns
                  and np.isfinite(r[lo_col]) else "")
            est = r["p_win_a"] if iv else r["_win"]  # the estimate its interval belongs to
            cells.loc[r["_a"], r["_b"]] = fmt_pct(est) + iv
        sec.tables.append(Table(f"wins_{c}", f"P(A wins) with its 95% interval, {c}",
                                pd.DataFrame(np.nan, index=units, columns=units),
                                fmt_pct, cells, "Monte Carlo estimate and its 95% (Wilson) "
                                "interval.", "A vs B"))
    best = str(rating["overall"].idxmax())
    v = float(rating["overall"].to_numpy(float)[list(rating.index).index(best)])
    sec.findings.append(Finding(
        res.name, f"As side A, {best} has the best record of the round-robin: a mean score "
        f"of {fmt_pct(v)} against the others over all ranges (the Bradley-Terry ratings "
        "below pool both seatings, so their scores differ a little; a mean of Monte Carlo "
        "cells, so not a headline: the strength table has the intervals).",
        [("rating", best, "overall", v, fmt_pct(v))], lead=False))
    tabs = one_hit_table()
    if tabs is not None:
        hits = tabs["p_destroyed"]
        sec.tables.append(ColumnTable(
            "one_hit", "What one hit does: P(destroyed) by one group from the front (exact)",
            hits, {k: fmt_pct for k in hits.columns}, index_name="weapon (damage)",
            note="One damage group on a fresh unit, location rolled on the front column "
            "(through-armor criticals, explosions and transfer included): btsim hit."))
        crit = tabs["p_any_critical"]
        sec.tables.append(ColumnTable(
            "one_hit_crit", "What one hit does: P(at least one critical hit) by one group "
            "from the front (exact)", crit, {k: fmt_pct for k in crit.columns},
            index_name="weapon (damage)",
            note="A critical needs structure damage (or a through-armor critical on a 2): "
            "against full armor only the through-armor chance, 1/36 x 15/36 = 1.16%, remains."))
        r0, c0 = hits.index[0], hits.columns[0]
        p0 = float(hits.loc[r0, c0])
        sec.findings.append(Finding(
            res.name, f"A single {r0} hit from the front destroys a fresh {c0.split(': ')[1]} "
            f"with probability {fmt_pct(p0)}.",
            [("one_hit", r0, c0, p0, fmt_pct(p0))]))
    bv_section(res, sec)
    # tactic matrices of the most and least surprising pairings (issue 22; computed by the
    # experiment, read here)
    add_tactic_matrices(sec, res, lambda r: "in the brawl (1 hex)" if _case(r).startswith(
        "brawl") else f"at {_case(r)}")
    if "expected_turns" in last.columns:
        et = value(last, "expected_turns")
        cap = float(last["turns"].max()) if "turns" in last.columns else np.nan
        capped = (" (the turn limit: some pairings end mostly in a timeout)"
                  if np.isfinite(cap) and float(et.max()) >= cap - 0.05 else "")
        sec.notes.append(f"Duels last {fmt_num(float(et.min()))} to "
                         f"{fmt_num(float(et.max()))} turns on average across pairings"
                         f"{capped}.")
    return sec


def fmt_p(v: float) -> str:
    """A p-value: 4 decimals (no exponent, so a finding can quote it as a plain number)."""
    return "–" if not np.isfinite(v) else f"{float(v):.4f}"


def fmt_bv(v: float) -> str:
    """A Battle Value: whole points."""
    return "–" if not np.isfinite(v) else f"{float(v):.0f}"


def bv_section(res: Result, sec: Section) -> None:
    """Strength ratings with 95% intervals, the BV fairness curve and the BV outliers, added
    to ``sec`` (tables ``strength``, ``bv_fairness``, ``bv_outliers``, figure
    ``fig_bv_fairness`` and their findings). Needs the facts ``bv_a`` / ``bv_b``; a frame
    without them gets the ratings only, and a note."""
    d = fits.duels(res)
    has_bv = "bv_a" in d and "bv_b" in d and bool(((d["bv_a"] > 0) & (d["bv_b"] > 0)
                                                   & (d["unit_a"] != d["unit_b"])).any())
    seed = _seed(res)
    rat = fits.ratings(res, "bv", N_BOOT)
    ranges = DA.ordered_ranges(d["range"])
    pooled = "all" if len(ranges) > 1 else ranges[0]
    rt = rat.table
    g = rt[rt["range"] == pooled].set_index("unit")
    order = list(g.sort_values("theta", ascending=False).index)
    label = {u: short_unit(u) for u in order}
    cols = ["BV", "strength", "low", "high", *[f"strength {_case(r)}" for r in ranges],
            "mean score"]
    sv = pd.DataFrame(index=[label[u] for u in order], columns=cols, dtype=float)
    for u in order:
        gu = rt[rt["unit"] == u].set_index("range")
        sv.loc[label[u]] = [num(gu.loc[pooled, "bv"]), num(gu.loc[pooled, "theta"]),
                            num(gu.loc[pooled, "ci_low"]), num(gu.loc[pooled, "ci_high"]),
                            *[num(gu.loc[r, "theta"]) for r in ranges],
                            num(gu.loc[pooled, "score"])]
    sec.tables.append(ColumnTable(
        "strength", "Strength ratings (Bradley-Terry) with 95% intervals, strongest first", sv,
        {"BV": fmt_bv, "mean score": fmt_pct, **dict.fromkeys(
            ["strength", "low", "high", *[f"strength {_case(r)}" for r in ranges]],
            fmt_theta)}, index_name="unit",
        note="Strength = ln of the Bradley-Terry strength, mean 0 over the 'Mechs: the "
        "difference of two strengths is the logit of one's score against the other (score = "
        "win + half of draws and timeouts, both seatings). Low/high: 95% interval of the "
        f"strength pooled over the ranges, parametric bootstrap of the Monte Carlo outcomes "
        f"({N_BOOT} replicates). BV: Battle Value at the pilots' skills."))
    top, bot = sv.index[0], sv.index[-1]
    sec.findings.append(Finding(
        res.name, f"Strongest 'Mech by Bradley-Terry rating: {top} (BV "
        f"{fmt_bv(sv.loc[top, 'BV'])}), mean score {fmt_pct(sv.loc[top, 'mean score'])} "
        f"against the others; weakest: {bot} (BV {fmt_bv(sv.loc[bot, 'BV'])}), "
        f"{fmt_pct(sv.loc[bot, 'mean score'])}.",
        [("strength", u, c, num(sv.loc[u, c]), f(sv.loc[u, c])) for u in (top, bot)
         for c, f in (("BV", fmt_bv), ("mean score", fmt_pct))], lead=False))
    if not has_bv:
        sec.notes.append("No Battle Value facts (bv_a, bv_b) in these results: no BV "
                         "fairness curve.")
        return
    fit = fits.fairness(res, "bv", N_BOOT)
    out = fits.outliers(res, "bv", N_BOOT)
    out = out[out["verdict"] != "unknown"]

    fv = pd.DataFrame(index=[f"BV ratio {r:g}" for r in RATIOS],
                      columns=["fitted score", "low", "high"], dtype=float)
    for ratio in RATIOS:
        boot = 1 / (1 + np.exp(-fit.boot * math.log(ratio))) if len(fit.boot) \
            else np.array([np.nan])
        fv.loc[f"BV ratio {ratio:g}"] = [DA.fair_score(fit.beta, ratio),
                                     *np.nanpercentile(boot, [2.5, 97.5])]
    sec.tables.append(ColumnTable(
        "bv_fairness", "The BV fairness curve: score of the side with the higher BV", fv,
        {"fitted score": fmt_pct, "low": fmt_pct, "high": fmt_pct}, index_name="",
        note="Score = 1 / (1 + exp(-beta ln(BV ratio))), fitted over every duel between "
        "different 'Mechs at every range (slope: table 'How well BV predicts the winner'); "
        "95% band from a bootstrap over the 'Mechs."))
    bt = pd.DataFrame(index=[*[_case(r) for r in ranges], *(["all"] if len(ranges) > 1
                                                            else [])],
                      columns=["slope beta", "low", "high", "BV-strength rank correlation"],
                      dtype=float)
    for r, lab in [*((r, _case(r)) for r in ranges), *((("all", "all"),) if len(ranges) > 1
                                                       else ())]:
        sub = d if r == "all" else d[d["range"] == r]
        fr = fit if r == "all" or len(ranges) == 1 else DA.fairness(sub, n_boot=N_BOOT,
                                                                     seed=seed, cost="bv")
        gr = rt[rt["range"] == (r if len(ranges) > 1 else ranges[0])]
        rho = gr["bv"].rank().corr(gr["theta"].rank())
        bt.loc[lab] = [fr.beta, fr.beta_low, fr.beta_high, rho]
    sec.tables.append(ColumnTable(
        "bv_by_range", "How well BV predicts the winner, per range", bt,
        {"BV-strength rank correlation": fmt_num}, index_name="range", fmt=fmt_num,
        note="Slope beta of the BV fairness curve (logit gain per unit of ln BV ratio; 0: BV "
        "says nothing about the winner) fitted at each range alone, its 95% interval "
        "(bootstrap over the 'Mechs) and the Spearman rank correlation of BV with the "
        "strength fitted at that range."))
    ocols = ["BV", "fair BV", "fair BV low", "fair BV high", "residual", "low", "high", "z",
             "p-value", "Holm p"]
    notes = DA.frame_notes(res.frame)
    incomplete = {u for u in out["unit"] if DA.unsimulated(str(u), "bv", notes)}
    hl = DA.headline_outliers(out, "bv", incomplete)
    olabel = {u: short_unit(u) + (" (not all simulated)" if u in incomplete else "")
              for u in out["unit"]}
    ov = pd.DataFrame(index=[olabel[u] for u in out["unit"]], columns=ocols, dtype=float)
    for _, o in hl.iterrows():
        ov.loc[olabel[o["unit"]]] = [o["bv"], o["fair_bv"], o["fair_bv_low"],
                                     o["fair_bv_high"], o["residual"], o["ci_low"],
                                     o["ci_high"], o["z"], o["p_value"], o["p_holm"]]
    sec.tables.append(ColumnTable(
        "bv_outliers", "Units against their BV: most under-costed first, most over-costed "
        "last", ov, {"BV": fmt_bv, "fair BV": fmt_bv, "fair BV low": fmt_bv,
                     "fair BV high": fmt_bv, "residual": fmt_theta, "low": fmt_theta,
                     "high": fmt_theta, "z": fmt_theta, "p-value": fmt_p, "Holm p": fmt_p},
        index_name="unit",
        note="Residual = strength minus the strength the BV fairness curve predicts from BV "
        "(> 0: wins more than its BV says, under-costed). Low/high: 95% interval (Monte Carlo "
        "error and the curve's slope); an interval that excludes 0 is significant at 5%. z = "
        "residual / its robust SD over the 'Mechs (1.4826 MAD), two-sided normal p-value: how "
        "far the 'Mech stands out from the catalog. Fair BV: the BV at which the curve "
        "predicts the 'Mech's strength."))

    foot = footnote_text(res, extra=DA.SCORE_NOTE + ".", kind="cells")
    with plots.style():
        fig, axes = plots.new_figure(1, 2, width=14, height=6)
        ax = axes[0, 0]
        fairness_panel(ax, fit, "bv", ranges, _case, "'Mechs", (1, 1.25, 1.5, 2, 3, 4, 6, 8),
                       12, 0.5)
        ax.set_title("Win probability (score) against BV ratio")
        ax = axes[0, 1]
        ci = np.vstack([out["residual"] - out["ci_low"], out["ci_high"] - out["residual"]])
        ax.errorbar(out["bv"], out["theta"], yerr=ci, fmt="o", color=plots.color(0),
                    markersize=4, capsize=2, zorder=3, alpha=0.6,
                    label="strength (95% interval of the residual)")
        outlier_panel(ax, out, fit.beta, "bv", N_OUT, short_unit,
                      (plots.color(2), plots.color(3)), [400, 600, 800, 1000, 1500, 2000, 3000])
        ax.set_xlabel("BV at the pilots' skills (log scale)")
        ax.set_title(f"Outliers: the {N_OUT} most under- (green) and over-costed (red)")
        ax.legend(loc="upper left", fontsize=8)
        fig.suptitle("The BV fairness curve")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_bv_fairness", "The BV fairness curve",
                       "Left: the score of the side with the higher BV in every duel between "
                       "different 'Mechs against the BV ratio, with the fitted logistic curve "
                       "and its 95% band. Right: each 'Mech's strength against its BV, the "
                       "strength the curve predicts, and the most under- and over-costed "
                       "'Mechs with the 95% interval of their residual.")

    ft = sec.table("bv_fairness").values
    key = "BV ratio 1.5"
    p15, lo15, hi15 = (ft.loc[key, c] for c in ("fitted score", "low", "high"))
    sec.findings.append(Finding(
        res.name, f"BV predicts the winner: on the fitted BV fairness curve a 'Mech with 3 BV "
        f"for every 2 of its opponent's scores {fmt_pct(p15)} (interval {fmt_pct(lo15)} to "
        f"{fmt_pct(hi15)}).",
        [("bv_fairness", key, c, num(v), fmt_pct(v))
         for c, v in (("fitted score", p15), ("low", lo15), ("high", hi15))]))
    ot = sec.table("bv_outliers").values
    stand = hl[hl["stands_out"]]
    f = res.frame      # the tactics played (issue 22; results before it: stand-and-fire)
    tac = set(f["tactic_a"].astype(str)) | set(f["tactic_b"].astype(str)) if (
        "tactic_a" in f and "tactic_b" in f) else {"stand-and-fire"}
    how = ("both standing still and firing everything" if tac == {"stand-and-fire"} else
           "both playing the competent tactic (initiative each turn, movement and range "
           "chosen to win, heat-aware fire)" if tac == {"competent"} else
           "tactics " + ", ".join(sorted(tac)))
    assumptions = (f"duels at {', '.join(_case(r) for r in ranges)}, {how}, "
                   f"{int(d['trials'].median()):,} duels a pairing")
    if stand.empty:
        sec.findings.append(Finding(
            res.name, f"No 'Mech stands out from the BV fairness curve: none of the "
            f"{int(hl['complete'].sum())} fully simulated 'Mechs is mis-costed after Holm's "
            f"correction at the 5 percent level with its fair BV inside the catalog's BVs "
            f"({assumptions}; see the rating section for verdicts across scenarios).", []))
    words = OutlierWords("BV", fmt_bv, fmt_p, "bv_outliers", "a 'Mech", " by BV",
                         "something it carries is not simulated")
    sec.findings += outlier_findings(res.name, stand, ot, hl, olabel, incomplete, words,
                                     assumptions)
