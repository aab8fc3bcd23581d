"""Synthetic rating data with known answers (tests and the report's synthetic results): a
pool whose true Bradley-Terry strengths are given, every pairing's duels drawn from them.
Seeded, vectorized, no models."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.rating.fit import score_stats, sigma


def records(theta: np.ndarray, n: int, rng: np.random.Generator, tie: float = 0.1,
            opponents: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Duel records of units with true strengths ``theta``: every unit against every unit of
    ``opponents`` (default: all, a round-robin), both seatings, ``n`` duels each; a duel is
    a tie with probability ``tie`` x 4 p (1 - p) and otherwise won by A with the probability
    that makes A's expected score ``sigma(theta_A - theta_B)``. Returns ``i``, ``j``, win,
    loss and tie counts, ``n``, the score ``s`` and its variance ``v``."""
    theta = np.asarray(theta, float)
    k = len(theta)
    opp = np.arange(k) if opponents is None else np.asarray(opponents, np.intp)
    pairs = sorted({(min(a, b), max(a, b)) for a in range(k) for b in opp if a != b})
    i = np.array([p[0] for p in pairs] + [p[1] for p in pairs], np.intp)
    j = np.array([p[1] for p in pairs] + [p[0] for p in pairs], np.intp)
    p = sigma(theta[i] - theta[j])
    pt = tie * 4 * p * (1 - p)
    pw = np.clip(p - pt / 2, 0, 1)
    pl = np.clip(1 - pw - pt, 0, 1)
    cnt = rng.multinomial(n, np.stack([pw, pl, 1 - pw - pl], axis=1))
    nn = np.full(len(i), float(n))
    s, v = score_stats(cnt[:, 0], cnt[:, 1], cnt[:, 2], nn)
    return {"i": i, "j": j, "win": cnt[:, 0], "loss": cnt[:, 1], "tie": cnt[:, 2], "n": nn,
            "s": s, "v": v}


def rating(seed: int = 0, k: int = 10, pool: int = 4, n: int = 200, slope: float = 1.5,
           misprice: dict[int, float] | None = None, incomplete: tuple[int, ...] = (1,),
           scenarios: tuple[str, ...] = ("short", "medium", "long"),
           random_prices: bool = False, n_boot: int = 400) -> Any:
    """A whole synthetic :class:`sim.rating.run.Rating` without any duel model: ``k`` units
    ``U00``.. whose true strength is ``slope`` x (ln price - mean) plus ``misprice[u]``
    (the same in every scenario), against a pool of ``pool`` units spread over the price
    range; ``incomplete`` units are marked as not fully simulated.
    ``random_prices``: the prices are drawn independently of the strengths."""
    from sim.rating import run as R

    rng = np.random.default_rng(seed)
    price = np.round(np.exp(np.linspace(np.log(15), np.log(55), k)), 0)
    x = np.log(price)
    theta = slope * (x - x.mean())
    for u, d in (misprice or {}).items():
        theta[u] += d
    if random_prices:
        price = rng.permutation(price)
    names = [f"U{u:02d}" for u in range(k)]
    pool_idx = np.unique(np.round(np.linspace(0, k - 1, pool)).astype(int))
    scns = [{"name": s} for s in scenarios]
    pl = R.Plan("synthetic", names, [names[i] for i in pool_idx], "synthetic", scns)
    theta = theta - theta.mean()
    for si in range(len(scns)):
        rec = records(theta, n, rng, opponents=pool_idx)
        for a, b, w, lo, t in zip(rec["i"], rec["j"], rec["win"], rec["loss"], rec["tie"],
                                  strict=True):
            pl.pairings.append(R.Pairing(si, names[a], names[b], {}, False, n,
                                         (float(w), float(lo), float(t))))
    reasons = ["not simulated: XYZ (synthetic)" if u in incomplete else "" for u in range(k)]
    judged = np.array([not r for r in reasons])
    fits = R.fit_all(pl, price.astype(float), judged, reasons, "holm")
    frame = R.tidy(pl, fits, price.astype(float), judged, reasons)
    meta = {"kind": "rating", "report": "rating", "game": "synthetic", "model": "synthetic",
            "price": "pv", "price_label": "PV", "units": names, "pool": pl.pool,
            "pool_how": "synthetic", "scenarios": scns, "seatings": "both",
            "tactic": "synthetic", "seed": seed, "target_error": 0.35, "max_trials": n,
            "chunk_size": n, "exact": False, "correction": "holm", "alpha": 0.05,
            "family": fits.pooled_judgement.family, "judged": int(judged.sum()),
            "ridge": 1e-3, "rounds": [], "duels": int(sum(p.n for p in pl.pairings)),
            "exact_pairings": 0, "pairings": len(pl.pairings), "jobs": 1, "backend": "none",
            "curve": R.curve_meta(pl, fits, price.astype(float), judged),
            "gap": R.gap_table(pl, price.astype(float), seed, n_boot), "unsimulated": {},
            "wall_time_s": 0.0, "true_strength": dict(zip(names, theta.tolist(), strict=True))}
    return R.Rating(frame, R.pairings_frame(pl, price.astype(float)), meta)
