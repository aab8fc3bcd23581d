"""The statistics of a rating (issue 23): Bradley-Terry strengths with Monte Carlo intervals,
the fairness curve (strength against log price) with its band, fair prices with their
intervals, multiple-comparison-corrected verdicts and how big a price gap decides a fight.

Every function is pure (arrays in, arrays out) and deterministic: the same inputs give the
same bits, so a rating is bit-identical for any ``--jobs`` or backend.

Conventions
-----------
* **Score** of side A in one duel: 1 for a win, 0 for a loss, 1/2 for a draw (both destroyed
  in the same turn) or a timeout (neither destroyed within the turn limit): a draw or a
  timeout counts as half a win for each side, as in chess ratings. A *record* is one pairing
  (A against B in one scenario and seating): its mean score ``s`` over its duels, and the
  variance ``v`` of that mean (Monte Carlo; 0 for an exact pairing).
* **Bradley-Terry strengths** (Bradley & Terry 1952): the score of A against B is modelled
  as ``sigma(theta_A - theta_B)``, ``sigma`` the logistic function. Every record has the same
  weight (one pairing, one vote), whatever number of duels it took, so the estimand does not
  depend on how the duels were allocated: it is the fit to the *exact* scores. A ridge
  penalty ``RIDGE * sum theta^2`` keeps a unit that wins (or loses) every duel finite and
  centres the strengths on mean 0 (the penalty's gradient sums to zero only there). Fitted by
  Newton's method on the penalised likelihood.
* **Strength intervals** are the Monte Carlo error of that fit, by the delta method (the
  sandwich form of the implicit-function derivative): with ``H = A' D A + RIDGE I`` (``A``
  the record-by-unit incidence matrix, +1 for side A and -1 for side B; ``D`` the logistic
  variances at the fit) the derivative of the strengths with respect to the scores is
  ``J = H^-1 A'``, so ``Cov(theta) = J diag(v) J'``; 95% interval theta +- 1.96 SE. An exact
  pairing adds no error. (Neither a profile likelihood nor a bootstrap: the scores' sampling
  distribution is known, the fit is smooth in them, and the coverage of these intervals is
  checked by tests/rating over repeated seeded synthetic pools.) A record's variance is that
  of the per-duel score (outcomes 1, 1/2, 0) over ``n`` duels, from the outcome counts with
  1/3 of a duel added to each outcome, so a pairing that went one way every time still has
  an honest, non-zero error.
* **Fairness curve**: ``theta = a + b (ln price - mean ln price)``, ordinary least squares
  over the units that can be judged (priced, nothing unsimulated), band = the 95% interval of
  the line (Student's t, n - 2 degrees of freedom; its error comes from the units' scatter
  around it, which includes their Monte Carlo error).
* **Fair price** of a unit: the price at which the curve fitted to *the other* judged units
  (leave one out, so a unit is never its own yardstick) predicts its strength,
  ``exp(mean ln price + (theta - a) / b)``; its 95% interval is Fieller's: the prices ``P``
  at which ``|theta - a - b (ln P - m)| <= t sqrt(V_theta + V_a + (ln P - m)^2 V_b)``. It is
  bounded only when the curve's slope is significantly positive; otherwise the fair price is
  *undetermined* (the curve does not say what a strength costs) and no verdict is given.
  Verdicts also need the slope of the curve fitted to *all* judged units to be significantly
  positive (one test per scenario, so prices that say nothing about strength give a verdict
  at most at that test's error rate, whichever unit is left out).
  ``ratio = price / fair price``; a fair price outside the range of the rated units' prices
  is *beyond the data* (an extrapolation of the curve, never a headline number).
* **Verdict**: a unit is *over-priced* (weaker than its price says) or *under-priced*
  (stronger) only when (1) it is priced and has nothing not simulated, (2) its fair price is
  bounded, and (3) the test of ``theta = a + b (ln price - m)`` (t statistic above, with
  ``n - 3`` degrees of freedom) rejects after Holm's step-down correction over *all rated
  units* of the scenario (the issue's wording: every priced unit the rating reports is one
  hypothesis "price = fair price"; a rated unit that cannot get a verdict, such as one with
  something not simulated, counts in the family as a test that does not reject, p = 1, so
  adding such units never makes a verdict easier; a pool unit that is not itself rated only
  helps fit the curve) at family-wise error rate
  ``ALPHA`` (or Benjamini-Hochberg at false discovery rate ``ALPHA`` with
  ``correction="bh"``). The run's verdict must hold, in the same direction, in *every*
  scenario of the declared set (:func:`robustness`).
* **Price gap**: score of the dearer side against ``ln(price ratio)``, a logistic curve
  through 1/2 at ratio 1 (``sigma(beta ln ratio)``: swapping the seats flips both), fitted by
  binomial likelihood with every record weighted alike, 95% band from a bootstrap over the
  units (``N_BOOT`` replicates, fixed seed).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

#: ridge penalty on the strengths (module docstring): small against one record's information
#: (~0.1 to 0.25 per record), large enough to keep an unbeaten unit finite
RIDGE = 1e-3
#: error rate of the verdicts (Holm: family-wise; BH: false discovery rate)
ALPHA = 0.05
CORRECTIONS = ("holm", "bh")
Z95 = 1.959963984540054
#: bootstrap replicates of the price-gap curve's band
N_BOOT = 400
#: verdict words
OVER, UNDER = "over-priced", "under-priced"
NONE = "no verdict"


def sigma(x: np.ndarray) -> np.ndarray:
    """The logistic function, stable for large ``|x|``."""
    return 0.5 * (1 + np.tanh(0.5 * np.asarray(x, float)))


def score_stats(win: np.ndarray, loss: np.ndarray, tie: np.ndarray, n: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Mean score and its Monte Carlo variance from outcome counts (module docstring): the
    score is (win + tie/2) / n; the variance that of the per-duel score over ``n`` duels, from
    the counts with 1/3 of a duel added to each outcome. ``n = 0`` (exact): variance 0, and the
    counts are read as probabilities."""
    win, loss, tie, n = (np.asarray(x, float) for x in (win, loss, tie, n))
    exact = n <= 0
    tot = np.where(exact, 1.0, n)
    s = (win + 0.5 * tie) / tot
    pw, pt = (win + 1 / 3) / (n + 1), (tie + 1 / 3) / (n + 1)
    sa = pw + 0.5 * pt
    var = np.maximum(pw + 0.25 * pt - sa * sa, 0.0) / np.where(exact, 1.0, n)
    return s, np.where(exact, 0.0, var)


@dataclass(frozen=True)
class BTFit:
    """A Bradley-Terry fit: strengths ``theta`` (mean 0), their covariance ``cov`` (Monte
    Carlo error, delta method) and standard errors ``se``."""

    theta: np.ndarray
    cov: np.ndarray

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    @property
    def ci_low(self) -> np.ndarray:
        return self.theta - Z95 * self.se

    @property
    def ci_high(self) -> np.ndarray:
        return self.theta + Z95 * self.se


def bradley_terry(i: np.ndarray, j: np.ndarray, s: np.ndarray, v: np.ndarray, k: int,
                  ridge: float = RIDGE, tol: float = 1e-12, max_iter: int = 100) -> BTFit:
    """Bradley-Terry strengths of ``k`` units from records (``i`` side A, ``j`` side B,
    ``s`` A's mean score, ``v`` its variance), each record one vote; the delta-method
    covariance of the strengths (module docstring)."""
    i = np.asarray(i, np.intp)
    j = np.asarray(j, np.intp)
    s = np.clip(np.asarray(s, float), 0.0, 1.0)
    v = np.asarray(v, float)
    theta = np.zeros(k)
    eye = ridge * np.eye(k)
    for _ in range(max_iter):
        p = sigma(theta[i] - theta[j])
        g = np.zeros(k)
        np.add.at(g, i, s - p)
        np.add.at(g, j, p - s)
        g -= ridge * theta
        h = _laplacian(i, j, p * (1 - p), k) + eye
        step = np.linalg.solve(h, g)
        theta = theta + step
        if float(np.max(np.abs(step), initial=0.0)) < tol:
            break
    p = sigma(theta[i] - theta[j])
    hinv = np.linalg.inv(_laplacian(i, j, p * (1 - p), k) + eye)
    middle = _laplacian(i, j, v, k)
    cov = hinv @ middle @ hinv
    return BTFit(theta, (cov + cov.T) / 2)


def _laplacian(i: np.ndarray, j: np.ndarray, w: np.ndarray, k: int) -> np.ndarray:
    """``A' diag(w) A`` for the incidence matrix ``A`` (+1 at ``i``, -1 at ``j``)."""
    m = np.zeros((k, k))
    np.add.at(m, (i, i), w)
    np.add.at(m, (j, j), w)
    np.add.at(m, (i, j), -w)
    np.add.at(m, (j, i), -w)
    return m


# -- the fairness curve -------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """``theta = a + b (x - centre)`` by least squares: variances of ``a`` and ``b`` (their
    covariance is 0 about the centre), residual degrees of freedom ``df``."""

    a: float
    b: float
    centre: float
    var_a: float
    var_b: float
    df: int

    def at(self, x: np.ndarray) -> np.ndarray:
        return self.a + self.b * (np.asarray(x, float) - self.centre)

    def var_at(self, x: np.ndarray) -> np.ndarray:
        return self.var_a + (np.asarray(x, float) - self.centre) ** 2 * self.var_b

    @property
    def slope_ci(self) -> tuple[float, float]:
        q = t975(int(self.df))
        half = q * math.sqrt(self.var_b) if math.isfinite(self.var_b) else math.inf
        return self.b - half, self.b + half


@functools.lru_cache(maxsize=4096)
def t975(df: int) -> float:
    """Student's t 97.5% quantile (inf for no degrees of freedom)."""
    if df <= 0:
        return math.inf
    from scipy import stats  # on first use: importing scipy.stats costs ~1 s

    return float(stats.t.ppf(0.975, df))


def fit_line(x: np.ndarray, y: np.ndarray) -> Line:
    """Least-squares line through (x, y) with its coefficient variances (NaN line for fewer
    than 3 points: its error cannot be estimated)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    n = len(x)
    if n < 3:
        return Line(math.nan, math.nan, math.nan, math.inf, math.inf, 0)
    c = float(x.mean())
    sxx = float(np.sum((x - c) ** 2))
    a = float(y.mean())
    b = float(np.sum((x - c) * (y - a)) / sxx) if sxx > 0 else 0.0
    resid = y - a - b * (x - c)
    s2 = float(np.sum(resid ** 2) / (n - 2))
    return Line(a, b, c, s2 / n, s2 / sxx if sxx > 0 else math.inf, n - 2)


def curve_band(line: Line, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fitted strength at ``x`` and its 95% band (the line's own interval)."""
    y = line.at(x)
    half = t975(int(line.df)) * np.sqrt(line.var_at(x))
    return y, y - half, y + half


def fieller(theta: float, var_theta: float, line: Line) -> tuple[float, float, float]:
    """Fair ln price of a strength on ``line`` and its 95% Fieller interval (module
    docstring): (point, low, high); (nan, -inf, inf) when the slope is not significantly
    positive (the set is unbounded)."""
    q = t975(int(line.df))
    b, c = line.b, theta - line.a
    qa = b * b - q * q * line.var_b
    if not (math.isfinite(qa) and qa > 0 and b > 0):
        return math.nan, -math.inf, math.inf
    point = line.centre + c / b
    qb = -2 * b * c
    qc = c * c - q * q * (var_theta + line.var_a)
    disc = max(qb * qb - 4 * qa * qc, 0.0)
    d1, d2 = (-qb - math.sqrt(disc)) / (2 * qa), (-qb + math.sqrt(disc)) / (2 * qa)
    return point, line.centre + d1, line.centre + d2


def adjust(p: np.ndarray, method: str = "holm") -> np.ndarray:
    """Multiple-comparison adjusted p-values: Holm's step-down (family-wise error) or
    Benjamini-Hochberg (false discovery rate). NaN entries are not tested (kept NaN)."""
    if method not in CORRECTIONS:
        raise ValueError(f"correction {method!r}: one of {CORRECTIONS}")
    p = np.asarray(p, float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = len(ok)
    if not m:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    ps = p[order]
    if method == "holm":
        adj = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * ps))
    else:
        adj = np.minimum.accumulate((m / np.arange(1, m + 1) * ps)[::-1])[::-1]
        adj = np.minimum(adj, 1.0)
    out[order] = adj
    return out


@dataclass(frozen=True)
class Judgement:
    """Per unit (arrays in unit order): the curve each unit is judged against (leave one
    out), its residual, test and fair price; and the verdicts."""

    residual: np.ndarray
    resid_se: np.ndarray
    mc_var: np.ndarray
    line_var: np.ndarray
    p_value: np.ndarray
    p_adjusted: np.ndarray
    fair_ln: np.ndarray
    fair_ln_low: np.ndarray
    fair_ln_high: np.ndarray
    verdict: np.ndarray
    reason: np.ndarray
    df: np.ndarray
    line: Line
    #: the correction's family: the rated (priced) units (module docstring)
    family: int = 0


def judge(fit: BTFit, price: np.ndarray, judged: np.ndarray, reasons: list[str] | None = None,
          correction: str = "holm", alpha: float = ALPHA, rated: np.ndarray | None = None
          ) -> Judgement:
    """Fair prices and verdicts of every unit (module docstring). ``price``: NaN when
    unknown; ``judged``: whether a unit may get a verdict (priced and fully simulated), the
    others (``reasons`` says why) are still given a fair price against the judged units'
    curve; ``rated``: the units the rating reports (default: all), the correction's family
    with their price; a unit outside it (a pool unit only) helps fit the curve, but is not
    tested."""
    k = len(fit.theta)
    price = np.asarray(price, float)
    judged = np.asarray(judged, bool) & np.isfinite(price) & (price > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(price > 0, np.log(price), np.nan)
    var = np.diag(fit.cov)
    full = fit_line(x[judged], fit.theta[judged])
    res, rse, lvar, pval, fl, flo, fhi, dfs = (np.full(k, np.nan) for _ in range(8))
    why = np.array([r or "" for r in (reasons or [""] * k)], dtype=object)
    for u in range(k):
        if not np.isfinite(x[u]):
            why[u] = why[u] or "no price"
            continue
        others = judged.copy()
        others[u] = False
        line = fit_line(x[others], fit.theta[others]) if judged[u] else full
        if line.df <= 0:
            why[u] = why[u] or "too few judged units for a curve"
            continue
        pred = float(line.at(x[u]))
        lv = float(line.var_at(x[u]))
        res[u] = fit.theta[u] - pred
        lvar[u] = lv
        rse[u] = math.sqrt(var[u] + lv)
        dfs[u] = line.df
        fl[u], flo[u], fhi[u] = fieller(float(fit.theta[u]), float(var[u]), line)
        if judged[u]:
            t = res[u] / rse[u] if rse[u] > 0 else math.copysign(math.inf, res[u])
            from scipy import stats

            pval[u] = float(2 * stats.t.sf(abs(t), line.df))
    fam = (np.ones(k, bool) if rated is None else np.asarray(rated, bool)) \
        & np.isfinite(price) & (price > 0)  # the family: every rated unit (module doc)
    tested = judged & fam
    padj = adjust(np.where(tested & np.isfinite(pval), pval, np.where(fam, 1.0, np.nan)),
                  correction)
    padj[~tested] = np.nan  # counted in the family (p = 1), never a verdict
    verdict = np.full(k, NONE, dtype=object)
    determined = full.df > 0 and full.slope_ci[0] > 0
    for u in range(k):
        if not tested[u]:
            if judged[u]:
                why[u] = why[u] or "a pool unit, not rated (not tested)"
            continue
        if not determined or not np.isfinite(fl[u]):
            why[u] = why[u] or "fair price undetermined (the curve's slope is not " \
                "significantly positive)"
        elif padj[u] < alpha:
            verdict[u] = UNDER if res[u] > 0 else OVER
        else:
            why[u] = why[u] or "interval includes the fair price"
    return Judgement(res, rse, var, lvar, pval, padj, fl, flo, fhi, verdict, why, dfs, full,
                     int(fam.sum()))


def robustness(verdicts: list[np.ndarray], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The run's verdict per unit (the same verdict in every scenario, else none) and its
    robustness text: "holds in N of N scenarios", "depends on: <scenarios without it>" or
    "no verdict in any of N scenarios"."""
    v = np.array(verdicts, dtype=object)  # scenarios x units
    n = len(names)
    out = np.full(v.shape[1], NONE, dtype=object)
    text = np.empty(v.shape[1], dtype=object)
    for u in range(v.shape[1]):
        col = list(v[:, u])
        for word in (OVER, UNDER):
            hits = [names[s] for s in range(n) if col[s] == word]
            if len(hits) == n:
                out[u] = word
                text[u] = f"holds in {n} of {n} scenarios"
                break
            if hits:
                miss = [f"{names[s]} ({col[s]})" for s in range(n) if col[s] != word]
                text[u] = (f"{word} in {len(hits)} of {n} scenarios; depends on: "
                           + ", ".join(miss))
                break
        else:
            text[u] = f"no verdict in any of {n} scenarios"
    return out, text


# -- how big a price gap decides a fight --------------------------------------------------------
def gap_slope(x: np.ndarray, s: np.ndarray, w: np.ndarray | None = None,
              iters: int = 60) -> float:
    """beta of ``score = sigma(beta x)`` by binomial likelihood (fractional scores), Newton."""
    x = np.asarray(x, float)
    s = np.asarray(s, float)
    w = np.ones_like(x) if w is None else np.asarray(w, float)
    beta = 0.0
    for _ in range(iters):
        p = sigma(beta * x)
        hess = float(np.sum(w * p * (1 - p) * x * x))
        if hess <= 0:
            break
        step = float(np.sum(w * (s - p) * x)) / hess
        beta += step
        if abs(step) < 1e-12:
            break
    return beta


@dataclass(frozen=True)
class Gap:
    """The price-gap curve: ``beta`` with its bootstrap replicates."""

    beta: float
    boot: np.ndarray

    def win(self, ratio: float) -> tuple[float, float, float]:
        """Score of the dearer side at ``ratio``, with its 95% band."""
        x = math.log(ratio)
        b = sigma(self.boot * x)
        lo, hi = np.percentile(b, [2.5, 97.5]) if len(b) else (math.nan, math.nan)
        return float(sigma(np.asarray(self.beta * x))), float(lo), float(hi)

    def ratio_for(self, score: float) -> tuple[float, float, float]:
        """Price ratio at which the dearer side scores ``score`` (> 1/2), with its 95%
        interval (inf where the slope's replicate is not positive)."""
        lg = math.log(score / (1 - score))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            r = np.where(self.boot > 0, np.exp(np.minimum(
                lg / np.where(self.boot > 0, self.boot, 1), 700)), np.inf)
        lo, hi = (np.percentile(r, [2.5, 97.5], method="nearest") if len(r)
                  else (math.nan, math.nan))
        point = math.exp(lg / self.beta) if self.beta > 0 else math.inf
        return point, float(lo), float(hi)


def gap_curve(ia: np.ndarray, ib: np.ndarray, x: np.ndarray, s: np.ndarray, k: int,
              seed: int = 0, n_boot: int = N_BOOT) -> Gap:
    """Fit the price-gap curve over records (``ia``/``ib`` the units, ``x`` = ln price
    ratio A/B, ``s`` A's score), band by a bootstrap over the units (module docstring)."""
    ia = np.asarray(ia, np.intp)
    ib = np.asarray(ib, np.intp)
    beta = gap_slope(x, s)
    rng = np.random.default_rng(seed)
    boots = np.empty(n_boot)
    for r in range(n_boot):
        mult = np.bincount(rng.integers(0, k, k), minlength=k).astype(float)
        w = mult[ia] * mult[ib]
        boots[r] = gap_slope(x, s, w) if w.sum() > 0 else beta
    return Gap(beta, boots)
