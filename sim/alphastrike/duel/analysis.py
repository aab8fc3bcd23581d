"""What a Point Value buys: strength ratings, the PV fairness curve, PV outliers, and what OV
and skill buy, from ``duel`` summary frames (issue 10 "Points value"; reference-as-combat 23);
the same ratings, fairness curve and outliers against Battle Value for ``classic-duel`` frames
(issue 13 "Battle Value and the catalog"; reference-as-combat 24).

Every function is pure: summary frame(s) in, numbers out (the report sections draw them).
Randomness (bootstraps) only from a ``numpy.random.Generator`` seeded by the caller's
``seed``, so the same frame gives the same intervals.

Conventions
-----------
* **Score** of side A in one duel = P(A wins) + 1/2 P(draw) + 1/2 P(timeout): a draw (both
  destroyed in the same End Phase) or a timeout (neither destroyed within the turn limit)
  counts as half a win for each side, as in chess ratings. So the scores of A and B add to 1.
* **Bradley-Terry strengths** (Bradley & Terry 1952): P(i beats j) = pi_i / (pi_i + pi_j),
  theta_i = ln pi_i, centred to mean 0 (so theta_i - theta_j is the logit of i's score against
  j). Fitted by maximum likelihood with the MM algorithm of Hunter (2004, Ann. Statist. 32,
  eq. 3): pi_i <- W_i / sum_j n_ij / (pi_i + pi_j), W_i the (fractional) wins of i. A weak
  prior of ``prior`` virtual drawn games per pair keeps every strength finite when a unit
  never wins (negligible against 10,000 trials per duel).
* **Monte Carlo intervals** (parametric bootstrap): each duel's trial outcomes (A wins, B wins,
  draw or timeout) are redrawn from the multinomial with the estimated probabilities and its
  trial count, the fit repeated, and the 2.5 and 97.5 percentiles taken (``n_boot``
  replicates, fixed ``seed``). This is the Monte Carlo error only.
* **PV fairness curve**: score of A = 1 / (1 + exp(-beta x)) with x = ln(PV_A / PV_B) (no
  intercept: swapping the sides flips x and the score). beta by binomial maximum likelihood
  (Newton's method) over every duel between different cards, weighted by its trials. beta is
  the logit gain per unit of log PV ratio: a fair PV has beta > 0 and the points on the curve.
  Its band is a cluster bootstrap over the cards (resample the catalog's cards with
  replacement, refit on the duels among them), i.e. how well *this catalog* pins down the
  curve; the Monte Carlo error is far smaller.
* **PV outliers**: the strength the fairness curve predicts from PV is
  theta_hat_i = beta (ln PV_i - mean ln PV); residual r_i = theta_i - theta_hat_i (> 0: the
  card wins more than its PV says, under-costed; < 0: over-costed). Its interval joins the
  Monte Carlo bootstrap of theta and the card bootstrap of beta (replicate by replicate).
  ``z`` = r_i / s with s the robust SD of the residuals over the catalog's cards
  (1.4826 x their median absolute deviation from the median, so one extreme card does not hide
  the others), with a two-sided normal p-value: how far the card stands out from the
  catalog's spread around the curve. **Fair PV** =
  PV_i exp(r_i / beta): the PV at which the curve would predict the card's strength.
* **Any cost**: the fairness curve and the outliers take the cost they judge as ``cost``, the
  stem of the frame's ``<cost>_a`` / ``<cost>_b`` columns (:data:`COSTS`): ``"pv"`` (Alpha
  Strike Point Value, the default) or ``"bv"`` (Classic Battle Value at the pilots' skills,
  the ``classic-duel`` facts ``bv_a`` / ``bv_b``); every formula above reads with BV for PV.
  A ``classic-duel`` frame names its sides ``unit_a`` / ``unit_b`` (no ``@skill``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.alphastrike.balance import ov_pv_term, policy_sort_key
from sim.alphastrike.pv import pv_at_skill
from sim.errors import UserError
from sim.summary import estimate

#: what the duel outcomes of one duel are split into for the score (module docstring)
OUTCOMES = ("p_win_a", "p_win_b", "p_draw", "p_timeout")
#: ranges in reading order
RANGE_ORDER = ("short", "medium", "long", "extreme")
#: the costs a fairness curve can be fitted against: the stem of ``<cost>_a`` / ``<cost>_b``
COSTS = ("pv", "bv")
SCORE_NOTE = ("score = P(win) + ½ P(draw) + ½ P(timeout): a draw or a timeout counts as half "
              "a win for each side")


def split_label(label: str) -> tuple[str, int | None]:
    """``"Atlas AS7-D@4"`` -> ``("Atlas AS7-D", 4)``; a label without ``@`` has skill None."""
    name, sep, skill = str(label).rpartition("@")
    if sep and skill.strip().isdigit():
        return name, int(skill)
    return str(label), None


def ordered_ranges(labels: pd.Series | list[str]) -> list[str]:
    """Distinct range labels, short to long first, others after in the order given."""
    labs = list(dict.fromkeys(str(x) for x in labels))
    return sorted(labs, key=lambda r: RANGE_ORDER.index(r) if r in RANGE_ORDER
                  else len(RANGE_ORDER))


def check_cost(cost: str) -> str:
    """``cost`` if it names a known cost (:data:`COSTS`), else a one-line UserError."""
    if cost not in COSTS:
        raise UserError(f"cost: {cost!r} is not a cost; allowed: {', '.join(COSTS)}")
    return cost


def duels(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per duel (scenario) of a ``duel`` or ``classic-duel`` summary frame: the
    per-duel metrics (best estimate, :func:`sim.summary.estimate`), ``score_a`` (module
    docstring), ``unit_a`` / ``unit_b`` / ``skill_a`` / ``skill_b`` split from the side labels
    (``a`` / ``b``, or ``unit_a`` / ``unit_b`` where the frame has no ``a``), the costs
    ``pv_a``, ``pv_b`` and ``bv_a``, ``bv_b`` the frame has (``pv_*`` NaN when absent) and the
    trials. Per-turn metrics are summed over the turns as ``total_<metric>`` (e.g.
    ``total_expected_damage_a``: the expected damage A deals over the whole fight). A frame
    without ``p_timeout`` gets 1 - P(A wins) - P(B wins) - P(draw) (at least 0)."""
    frame = frame.copy(deep=False)
    frame.attrs = {}   # pandas deep-copies attrs on every column access
    frame = frame if "a" in frame.columns or "unit_a" not in frame.columns else \
        frame.assign(a=frame["unit_a"], b=frame["unit_b"])
    keys = [c for c in ("a", "b", "range", "policy_a", "policy_b", "moved_a", "moved_b",
                        "terrain_a", "terrain_b", "gunnery_a", "gunnery_b", "piloting_a",
                        "piloting_b", "physical_a", "physical_b", "turns", "rule_overrides")
            if c in frame]
    f = frame.copy()
    for k in keys:
        f[k] = f[k].astype(str)
    if "turn" in f.columns:
        per_turn = [m for m in ("expected_damage_a", "expected_damage_b")
                    if m in f.columns or m + "_exact" in f.columns]
        for m in per_turn:
            f["total_" + m] = estimate(f, m).fillna(0.0)
        sums = f.groupby(keys, sort=False)[["total_" + m for m in per_turn]].sum()
        first = f.sort_values("turn").groupby(keys, sort=False).head(1).set_index(keys)
        first = first.drop(columns=list(sums.columns)).join(sums).reset_index()
        f = first
    out = f[keys].copy()
    for m in (*OUTCOMES, "expected_turns"):
        out[m] = estimate(f, m).to_numpy(float)
    for c in [c for c in f.columns if c.startswith("total_")]:
        out[c] = f[c].to_numpy(float)
    if "p_shutdown_a" in f.columns or "p_shutdown_a_exact" in f.columns:
        last = frame.assign(**{k: frame[k].astype(str) for k in keys}).sort_values("turn")
        sd = last.groupby(keys, sort=False).tail(1)
        sd = sd.assign(shut=estimate(sd, "p_shutdown_a").to_numpy(float))[[*keys, "shut"]]
        out = out.merge(sd.rename(columns={"shut": "p_shutdown_a_end"}), on=keys, how="left")
    if "p_timeout" not in f.columns and "p_timeout_exact" not in f.columns:
        out["p_timeout"] = np.clip(1 - out["p_win_a"] - out["p_win_b"] - out["p_draw"], 0, 1)
    out["score_a"] = out["p_win_a"] + 0.5 * (out["p_draw"] + out["p_timeout"])
    tcol = "trials" if "trials" in f.columns else "p_win_a_n" if "p_win_a_n" in f.columns \
        else None  # the trials of a Monte Carlo run; 1 (a weight only) for an exact one
    trials = pd.to_numeric(f[tcol], errors="coerce").to_numpy(float) if tcol else \
        np.ones(len(f))
    out["trials"] = np.where(np.isfinite(trials) & (trials > 0), trials, 1.0)
    for c in COSTS:
        for side in ("a", "b"):
            col = f"{c}_{side}"
            if col in f.columns:
                out[col] = pd.to_numeric(f[col], errors="coerce").to_numpy(float)
            elif c == "pv":
                out[col] = np.nan
    split_a = [split_label(x) for x in out["a"]]
    split_b = [split_label(x) for x in out["b"]]
    out["unit_a"] = [s[0] for s in split_a]
    out["skill_a"] = [s[1] for s in split_a]
    out["unit_b"] = [s[0] for s in split_b]
    out["skill_b"] = [s[1] for s in split_b]
    return out


# -- Bradley-Terry -----------------------------------------------------------------------------
def bradley_terry(i: np.ndarray, j: np.ndarray, wins_i: np.ndarray, games: np.ndarray, k: int,
                  prior: float = 1.0, tol: float = 1e-10, max_iter: int = 10_000,
                  start: np.ndarray | None = None) -> np.ndarray:
    """Bradley-Terry log-strengths ``theta`` (mean 0) of ``k`` players by MLE with Hunter's MM
    algorithm (module docstring).

    Game records: player ``i[g]`` against ``j[g]``, ``games[g]`` games of which ``i[g]`` won
    ``wins_i[g]`` (fractional: a half for a draw or timeout). ``prior`` adds that many virtual
    drawn games between every pair of players (0 for the plain MLE, which is infinite for a
    player who never wins or never loses). ``start``: initial theta (e.g. the fit a bootstrap
    replicate perturbs), default all 0.
    """
    i = np.asarray(i, dtype=np.intp)
    j = np.asarray(j, dtype=np.intp)
    wins_i = np.asarray(wins_i, dtype=float)
    games = np.asarray(games, dtype=float)
    n = np.zeros((k, k))
    np.add.at(n, (i, j), games)
    np.add.at(n, (j, i), games)
    w = np.zeros(k)
    np.add.at(w, i, wins_i)
    np.add.at(w, j, games - wins_i)
    if prior > 0:
        off = prior * (1 - np.eye(k))
        n = n + off
        w = w + off.sum(axis=1) / 2
    if prior > 0:
        return _bt_newton(n, w, k, tol, max_iter, start)
    pi = np.ones(k) if start is None else np.exp(np.asarray(start, float))
    for _ in range(max_iter):
        denom = (n / (pi[:, None] + pi[None, :])).sum(axis=1)
        new = np.where(denom > 0, w / np.where(denom > 0, denom, 1), pi)
        new = new / np.exp(np.mean(np.log(np.maximum(new, 1e-300))))
        if np.max(np.abs(np.log(np.maximum(new, 1e-300)) - np.log(np.maximum(pi, 1e-300)))) \
                < tol:
            pi = new
            break
        pi = new
    theta = np.log(np.maximum(pi, 1e-300))
    return theta - theta.mean()


def _bt_newton(n: np.ndarray, w: np.ndarray, k: int, tol: float, max_iter: int,
               start: np.ndarray | None) -> np.ndarray:
    """The Bradley-Terry maximum-likelihood theta (mean 0) of games ``n`` (k x k, both
    directions) and wins ``w`` by Newton's method on theta: the same fixed point as the MM
    iteration of :func:`bradley_terry` (the likelihood is strictly concave in theta once
    every pair has played, which the prior makes true), reached in a few steps instead of
    thousands (the bootstrap refits it hundreds of times). Steps are capped at 2 logits."""
    theta = np.zeros(k) if start is None else np.asarray(start, float) - np.mean(start)
    ones = np.ones((k, k)) / k  # fixes the mean-0 gauge (the Hessian is singular along 1)
    for _ in range(max_iter):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        grad = w - (n * p).sum(axis=1)
        v = n * p * (1 - p)
        hess = v - np.diag(v.sum(axis=1))
        step = np.linalg.solve(hess - ones, -grad)
        big = np.max(np.abs(step))
        if big > 2:
            step *= 2 / big
        theta = theta + step
        theta -= theta.mean()
        if big < tol:
            break
    return theta


def _games(d: pd.DataFrame, units: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                        np.ndarray]:
    """Game records (i, j, score of i, trials) of the duels between different cards."""
    idx = {u: n for n, u in enumerate(units)}
    d = d[d["unit_a"] != d["unit_b"]]
    return (d["unit_a"].map(idx).to_numpy(np.intp), d["unit_b"].map(idx).to_numpy(np.intp),
            d["score_a"].to_numpy(float), d["trials"].to_numpy(float))


def _resample_inputs(d: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays every bootstrap replicate of ``d`` draws from (read once, not per
    replicate): trials ``n``, P(A wins) and P(B wins | A does not win)."""
    n = np.maximum(d["trials"].to_numpy(float), 1).astype(np.int64)
    pa = np.clip(d["p_win_a"].to_numpy(float), 0, 1)
    pb = np.clip(d["p_win_b"].to_numpy(float), 0, 1 - pa)
    cond = np.clip(np.where(pa < 1, pb / np.maximum(1 - pa, 1e-300), 0.0), 0, 1)
    return n, pa, cond


def _resample_draw(inputs: tuple[np.ndarray, np.ndarray, np.ndarray],
                   rng: np.random.Generator) -> np.ndarray:
    """One parametric-bootstrap replicate of every duel's score from
    :func:`_resample_inputs` (module docstring)."""
    n, pa, cond = inputs
    ka = rng.binomial(n, pa)
    kb = rng.binomial(n - ka, cond)
    tie = n - ka - kb
    return (ka + 0.5 * tie) / n



@dataclass(frozen=True)
class Ratings:
    """Bradley-Terry ratings: ``table`` (one row per unit and range, ``range = "all"`` for the
    fit pooled over the ranges: ``theta``, ``ci_low``, ``ci_high``, the unit's cost in a
    column named ``cost`` (``pv`` or ``bv``), ``score`` = the mean score against the others)
    and the bootstrap draws of the pooled theta (``boot``: replicates x units, in ``units``
    order)."""

    table: pd.DataFrame
    units: list[str]
    boot: np.ndarray
    cost: str = "pv"


def ratings(d: pd.DataFrame, n_boot: int = 200, seed: int = 0, prior: float = 1.0,
            cost: str = "pv") -> Ratings:
    """Bradley-Terry strengths per range and pooled over the ranges (``"all"``: every duel
    of every range a game record), with parametric-bootstrap 95% intervals from the Monte
    Carlo error (module docstring). ``d`` is :func:`duels` of a round-robin; ``cost`` the
    cost column the table carries (:data:`COSTS`)."""
    check_cost(cost)
    units = sorted(set(d["unit_a"]) | set(d["unit_b"]))
    k = len(units)
    price: dict[str, float] = {}
    costs = [(d["unit_a"], d[f"{cost}_a"]), (d["unit_b"], d[f"{cost}_b"])] \
        if f"{cost}_a" in d and f"{cost}_b" in d else []
    for us, cs in costs:
        for u, p in zip(us, cs, strict=True):
            if np.isfinite(p):
                price.setdefault(u, float(p))
    rng = np.random.default_rng(seed)
    rows = []
    boot_all = np.zeros((0, k))
    groups = [(r, d[d["range"] == r]) for r in ordered_ranges(d["range"])]
    if len(groups) > 1:
        groups.append(("all", d))
    for rng_label, g in groups:
        g = g[g["unit_a"] != g["unit_b"]]
        i, j, s, n = _games(g, units)
        theta = bradley_terry(i, j, s * n, n, k, prior)
        boots = np.empty((n_boot, k))
        draw_from = _resample_inputs(g)
        for b in range(n_boot):
            sb = _resample_draw(draw_from, rng)
            boots[b] = bradley_terry(i, j, sb * n, n, k, prior, start=theta)
        lo, hi = (np.percentile(boots, [2.5, 97.5], axis=0) if n_boot else (theta, theta))
        mean_score = np.zeros(k)
        cnt = np.zeros(k)
        np.add.at(mean_score, i, s)
        np.add.at(mean_score, j, 1 - s)
        np.add.at(cnt, i, 1)
        np.add.at(cnt, j, 1)
        for u in range(k):
            rows.append({"unit": units[u], "range": rng_label, "theta": theta[u],
                         "ci_low": lo[u], "ci_high": hi[u],
                         cost: price.get(units[u], np.nan),
                         "score": mean_score[u] / cnt[u] if cnt[u] else np.nan})
        if rng_label == "all" or len(groups) == 1:
            boot_all = boots
    return Ratings(pd.DataFrame(rows), units, boot_all, cost)


# -- the PV fairness curve -----------------------------------------------------------------------
def logistic_slope(x: np.ndarray, s: np.ndarray, w: np.ndarray, iters: int = 50) -> float:
    """beta maximising sum w (s ln sigma(beta x) + (1 - s) ln(1 - sigma(beta x))) (binomial
    likelihood with fractional successes ``s`` and weights ``w``), by Newton's method."""
    x = np.asarray(x, float)
    s = np.asarray(s, float)
    w = np.asarray(w, float)
    beta = 0.0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-beta * x))
        grad = np.sum(w * (s - p) * x)
        hess = np.sum(w * p * (1 - p) * x * x)
        if hess <= 0:
            break
        step = grad / hess
        beta += step
        if abs(step) < 1e-12:
            break
    return float(beta)


@dataclass(frozen=True)
class Fairness:
    """The fairness curve of a cost (``cost``: ``pv`` or ``bv``): slope ``beta`` with its
    card-bootstrap interval, the curve (``curve``: ``x`` = ln cost ratio, ``ratio`` = cost
    ratio, ``p``, ``lo``, ``hi``), the points it was fitted to (``points``: one per duel
    between different cards) and the bootstrap slopes (``boot``)."""

    beta: float
    beta_low: float
    beta_high: float
    curve: pd.DataFrame
    points: pd.DataFrame
    boot: np.ndarray
    cost: str = "pv"


def fairness(d: pd.DataFrame, n_boot: int = 200, seed: int = 0, cost: str = "pv"
             ) -> Fairness:
    """Fit the fairness curve of ``cost`` (:data:`COSTS`: ``pv`` the PV fairness curve,
    ``bv`` the BV fairness curve) over the duels of ``d`` (:func:`duels`) between different
    cards with a known positive cost, with a cluster-bootstrap band over the cards (module
    docstring)."""
    check_cost(cost)
    if f"{cost}_a" not in d or f"{cost}_b" not in d:
        raise UserError(f"cost: {cost!r} has no columns {cost}_a/{cost}_b in the duels; "
                        f"allowed: the costs the frame has")
    ca, cb = d[f"{cost}_a"], d[f"{cost}_b"]
    pts = d[(d["unit_a"] != d["unit_b"]) & (ca > 0) & (cb > 0)].copy()
    if pts.empty:
        raise UserError(f"cost: {cost!r} is known for no duel between different units; "
                        "allowed: a cost the frame gives (> 0) for at least one such duel")
    pts["x"] = np.log(pts[f"{cost}_a"] / pts[f"{cost}_b"])
    x, s, w = (pts["x"].to_numpy(float), pts["score_a"].to_numpy(float),
               pts["trials"].fillna(1).to_numpy(float))
    beta = logistic_slope(x, s, w)
    units = sorted(set(pts["unit_a"]) | set(pts["unit_b"]))
    idx = {u: n for n, u in enumerate(units)}
    ia = pts["unit_a"].map(idx).to_numpy(np.intp)
    ib = pts["unit_b"].map(idx).to_numpy(np.intp)
    rng = np.random.default_rng(seed)
    boots = np.empty(n_boot)
    for b in range(n_boot):
        mult = np.bincount(rng.integers(0, len(units), len(units)), minlength=len(units))
        wb = w * mult[ia] * mult[ib]  # every duel between drawn cards, once per draw pair
        boots[b] = logistic_slope(x, s, wb) if wb.sum() > 0 else beta
    lo_b, hi_b = (np.percentile(boots, [2.5, 97.5]) if n_boot else (beta, beta))
    span = max(float(np.abs(x).max()) if len(x) else 1.0, 1e-9)
    grid = np.linspace(-span, span, 101)
    curves = 1 / (1 + np.exp(-np.outer(boots, grid))) if n_boot else None
    p = 1 / (1 + np.exp(-beta * grid))
    lo = np.percentile(curves, 2.5, axis=0) if curves is not None else p
    hi = np.percentile(curves, 97.5, axis=0) if curves is not None else p
    curve = pd.DataFrame({"x": grid, "ratio": np.exp(grid), "p": p, "lo": lo, "hi": hi})
    return Fairness(beta, float(lo_b), float(hi_b), curve, pts, boots, cost)


def fair_score(beta: float, pv_ratio: float) -> float:
    """The score the fairness curve predicts for side A at cost ratio PV_A / PV_B (or
    BV_A / BV_B on the BV curve)."""
    return 1 / (1 + math.exp(-beta * math.log(pv_ratio)))


def robust_sd(x: np.ndarray) -> float:
    """1.4826 x the median absolute deviation from the median (the SD for normal data,
    insensitive to a few outliers); NaN for fewer than 3 values."""
    x = np.asarray(x, float)
    if len(x) < 3:
        return float("nan")
    return float(1.4826 * np.median(np.abs(x - np.median(x))))


def pv_outliers(r: Ratings, fit: Fairness) -> pd.DataFrame:
    """Each card's strength residual against what its PV predicts on the fairness curve
    (module docstring): ``theta``, ``predicted``, ``residual`` with its 95% interval, ``z``,
    ``p_value``, ``fair_pv`` with its interval and ``verdict`` (``under-costed`` when the
    residual's interval lies above 0, ``over-costed`` below, else ``fair``). Sorted by the
    residual, most under-costed first. Uses the pooled ratings (``range == "all"``) or the
    only range present. :func:`cost_outliers` with ``cost="pv"``."""
    return cost_outliers(r, fit, "pv")


def cost_outliers(r: Ratings, fit: Fairness, cost: str | None = None) -> pd.DataFrame:
    """:func:`pv_outliers` for any cost (:data:`COSTS`; default the cost ``r`` was rated
    with): the columns ``<cost>``, ``fair_<cost>``, ``fair_<cost>_low``, ``fair_<cost>_high``
    (e.g. ``bv``, ``fair_bv``: the BV at which the BV fairness curve predicts the 'Mech's
    strength). A unit without a known cost has NaN residual and verdict ``unknown``; the
    centre of ln cost is the mean over the units with one."""
    cost = check_cost(cost or r.cost)
    t = r.table
    t = t[t["range"] == "all"] if (t["range"] == "all").any() else t
    t = t.set_index("unit").loc[r.units]
    price = t[cost].to_numpy(float) if cost in t else np.full(len(t), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        lpv = np.log(np.where(price > 0, price, np.nan))
    known = np.isfinite(lpv)
    centre = lpv - (lpv[known].mean() if known.any() else np.nan)
    theta = t["theta"].to_numpy(float)
    resid = theta - fit.beta * centre
    sd = robust_sd(resid[known])
    z = resid / sd if sd > 0 else np.full_like(resid, np.nan)
    pval = np.array([math.erfc(abs(v) / math.sqrt(2)) if np.isfinite(v) else np.nan
                     for v in z])
    nb = min(len(r.boot), len(fit.boot))
    if nb:
        betas = fit.boot[:nb, None]
        rb = r.boot[:nb] - betas * centre[None, :]
        lo, hi = np.percentile(rb, [2.5, 97.5], axis=0)
        with np.errstate(invalid="ignore"):
            fb = price[None, :] * np.exp(rb / np.where(betas > 0, betas, np.nan))
        flo, fhi = np.full_like(resid, np.nan), np.full_like(resid, np.nan)
        ok = np.isfinite(fb).any(axis=0)
        if ok.any():
            flo[ok], fhi[ok] = np.nanpercentile(fb[:, ok], [2.5, 97.5], axis=0)
    else:
        lo = hi = resid
        flo = fhi = np.full_like(resid, np.nan)
    fair = price * np.exp(resid / fit.beta) if fit.beta > 0 else np.full_like(resid, np.nan)
    verdict = np.where(~known, "unknown", np.where(
        lo > 0, "under-costed", np.where(hi < 0, "over-costed", "fair")))
    out = pd.DataFrame({"unit": r.units, cost: price, "theta": theta,
                        "predicted": fit.beta * centre, "residual": resid, "ci_low": lo,
                        "ci_high": hi, "z": z, "p_value": pval, f"fair_{cost}": fair,
                        f"fair_{cost}_low": flo, f"fair_{cost}_high": fhi,
                        "verdict": verdict})
    return out.sort_values("residual", ascending=False, na_position="last"
                           ).reset_index(drop=True)


def win_matrix(d: pd.DataFrame, range_label: str | None = None) -> pd.DataFrame:
    """Score of the row card against the column card (``range_label``: one range, None: the
    mean over the ranges), averaging both seatings where both were run (A vs B and, seen
    from the other side, B vs A). The diagonal is the mirror match."""
    g = d if range_label is None else d[d["range"] == range_label]
    a = pd.DataFrame({"row": g["unit_a"], "col": g["unit_b"], "s": g["score_a"]})
    b = pd.DataFrame({"row": g["unit_b"], "col": g["unit_a"], "s": 1 - g["score_a"]})
    both = pd.concat([a, b], ignore_index=True)
    m = both.pivot_table(index="row", columns="col", values="s", aggfunc="mean")
    units = sorted(set(m.index) | set(m.columns))
    return m.reindex(index=units, columns=units)


# -- what OV and skill buy -----------------------------------------------------------------------
def ov_table(d: pd.DataFrame, cards: dict[str, object] | None = None) -> pd.DataFrame:
    """What OV buys (issue 10): per card and range, side A's win chance and score and the
    expected damage it deals per turn fought (E[damage over the fight] / E[turns]) under
    ``never`` and under its best overheat
    policy (highest score, see :func:`_best_policy`), against the same card that never
    overheats; and the PV the card
    pays for OV (:func:`sim.alphastrike.balance.ov_pv_term`, reference 23.4). ``cards`` maps a
    card name to its ASCard (default: the built-in catalog)."""
    rows = []
    for (unit, rng_label), g in d.groupby(["unit_a", "range"], sort=False):
        g = g.set_index("policy_a")
        if "never" not in g.index:
            continue
        card = _card(str(unit), cards)
        usable = ov_usable(card, str(rng_label)) if card is not None else True
        best = _best_policy(g["score_a"], _f(g.loc["never", "trials"])) if usable else "never"
        base, top = g.loc["never"], g.loc[best]
        rows.append({
            "unit": unit, "range": rng_label, "ov": getattr(card, "ov", np.nan),
            "pv": _f(base["pv_a"]), "pv_for_ov": ov_pv_term(card) if card else np.nan,
            "best_policy": best, "win_never": _f(base["p_win_a"]),
            "win_best": _f(top["p_win_a"]), "score_never": _f(base["score_a"]),
            "score_best": _f(top["score_a"]),
            "damage_never": _f(base.get("total_expected_damage_a", np.nan))
            / _f(base["expected_turns"]),
            "damage_best": _f(top.get("total_expected_damage_a", np.nan))
            / _f(top["expected_turns"]),
            "ov_usable": usable,
            "score_max": _f(g.loc["max", "score_a"]) if "max" in g.index else np.nan,
            "shutdown_max": _f(g.loc["max", "p_shutdown_a_end"])
            if "max" in g.index and "p_shutdown_a_end" in g.columns else np.nan,
        })
    out = pd.DataFrame(rows)
    if len(out):
        out["gain"] = out["score_best"] - out["score_never"]
        order = {r: n for n, r in enumerate(RANGE_ORDER)}
        out = out.sort_values(["unit", "range"], key=lambda s: s.map(order)
                              if s.name == "range" else s).reset_index(drop=True)
    return out


def ov_usable(card: Any, range_label: str) -> bool:
    """Whether the card can overheat at the range band (reference 6.2): at Short and Medium
    with OV >= 1, at Long only with OVL, never at Extreme."""
    if int(getattr(card, "ov", 0) or 0) <= 0:
        return False
    if range_label in ("short", "medium"):
        return True
    has = getattr(card, "has", None)
    return range_label == "long" and callable(has) and bool(has("OVL"))


def _f(x: Any) -> float:
    """A frame cell as a float (NaN for a missing one)."""
    return float(x) if x is not None else float("nan")


def _best_policy(score: pd.Series, trials: float = math.inf) -> str:
    """The policy with the highest score, but ``never`` unless that score beats never's by
    more than 3 standard errors of the difference of two independent Monte Carlo scores
    (3 sqrt(2 s (1 - s) / trials), s = never's score), so noise does not pick a policy that
    buys nothing; among equal scores the one with the least overheat
    (:func:`sim.alphastrike.balance.policy_sort_key`). Exact values: ``trials`` = inf."""
    base = float(score.get("never", -math.inf))
    s = min(max(base, 0.0), 1.0)
    margin = 3 * math.sqrt(2 * s * (1 - s) / trials) if math.isfinite(trials) and trials > 0 \
        else 0.0
    top = float(score.max())
    if "never" in score.index and top <= base + margin:
        return "never"
    tied = [str(p) for p, v in score.items() if v >= top]
    return sorted(tied, key=policy_sort_key)[0]


def _card(unit: str, cards: dict[str, object] | None) -> object | None:
    if cards is not None:
        return cards.get(unit)
    from sim.units.catalog import get_alphastrike

    try:
        return get_alphastrike(unit)
    except Exception:  # a card not in the catalog (a file): no PV term
        return None


def skill_table(d: pd.DataFrame) -> pd.DataFrame:
    """What skill buys (issue 10): per card, range and skill of side A, the win chance and
    score against the fixed opponent (side B), A's PV at that skill (``pv_a``, reference 23.1)
    and, per step to the next better skill, the score gained and the PV the table charges
    (``pv_step``) and the score gained per PV point."""
    g = d.dropna(subset=["skill_a"]).copy()
    g["skill_a"] = g["skill_a"].astype(int)
    rows = []
    for (unit, rng_label), h in g.groupby(["unit_a", "range"], sort=False):
        h = h.sort_values("skill_a", ascending=False)
        prev = None
        for _, r in h.iterrows():
            pv = float(r["pv_a"])
            row = {"unit": unit, "range": rng_label, "opponent": r["b"],
                   "skill": int(r["skill_a"]), "pv": pv, "win": float(r["p_win_a"]),
                   "score": float(r["score_a"]), "pv_step": np.nan, "score_step": np.nan,
                   "score_per_pv": np.nan}
            if prev is not None and prev["skill"] == row["skill"] + 1:
                row["pv_step"] = pv - prev["pv"]
                row["score_step"] = row["score"] - prev["score"]
                if row["pv_step"]:
                    row["score_per_pv"] = row["score_step"] / row["pv_step"]
            rows.append(row)
            prev = row
    return pd.DataFrame(rows)


def pv_price_steps(pv: int, skills: range = range(2, 7)) -> dict[int, int]:
    """The PV table's price (reference 23.1) of each skill in ``skills`` for a card of PV
    ``pv``: ``{skill: PV at that skill}``."""
    return {s: pv_at_skill(pv, s) for s in skills}


# -- which outliers may be headlined (issue 23) ----------------------------------------------------
def unsimulated(unit: str, cost: str, notes: list[str] | None = None,
                cards: dict[str, object] | None = None) -> list[str]:
    """What of a unit the duel does not simulate: for an Alpha Strike card (``cost="pv"``)
    every special :func:`sim.alphastrike.duel.specials.note_for` reports; for a Classic
    'Mech (``cost="bv"``) every ``"<unit>: ... not simulated"`` note of the run except design
    quirks (an optional rule Battle Value does not price), and equipment Battle Value prices
    but the duel gives no effect (:func:`sim.rating.run.unsimulated`). A unit not in the
    catalog: its notes only."""
    if cost == "pv":
        from sim.alphastrike.duel.specials import note_for

        card = _card(unit, cards)
        specials = getattr(card, "specials", None) or {}
        return [n for c, s in specials.items() if (n := note_for(c, getattr(s, "raw", c)))]
    out = [n for n in dict.fromkeys(notes or []) if n.startswith(f"{unit}: ")
           and "not simulated" in n and "design quirks" not in n]
    try:  # equipment Battle Value prices but the duel gives no effect (sim.rating.run)
        from sim.rating.run import unsimulated as rating_unsimulated

        out += rating_unsimulated("classic", unit, notes or [])
    except Exception:  # noqa: BLE001 - a 'Mech not in the catalog: its notes only
        pass
    return list(dict.fromkeys(out))


def frame_notes(frame: pd.DataFrame) -> list[str]:
    """Every note of a results frame's ``notes`` column (facts joined with ``; `` or
    `` | ``), each once."""
    out: list[str] = []
    if "notes" in frame.columns:
        for text in frame["notes"].dropna().astype(str).unique():
            for sep in (" | ", "; "):
                if sep in text:
                    text = text.replace(sep, "\n")
            out += [n.strip() for n in text.split("\n") if n.strip()]
    return list(dict.fromkeys(out))


def headline_outliers(out: pd.DataFrame, cost: str, incomplete: set[str],
                      alpha: float = 0.05) -> pd.DataFrame:
    """The outliers a headline may name (issue 23): ``out`` (:func:`cost_outliers`) with
    ``complete`` (nothing unsimulated), ``p_holm`` (Holm's correction of ``p_value`` over the
    complete units with a cost), ``beyond_data`` (the fair cost outside the catalog's costs:
    an extrapolation) and ``stands_out``: complete, Holm p below ``alpha``, the residual's
    interval excluding 0 and the fair cost within the data."""
    from sim.rating.fit import adjust

    o = out.copy()
    o["complete"] = ~o["unit"].isin(incomplete)
    price = o[cost].to_numpy(float)
    lo, hi = np.nanmin(price), np.nanmax(price)
    fair = o[f"fair_{cost}"].to_numpy(float)
    o["beyond_data"] = ~((fair >= lo) & (fair <= hi))
    o["p_holm"] = adjust(np.where(o["complete"] & np.isfinite(o["p_value"]),
                                  o["p_value"], np.nan), "holm")
    o["stands_out"] = (o["complete"] & (o["p_holm"] < alpha) & ~o["beyond_data"]
                       & ((o["ci_low"] > 0) | (o["ci_high"] < 0)))
    return o
