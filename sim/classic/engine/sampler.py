"""The ``classic-duel`` sampler on the compiled engine: numba is imported here, lazily, the
first time a duel is sampled (never at ``import sim`` or CLI start)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.aggregate import Aggregate
from sim.classic.duel.scenario import DuelScenario
from sim.classic.engine.compile import Compiled, compile_scenario

#: duels per kernel call: bounds the outcome arrays (~(10 + 2 T) int64 per duel); results do
#: not depend on it (the dice are keyed per duel)
BLOCK = 16384


#: the engine's numba modules: numba's cache checks only each function's own file, so a
#: change in a callee module would leave a stale caller; :func:`_kernel` drops the engine's
#: cache files whenever the sources' hash changes
_SOURCES = ("arrays", "dice", "damage", "psr", "move", "fire", "physical", "heat", "end",
            "turn", "layout", "compile", "tactics")


def _fresh_cache(here: Any = None) -> bool:
    """Drop the engine's numba cache when its sources changed; return whether the cache
    holds a compiled turn loop (False: the next import compiles, about a minute)."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).parent if here is None else Path(here)
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((here / f"{name}.py").read_bytes())
    cache = here / "__pycache__"
    stamp = cache / "engine-sources.sha256"
    digest = h.hexdigest()
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return any(cache.glob("turn.*.nbi"))
        cache.mkdir(exist_ok=True)
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:     # a read-only install: numba then caches elsewhere or not at all
        pass
    return False


#: what a user sees (stderr) before a cold compile, so a first Classic duel does not look hung
COMPILE_NOTICE = ("btsim: compiling the Classic engine (once, about a minute on 2 cores; "
                  "later runs load numba's cache)")


def _kernel() -> Any:
    """The compiled turn loop (imports numba; compiles once, then loads numba's cache)."""
    global _TURN
    if _TURN is None:
        import os
        import sys

        if not _fresh_cache() and not os.environ.get("NUMBA_DISABLE_JIT"):
            print(COMPILE_NOTICE, file=sys.stderr, flush=True)
        from sim.classic.engine import turn

        _TURN = turn
    return _TURN


_TURN: Any = None


def warm_up() -> float:
    """Compile the engine (or load numba's cache) and run one tiny duel; returns the
    seconds it took (cold compile or cache load, README)."""
    import time

    from sim.classic.duel.scenario import build

    t0 = time.perf_counter()
    scn = build({"unit_a": "Locust LCT-1V", "unit_b": "Commando COM-2D", "range": 1,
                 "turns": 1})
    run(scn, np.random.default_rng(0), 1)
    return time.perf_counter() - t0


def _compiled(scn: DuelScenario) -> Compiled:
    got = getattr(scn, "_engine_compiled", None)
    if got is None:
        got = compile_scenario(scn)
        object.__setattr__(scn, "_engine_compiled", got)
    return got


def _block(turn: Any, comp: Compiled, keys: np.ndarray, first: int, k: int, D: np.ndarray,
           ints: np.ndarray, dealt: np.ndarray, rng_t: np.ndarray) -> None:
    """Duels ``first .. first + k - 1`` into the given rows. Under a named firing policy the
    decision table fills as it goes: the duels abandoned for a missing decision
    (``ints[:, 0, 0] < 0``) are re-run once :meth:`DecisionTable.fill` has decided it (the
    same duels: their dice are keyed per duel)."""
    from sim.classic.engine import fire

    table = comp.table
    if table.pending:
        table.fill(fire.put)
    turn.run_block(comp.M, keys, first, k, D, ints, dealt, rng_t)
    while True:
        failed = np.flatnonzero(ints[:, 0, 0] < 0)
        if failed.size == 0:
            return
        if table.fill(fire.put) == 0:
            raise AssertionError("classic-duel engine: a duel abandoned with no decision missed")
        turn.run_list(comp.M, keys, first, failed, D, ints, dealt, rng_t)


def run(scn: DuelScenario, rng: np.random.Generator, n: int, block: int = BLOCK
        ) -> dict[str, Any]:
    """``n`` duels: the per-trial outcomes of :func:`sim.classic.duel.kernel.run_block`
    (``dead_turn``, ``cause``, ``out``, ``fell``, ``shut``, ``fell_turn``, ``shut_turn``
    (2, n), ``dealt`` (2, T, n), ``range`` (T, n))."""
    from sim.classic.engine import dice

    turn = _kernel()
    comp = _compiled(scn)
    keys = dice.chunk_keys(rng)
    U, T = comp.units, comp.turns
    ints = np.zeros((n, U, 5), np.int64)
    dealt = np.zeros((n, U, T), np.int64)
    rng_t = np.zeros((n, T), np.int64)
    D = dice.dice_array()
    for first in range(0, n, block):
        k = min(block, n - first)
        _block(turn, comp, keys, first, k, D, ints[first:first + k],
               dealt[first:first + k], rng_t[first:first + k])
    return {"dead_turn": ints[:, :, 0].T.copy(), "cause": ints[:, :, 1].T.copy(),
            "out": ints[:, :, 2].T.copy(), "fell_turn": ints[:, :, 3].T.copy(),
            "shut_turn": ints[:, :, 4].T.copy(), "fell": ints[:, :, 3].T > 0,
            "shut": ints[:, :, 4].T > 0, "dealt": dealt.transpose(1, 2, 0).copy(),
            "range": rng_t.T.copy()}


def simulate(scn: DuelScenario, rng: np.random.Generator, n: int) -> Aggregate:
    """``n`` duels aggregated into the model's metrics, one block at a time."""
    from sim.classic.duel import kernel as nk
    from sim.classic.engine import dice

    turn = _kernel()
    comp = _compiled(scn)
    keys = dice.chunk_keys(rng)
    U, T = comp.units, comp.turns
    D = dice.dice_array()
    agg = Aggregate(0)
    for first in range(0, n, BLOCK):
        k = min(BLOCK, n - first)
        ints = np.zeros((k, U, 5), np.int64)
        dealt = np.zeros((k, U, T), np.int64)
        rng_t = np.zeros((k, T), np.int64)
        _block(turn, comp, keys, first, k, D, ints, dealt, rng_t)
        out = {"dead_turn": ints[:, :, 0].T, "cause": ints[:, :, 1].T, "out": ints[:, :, 2].T,
               "fell_turn": ints[:, :, 3].T, "shut_turn": ints[:, :, 4].T,
               "fell": ints[:, :, 3].T > 0, "shut": ints[:, :, 4].T > 0,
               "dealt": dealt.transpose(1, 2, 0), "range": rng_t.T}
        agg.merge(nk.summarize(scn, out))
    return agg
