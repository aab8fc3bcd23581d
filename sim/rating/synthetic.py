"""Synthetic rating data with known answers (tests and the report's synthetic results): a
pool whose true Bradley-Terry strengths are given, every pairing's duels drawn from them.
Seeded, vectorized, no models."""

from __future__ import annotations

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
