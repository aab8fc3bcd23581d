"""The ``classic-duel`` sampler on the compiled engine: numba is imported here, lazily, the
first time a duel is sampled (never at ``import sim`` or CLI start)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.aggregate import Aggregate
from sim.classic.duel.scenario import DuelScenario
from sim.classic.engine.compile import Compiled, compile_scenario
from sim.memo import WeightedLRU

#: duels per kernel call: bounds the outcome arrays (~(10 + 2 T) int64 per duel); results do
#: not depend on it (the dice are keyed per duel)
BLOCK = 16384


#: the engine's numba modules: numba's cache checks only each function's own file, so a
#: change in a callee module would leave a stale caller; :func:`_kernel` drops the engine's
#: cache files whenever the sources' hash changes
_SOURCES = ("arrays", "dice", "damage", "psr", "move", "fire", "physical", "heat", "end",
            "target", "turn", "layout", "compile", "tactics")


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


#: compiled scenarios (flat arrays and filled decision tables) a process keeps by content
#: (:func:`scenario_key`): at most this many, the oldest dropped first ...
COMPILED_ITEMS = 64
#: ... and at most this much weight in all (:func:`_weight`, KiB, an upper estimate: the
#: bench pairing's 16384 duels at 6 hexes about 27 MiB for 20 MiB measured, a 200-duel
#: scenario at 9 hexes 14 MiB for 11): 64 MiB
COMPILED_WEIGHT = 64 * 1024
_COMPILED: WeightedLRU[Any, Compiled] = WeightedLRU(COMPILED_ITEMS, COMPILED_WEIGHT)


def scenario_key(scn: DuelScenario) -> Any | None:
    """What the compiled scenario is a function of: every field of ``scn`` by value, each
    side by its token (:func:`sim.classic.duel.scenario._per_unit`: the same token is the
    same built side, and a pickled copy in a worker keeps it). None when a side has no token
    or a field is unhashable (the scenario is then compiled for itself, as before). Issue 21:
    a loky worker unpickles a fresh copy of the scenario with every batch of tasks; keyed
    so, it finds the tables an earlier batch filled instead of filling them again."""
    import dataclasses

    from sim.classic.duel.scenario import Side

    def part(v: Any) -> Any:
        if isinstance(v, Side):
            token = v.__dict__.get("_btsim_token")
            if token is None:
                raise TypeError("a side without a token")
            return ("side", token)
        if isinstance(v, tuple):
            return tuple(part(x) for x in v)
        return v

    try:
        key = tuple((f.name, part(getattr(scn, f.name))) for f in dataclasses.fields(scn))
        hash(key)
    except TypeError:
        return None
    return key


def _weight(comp: Compiled) -> int:
    """The size of a compiled scenario in :data:`_COMPILED`, KiB (an upper estimate): its
    flat arrays and decision table, and about (R + 1) / 2 KiB per entry of the tactics'
    planner (its memos of (4, 4, R + 1) arrays, R the start distance)."""
    planner = comp.table.planner
    arrays = sum(p.nbytes for p in comp.parts) + comp.table.arr.nbytes
    entries = planner.weight() * (planner.R + 1) // 2 if planner is not None else 0
    return 1 + arrays // 1024 + entries


def _compiled(scn: DuelScenario) -> Compiled:
    got: Compiled | None = scn.__dict__.get("_engine_compiled")
    if got is None:
        key = scenario_key(scn)
        got = _COMPILED.get(key) if key is not None else None
        if got is None:
            got = compile_scenario(scn)
        object.__setattr__(got, "_btsim_key", key)
        object.__setattr__(scn, "_engine_compiled", got)
    return got


def _keep(comp: Compiled) -> None:
    """Keep (again, at its weight now) a compiled scenario after a run filled its tables."""
    key = comp.__dict__.get("_btsim_key")
    if key is not None:
        _COMPILED.put(key, comp, _weight(comp))


def clear_cache() -> None:
    """Forget the compiled scenarios this process keeps (tests; :data:`_COMPILED`)."""
    _COMPILED.clear()


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
    (U, n): one row per unit, ``dealt`` (U, T, n), ``range`` (T, n))."""
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
    _keep(comp)
    return {"dead_turn": ints[:, :, 0].T.copy(), "cause": ints[:, :, 1].T.copy(),
            "out": ints[:, :, 2].T.copy(), "fell_turn": ints[:, :, 3].T.copy(),
            "shut_turn": ints[:, :, 4].T.copy(), "fell": ints[:, :, 3].T > 0,
            "shut": ints[:, :, 4].T > 0, "dealt": dealt.transpose(1, 2, 0).copy(),
            "range": rng_t.T.copy()}


def _rows(n: int, s: np.ndarray, q: np.ndarray | None = None,
          c: np.ndarray | None = None) -> np.ndarray:
    """``(k, 3)`` float rows ``count, sum, sum of squares`` (:class:`Aggregate` stats)."""
    s = np.asarray(s, np.float64).reshape(-1)
    q = s if q is None else np.asarray(q, np.float64).reshape(-1)
    c = np.full(s.size, float(n)) if c is None else np.asarray(c, np.float64).reshape(-1)
    return np.stack([c, s, q], axis=1)


def summarize_block(T: int, ints: np.ndarray, dealt: np.ndarray, rng_t: np.ndarray
                    ) -> Aggregate | None:
    """The aggregate :func:`sim.classic.duel.kernel.summarize` makes of a block's outcomes
    (``ints`` (k, U, 5), ``dealt`` (k, U, T), ``rng_t`` (k, T)), the same numbers in the same
    order, from one count per metric (bincounts and cumulative sums over turns instead of one
    NumPy pass per metric and turn: a 200-duel scenario's summary cost more than its duels,
    issue 21). Every statistic is a sum of integers (exact in float64), so it is
    bit-identical (tested). None for anything but two units with outcomes >= 0 (the caller
    then uses the general summary)."""
    from sim.classic.damage_state import state as st
    from sim.classic.duel.kernel import outcomes
    from sim.classic.duel.rules import OUT_REASONS

    n, U = ints.shape[0], ints.shape[1]
    if U != 2 or (ints.size and ints.min() < 0):
        return None
    agg = Aggregate(n)
    put = agg.stats.__setitem__
    da, db = ints[:, 0, 0], ints[:, 1, 0]
    win_a, win_b, draw, timeout, end = outcomes(da, db, T)
    fell, shut = ints[:, :, 3] > 0, ints[:, :, 4] > 0
    flags = np.stack([win_a, win_b, draw, timeout, fell[:, 0], fell[:, 1], shut[:, 0],
                      shut[:, 1]])
    for name, c in zip(("p_win_a", "p_win_b", "p_draw", "p_timeout", "p_fell_a", "p_fell_b",
                        "p_shutdown_by_a", "p_shutdown_by_b"),
                       np.count_nonzero(flags, axis=1), strict=True):
        put(name, _rows(n, c))
    e = end.astype(np.int64)
    put("expected_turns", _rows(n, e.sum(), (e * e).sum()))
    nc, no = len(st.CAUSES), len(OUT_REASONS)
    for j, s in enumerate("ab"):
        dead = ints[:, j, 0] > 0
        causes = np.bincount(ints[dead, j, 1], minlength=nc)
        for ci, cause in enumerate(st.CAUSES[1:], start=1):
            put(f"p_{s}_destroyed_by_{cause}", _rows(n, causes[ci]))
        outs = np.bincount(ints[:, j, 2], minlength=no)
        for oi, reason in enumerate(OUT_REASONS[1:], start=1):
            put(f"p_{s}_out_by_{reason}", _rows(n, outs[oi]))

    def by_turn(first: np.ndarray) -> np.ndarray:
        """Duels with ``0 < first <= t`` for t = 1..T."""
        return np.cumsum(np.bincount(first, minlength=T + 1)[1:T + 1])

    put("p_a_destroyed_by", _rows(n, by_turn(da)))
    put("p_b_destroyed_by", _rows(n, by_turn(db)))
    for j, s in enumerate("ab"):
        put(f"p_{s}_shutdown_by", _rows(n, by_turn(ints[:, j, 4])))
        put(f"p_{s}_fell_by", _rows(n, by_turn(ints[:, j, 3])))
    for j, s in enumerate("ab"):
        d = dealt[:, j, :]
        put(f"expected_damage_{s}", _rows(n, d.sum(axis=0), (d * d).sum(axis=0)))
    live = rng_t > 0
    r = np.where(live, rng_t, 0)
    put("expected_range", _rows(n, r.sum(axis=0), (r * r).sum(axis=0),
                                np.count_nonzero(live, axis=0)))
    for j, s in enumerate("ab"):
        tot = dealt[:, j, :].sum(axis=1)
        put(f"expected_damage_total_{s}", _rows(n, tot.sum(), (tot * tot).sum()))
    agg.hists["turns_hist"] = np.bincount(e, minlength=T + 1)[None, :T + 1].astype(np.int64)
    return agg


def simulate(scn: DuelScenario, rng: np.random.Generator, n: int,
             summarize: Any = None) -> Aggregate:
    """``n`` duels aggregated into the model's metrics, one block at a time: ``summarize``
    (scenario, outcomes of :func:`run`'s form) -> Aggregate, by default the duel's
    (:func:`sim.classic.duel.kernel.summarize`; ``classic-force`` passes its own)."""
    from sim.classic.duel import kernel as nk
    from sim.classic.engine import dice

    default = summarize is None
    summarize = nk.summarize if summarize is None else summarize

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
        fast = summarize_block(T, ints, dealt, rng_t) if default else None
        if fast is not None:
            agg.merge(fast)
            continue
        out = {"dead_turn": ints[:, :, 0].T, "cause": ints[:, :, 1].T, "out": ints[:, :, 2].T,
               "fell_turn": ints[:, :, 3].T, "shut_turn": ints[:, :, 4].T,
               "fell": ints[:, :, 3].T > 0, "shut": ints[:, :, 4].T > 0,
               "dealt": dealt.transpose(1, 2, 0), "range": rng_t.T}
        agg.merge(summarize(scn, out))
    _keep(comp)
    return agg
