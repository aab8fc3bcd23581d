"""Report section ``duel-round-robin``: every card against every other (issue 10 "Points
value"): the win-probability matrix, Bradley-Terry strength ratings with Monte Carlo
intervals, the PV fairness curve with its band, and the cards furthest from what their PV
predicts. All numbers come from :mod:`sim.alphastrike.duel.analysis` (methods there).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim import plots
from sim.alphastrike.duel import analysis as DA
from sim.report import fits
from sim.report.figures import fairness_panel, outlier_panel
from sim.report.formatting import finite, fmt_num, fmt_pct, fmt_spec, footnote_text, num, short_unit
from sim.report.outliers import OutlierWords, outlier_findings
from sim.report.registry import section
from sim.report.tactic_tables import add_tactic_matrices
from sim.report.types import ColumnTable, Finding, Result, Section

#: bootstrap replicates for the rating intervals and the fairness band (fixed seed)
N_BOOT = 200
#: PV ratios at which the fairness table reads the fitted curve
RATIOS = (1.1, 1.25, 1.5, 2.0, 3.0)
#: cards labelled at each end of the outlier list
N_OUT = 5
#: most cards for which the win matrix prints each cell's score
N_CELL_TEXT = 20


#: a strength (logit units, signed); a PV; a p-value (2 significant digits)
fmt_theta, fmt_pv, fmt_p = fmt_spec("+.2f"), fmt_spec(".1f"), fmt_spec(".2g")


def _seed(res: Result) -> int:
    s = res.meta.get("seed")
    return int(s) if isinstance(s, int | float) and finite(s) else 0


@section("duel-round-robin", order=80, legacy=("duel_round_robin",))
def build(res: Result) -> Section:
    """Round-robin of Alpha Strike cards: win matrix, strengths, PV fairness curve, outliers."""
    sec = Section(res)
    d = fits.duels(res)
    seed = _seed(res)
    ranges = DA.ordered_ranges(d["range"])
    rat = fits.ratings(res, "pv", N_BOOT)
    fit = fits.fairness(res, "pv", N_BOOT)
    out = fits.outliers(res, "pv", N_BOOT)
    pooled = "all" if len(ranges) > 1 else ranges[0]
    rt = rat.table
    order = list(out.sort_values("theta", ascending=False)["unit"])  # strongest first
    label = {u: short_unit(u) for u in order}
    foot = footnote_text(res, extra=DA.SCORE_NOTE + ".", kind="cells")
    sec.notes.append(DA.SCORE_NOTE[0].upper() + DA.SCORE_NOTE[1:] + ". Strengths: "
                     "Bradley-Terry fit (Hunter's MM algorithm), 95% intervals from a "
                     f"parametric bootstrap of the Monte Carlo outcomes ({N_BOOT} replicates); "
                     "the fairness curve's band is a bootstrap over the cards.")

    # -- tables ----------------------------------------------------------------------------
    rcols = ["PV", "strength", "low", "high", *[f"strength {r}" for r in ranges],
             "mean score"]
    rv = pd.DataFrame(index=[label[u] for u in order], columns=rcols, dtype=float)
    for u in order:
        g = rt[rt["unit"] == u].set_index("range")
        row = rv.loc[label[u]]
        row["PV"] = num(g.loc[pooled, "pv"])
        row["strength"] = num(g.loc[pooled, "theta"])
        row["low"] = num(g.loc[pooled, "ci_low"])
        row["high"] = num(g.loc[pooled, "ci_high"])
        for r in ranges:
            row[f"strength {r}"] = num(g.loc[r, "theta"])
        row["mean score"] = num(g.loc[pooled, "score"])
        rv.loc[label[u]] = row
    sec.tables.append(ColumnTable(
        "ratings", "Strength ratings (Bradley-Terry), strongest first", rv,
        {"PV": fmt_pv, "mean score": fmt_pct, **dict.fromkeys(
            ["strength", "low", "high", *[f"strength {r}" for r in ranges]], fmt_theta)},
        index_name="card", note="Strength = ln of the Bradley-Terry strength, mean 0 over the "
        "cards: the difference of two cards' strengths is the logit of the score of one "
        "against the other. Low/high: 95% Monte Carlo interval of the strength pooled over "
        "the ranges. Mean score: against every other card, over the ranges."))

    fv = pd.DataFrame(index=[f"PV ratio {r:g}" for r in RATIOS],
                      columns=["fitted score", "low", "high"], dtype=float)
    for ratio in RATIOS:
        x = math.log(ratio)
        boot = 1 / (1 + np.exp(-fit.boot * x)) if len(fit.boot) else np.array([np.nan])
        fv.loc[f"PV ratio {ratio:g}"] = [DA.fair_score(fit.beta, ratio),
                                     *np.nanpercentile(boot, [2.5, 97.5])]
    sec.tables.append(ColumnTable(
        "fairness", "The PV fairness curve: score of the side with the higher PV", fv,
        {"fitted score": fmt_pct, "low": fmt_pct, "high": fmt_pct}, index_name="",
        note="Score = 1 / (1 + exp(-beta ln(PV ratio))), fitted over every duel between "
        "different cards at every range (slope: table 'How well PV predicts the winner'); 95% "
        "band from a bootstrap over the cards."))

    bv = pd.DataFrame(index=[*ranges, *(["all"] if len(ranges) > 1 else [])],
                      columns=["slope beta", "low", "high", "PV-strength rank correlation"],
                      dtype=float)
    for r in bv.index:
        sub = d if r == "all" else d[d["range"] == r]
        fr = fit if r == "all" or len(ranges) == 1 else DA.fairness(sub, n_boot=N_BOOT,
                                                                     seed=seed)
        g = rt[rt["range"] == (r if len(ranges) > 1 else ranges[0])]
        rho = g["pv"].rank().corr(g["theta"].rank())
        bv.loc[r] = [fr.beta, fr.beta_low, fr.beta_high, rho]
    sec.tables.append(ColumnTable(
        "by_range", "How well PV predicts the winner, per range", bv,
        {"PV-strength rank correlation": fmt_num}, index_name="range", fmt=fmt_num,
        note="Slope of the fairness curve fitted at each range alone (0: PV says nothing "
        "about the winner) and the Spearman rank correlation of PV with the strength fitted "
        "at that range."))

    ocols = ["PV", "fair PV", "fair PV low", "fair PV high", "residual", "low", "high", "z",
             "p-value", "Holm p"]
    incomplete = {u for u in out["unit"] if DA.unsimulated(str(u), "pv")}
    hl = DA.headline_outliers(out, "pv", incomplete)
    olabel = {u: label[u] + (" (specials not simulated)" if u in incomplete else "")
              for u in out["unit"]}
    ov = pd.DataFrame(index=[olabel[u] for u in out["unit"]], columns=ocols, dtype=float)
    for _, o in hl.iterrows():
        ov.loc[olabel[o["unit"]]] = [o["pv"], o["fair_pv"], o["fair_pv_low"],
                                     o["fair_pv_high"], o["residual"], o["ci_low"],
                                     o["ci_high"], o["z"], o["p_value"], o["p_holm"]]
    sec.tables.append(ColumnTable(
        "outliers", "Cards against their PV: most under-costed first, most over-costed last",
        ov, {"PV": fmt_pv, "fair PV": fmt_pv, "fair PV low": fmt_pv, "fair PV high": fmt_pv,
             "residual": fmt_theta, "low": fmt_theta, "high": fmt_theta, "z": fmt_theta,
             "p-value": fmt_p, "Holm p": fmt_p}, index_name="card",
        note="Residual = strength minus the strength the fairness curve predicts from PV "
        "(> 0: the card wins more than its PV says, under-costed). Low/high: 95% interval "
        "(Monte Carlo error and the curve's slope). z = residual / its robust SD over the "
        "cards (1.4826 MAD), with a two-sided normal p-value: how far the card stands out from the catalog. "
        "Fair PV = the PV at which the curve predicts the card's strength. Holm p: the "
        "p-value after Holm's correction over the fully simulated cards. A card with "
        "specials not simulated is listed but never called mis-costed."))

    # -- figures ---------------------------------------------------------------------------
    k = len(order)
    mats = {r: DA.win_matrix(d, r).reindex(index=order, columns=order) for r in ranges}
    mean_m = DA.win_matrix(d).reindex(index=order, columns=order)
    size = max(6.0, 0.3 * k + 2.5)
    with plots.style():
        fig, axes = plots.new_figure(1, 1, width=size + 1.5, height=size)
        # numbers in the cells up to N_CELL_TEXT cards; beyond, the cells are too small to
        # read them (the explorer's heat map shows each on hover) and drawing them is the
        # figure's main cost
        text = np.vectorize(lambda v: f"{100 * v:.0f}" if np.isfinite(v) else "")(
            mean_m.to_numpy(float)) if k <= N_CELL_TEXT else np.full((k, k), "")
        plots.heatmap(axes[0, 0], mean_m.to_numpy(float) * 100,
                      [label[u] for u in order], [label[u] for u in order], text=text,
                      cmap="RdBu", vmin=0, vmax=100, cbar_label="score of the row card (%)",
                      xlabel="opponent", ylabel="card", fontsize=5 if k > 20 else 8)
        ax = axes[0, 0]
        ax.tick_params(axis="x", labelrotation=90, labelsize=6 if k > 20 else 8)
        ax.tick_params(axis="y", labelsize=6 if k > 20 else 8)
        fig.suptitle("Round-robin: score of each card against each other, mean over "
                     + ", ".join(ranges) + " range")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_win_matrix", "Round-robin win matrix",
                       "Score (win + half of draws and timeouts, %) of the row card against "
                       "the column card, averaged over the ranges and both seatings; cards "
                       "sorted by strength, strongest at the top and left. The diagonal is "
                       "the mirror match." + ("" if k <= N_CELL_TEXT else " The explorer's "
                       "round-robin view gives each cell's number and interval on hover."))
    if len(ranges) > 1:
        with plots.style():
            fig, axes = plots.new_figure(1, len(ranges), width=6.2 * len(ranges) + 1,
                                         height=6.5)
            for n, r in enumerate(ranges):
                plots.heatmap(axes[0, n], mats[r].to_numpy(float) * 100,
                              [label[u] if n == 0 else "" for u in order],
                              ["" for _ in order], text=np.full((k, k), ""), cmap="RdBu",
                              vmin=0, vmax=100, colorbar=n == len(ranges) - 1,
                              cbar_label="score of the row card (%)", title=f"{r} range",
                              xlabel="opponent (same order)")
                axes[0, n].tick_params(axis="y", labelsize=6 if k > 20 else 8)
                axes[0, n].set_xticks([])
            fig.suptitle("Round-robin per range (cards in the order of the pooled strength)")
            plots.footnote(fig, foot)
            sec.add_figure(fig, "fig_win_matrix_ranges", "Win matrix per range",
                           "Score of the row card against the column card at each range; "
                           "the same order as the pooled matrix.")

    with plots.style():
        fig, axes = plots.new_figure(1, 1, width=9, height=max(4.0, 0.24 * k + 1.5))
        ax = axes[0, 0]
        y = np.arange(k)[::-1]
        g = rt[rt["range"] == pooled].set_index("unit").loc[order]
        ax.errorbar(g["theta"], y, xerr=np.vstack([g["theta"] - g["ci_low"],
                                                   g["ci_high"] - g["theta"]]),
                    fmt="o", color="black", markersize=4, capsize=2,
                    label=f"pooled ({', '.join(ranges)})" if len(ranges) > 1 else ranges[0])
        if len(ranges) > 1:
            for n, r in enumerate(ranges):
                gr = rt[rt["range"] == r].set_index("unit").loc[order]
                ax.plot(gr["theta"], y, linestyle="none", marker="|", markersize=9,
                        color=plots.color(n), label=f"{r} range")
        pred = out.set_index("unit").loc[order, "predicted"]
        ax.plot(pred, y, linestyle="none", marker="x", color="#888888", markersize=5,
                label="predicted from PV")
        ax.set_yticks(y)
        ax.set_yticklabels([f"{label[u]} ({int(num(g.loc[u, 'pv']))})" for u in order],
                           fontsize=7)
        ax.axvline(0, color="#bbbbbb", linewidth=0.8)
        ax.set_xlabel("strength (ln Bradley-Terry, mean 0)")
        ax.legend(loc="lower right", fontsize=8)
        fig.suptitle("Strength ratings with 95% Monte Carlo intervals (PV in brackets)")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_ratings", "Strength ratings",
                       "Bradley-Terry strength of each card pooled over the ranges (black, "
                       "with its 95% interval from the Monte Carlo error), at each range "
                       "(ticks), and the strength its PV predicts on the fairness curve (x).")

    with plots.style():
        fig, axes = plots.new_figure(1, 2, width=14, height=6)
        ax = axes[0, 0]
        fairness_panel(ax, fit, "pv", ranges, lambda r: f"{r} range", "cards",
                       (1, 1.25, 1.5, 2, 3, 4), 6, 0.35)
        ax.set_title("Score against PV ratio")
        ax = axes[0, 1]
        ax.scatter(out["pv"], out["theta"], s=14, color=plots.color(0), zorder=3)
        outlier_panel(ax, out, fit.beta, "pv", N_OUT, short_unit,
                      (plots.color(2), plots.color(3)), [15, 20, 25, 30, 40, 50, 60])
        ax.set_xlabel("card PV (skill 4, log scale)")
        ax.set_title(f"Outliers: the {N_OUT} most under- (green) and over-costed (red)")
        ax.legend(loc="upper left", fontsize=8)
        fig.suptitle("The PV fairness curve")
        plots.footnote(fig, foot)
        sec.add_figure(fig, "fig_fairness", "The PV fairness curve",
                       "Left: the score of the side with the higher PV in every duel between "
                       "different cards against the PV ratio, with the fitted logistic curve "
                       "and its 95% band. Right: each card's strength against its PV, the "
                       "strength the curve predicts, and the most under- and over-costed "
                       "cards with the 95% interval of their residual.")

    # -- findings --------------------------------------------------------------------------
    ft = sec.table("fairness").values
    key = "PV ratio 1.5" if "PV ratio 1.5" in ft.index else str(ft.index[0])
    p15, lo15, hi15 = (ft.loc[key, c] for c in ("fitted score", "low", "high"))
    bt = sec.table("by_range").values
    sb = bt.loc[bt.index[-1], "slope beta"]
    q = [("fairness", key, "fitted score", num(p15), fmt_pct(p15)),
         ("fairness", key, "low", num(lo15), fmt_pct(lo15)),
         ("fairness", key, "high", num(hi15), fmt_pct(hi15)),
         ("by_range", bt.index[-1], "slope beta", num(sb), fmt_num(sb))]
    sec.findings.append(Finding(
        res.name, f"PV predicts the winner: on the fitted fairness curve (slope "
        f"{fmt_num(sb)}) a card with 3 PV for every 2 of its opponent's scores {fmt_pct(p15)} "
        f"(interval {fmt_pct(lo15)} to {fmt_pct(hi15)})."
        if key == "PV ratio 1.5" else
        f"On the fitted fairness curve (slope {fmt_num(sb)}) the side with the higher PV "
        f"scores {fmt_pct(p15)} ({fmt_pct(lo15)} to {fmt_pct(hi15)}) at the first ratio "
        "of the fairness table.", q))
    ot = sec.table("outliers").values
    stand = hl[hl["stands_out"]]
    assumptions = (f"stand-still duels of the reference's duel stance at {', '.join(ranges)} "
                   f"range, skill 4, {int(d['trials'].median()):,} duels a pairing")
    if stand.empty:
        sec.findings.append(Finding(
            res.name, f"No card stands out from the PV fairness curve: none of the "
            f"{int(hl['complete'].sum())} fully simulated cards is mis-costed after Holm's "
            f"correction at the 5 percent level with its fair PV inside the catalog's PVs "
            f"({assumptions}; {len(incomplete)} cards with specials not simulated not judged; "
            "see the rating section for verdicts across scenarios).", []))
    words = OutlierWords("PV", fmt_pv, fmt_p, "outliers", "a card", "",
                         "its specials are not all simulated")
    sec.findings += outlier_findings(res.name, stand, ot, hl, olabel, incomplete, words,
                                     assumptions)
    top = rv.index[0]
    sec.findings.append(Finding(
        res.name, f"Strongest card: {top} (PV {fmt_pv(rv.loc[top, 'PV'])}), mean score "
        f"{fmt_pct(rv.loc[top, 'mean score'])} against the others; weakest: {rv.index[-1]} "
        f"(PV {fmt_pv(rv.loc[rv.index[-1], 'PV'])}), "
        f"{fmt_pct(rv.loc[rv.index[-1], 'mean score'])}.",
        [("ratings", top, "PV", num(rv.loc[top, "PV"]), fmt_pv(rv.loc[top, "PV"])),
         ("ratings", top, "mean score", num(rv.loc[top, "mean score"]),
          fmt_pct(rv.loc[top, "mean score"])),
         ("ratings", rv.index[-1], "PV", num(rv.loc[rv.index[-1], "PV"]),
          fmt_pv(rv.loc[rv.index[-1], "PV"])),
         ("ratings", rv.index[-1], "mean score", num(rv.loc[rv.index[-1], "mean score"]),
          fmt_pct(rv.loc[rv.index[-1], "mean score"]))], lead=False))
    if len(ranges) > 1:
        br = sec.table("by_range").values.loc[ranges]
        lo_r, hi_r = str(br["slope beta"].idxmin()), str(br["slope beta"].idxmax())
        sec.findings.append(Finding(
            res.name, f"PV predicts the winner best at {hi_r} range (slope "
            f"{fmt_num(br.loc[hi_r, 'slope beta'])}) and worst at {lo_r} range "
            f"({fmt_num(br.loc[lo_r, 'slope beta'])}).",
            [("by_range", hi_r, "slope beta", num(br.loc[hi_r, "slope beta"]),
              fmt_num(br.loc[hi_r, "slope beta"])),
             ("by_range", lo_r, "slope beta", num(br.loc[lo_r, "slope beta"]),
              fmt_num(br.loc[lo_r, "slope beta"]))], lead=False))

    # -- tactic matrices (issue 22; computed by the experiment, read here) -----------------
    add_tactic_matrices(sec, res, lambda r: f"at {r} range")
    return sec
