"""The compiled engine's dice (issue 21): results bit for bit the same whatever the block
size, ``--jobs`` or backend, and the same with numba's JIT off (``NUMBA_DISABLE_JIT=1``,
for debugging and coverage); each roll kind on its own sub-stream."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from sim.classic.duel.scenario import build
from sim.classic.engine import dice, sampler
from sim.classic.engine.layout import N_KINDS

P = {"unit_a": "Hunchback HBK-4G", "unit_b": "Wolverine WVR-6R", "range": 1,
     "moved_a": "walk", "turns": 6}


def test_block_size_does_not_change_a_duel() -> None:
    scn = build(P)
    a = sampler.run(scn, np.random.default_rng(5), 300)
    b = sampler.run(scn, np.random.default_rng(5), 300, block=7)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    # a longer run starts with the same duels
    c = sampler.run(scn, np.random.default_rng(5), 500)
    assert np.array_equal(a["dead_turn"], c["dead_turn"][:, :300])


def test_decision_table_history_does_not_change_a_duel() -> None:
    """Named firing policies: duels abandoned for a decision not yet in the table are re-run
    the same (dice keyed per duel), so a fresh table, a warm one and any block size agree."""
    p = {**P, "range": 3, "policy_a": "max-expected", "policy_b": "below:12"}
    a = sampler.run(build(p), np.random.default_rng(5), 300)
    scn = build(p)
    b = sampler.run(scn, np.random.default_rng(5), 300, block=7)
    c = sampler.run(scn, np.random.default_rng(5), 300)        # the table filled already
    for k in a:
        assert np.array_equal(a[k], b[k]) and np.array_equal(a[k], c[k]), k


def test_jobs_and_backend_do_not_change_results() -> None:
    from sim import engine
    from sim.models import get_model

    model = get_model("classic-duel")
    params = [P, {**P, "range": 4, "physical_a": "none", "physical_b": "none"}]
    one = engine.simulate(model, params, 600, 3, n_jobs=1, backend="sequential",
                          chunk_size=256, progress="never", with_exact=False)
    two = engine.simulate(model, params, 600, 3, n_jobs=2, backend="loky", chunk_size=256,
                          progress="never", with_exact=False)
    assert one.equals(two)


def test_roll_kinds_have_their_own_streams() -> None:
    keys = dice.chunk_keys(np.random.default_rng(9))
    assert keys.shape == (N_KINDS,) and len(set(keys.tolist())) == N_KINDS
    # key k does not depend on how many kinds there are: each is its own sub-stream
    from sim.streams import Streams

    s = Streams(np.random.default_rng(9))
    assert int(s(dice.STREAM_KIND, 3).integers(0, 2**64, dtype=np.uint64)) == int(keys[3])


def test_d6_is_uniform() -> None:
    from numba import njit

    @njit
    def rolls(D, n):  # type: ignore[no-untyped-def]
        out = np.zeros(7, np.int64)
        for _ in range(n):
            out[dice.d6(D, 0)] += 1
        return out

    D = dice.dice_array()
    dice.start_duel(D, dice.chunk_keys(np.random.default_rng(1)), 0)
    n = 600_000
    c = rolls(D, n)[1:]
    chi2 = float(((c - n / 6) ** 2 / (n / 6)).sum())
    assert c.sum() == n and chi2 < 25.0         # 5 degrees of freedom: p < 1e-4


def test_numba_disable_jit_gives_the_same_duels() -> None:
    code = ("import json, numpy as np; from sim.classic.duel.scenario import build; "
            "from sim.classic.engine import sampler; "
            f"o = sampler.run(build({P!r}), np.random.default_rng(2), 12); "
            "print(json.dumps({k: np.asarray(v).astype(int).tolist() for k, v in o.items()}))")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=600)
    slow = json.loads(res.stdout.strip().splitlines()[-1])
    fast = sampler.run(build(P), np.random.default_rng(2), 12)
    for k, v in fast.items():
        assert np.asarray(v).astype(int).tolist() == slow[k], k
