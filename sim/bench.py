"""The benchmark behind ``btsim bench``: figures, never pass/fail.

For every kernel a model declares (:attr:`sim.model.Model.bench_cases`) it measures, in one
run and on this machine:

* the kernel alone on one core (trials/s, chunks of the default size, warm);
* the same trials through the engine on one core, giving the engine overhead;
* the engine on all cores (joblib loky), giving the parallel efficiency
  ``rate_all / (cores * rate_one)``;
* the scalar-Python oracle of the same rule (the one the tests use; CPU time, like the
  kernel's one-core figure), and the speed-up; the benchmark links a model to its oracle
  (:data:`sim.oracles.SCALAR_BASELINES`), so products never import their test oracles;
* the exact computation of one scenario (median of repeats, caches cleared when the model
  offers ``clear_cache``).

Rates are in the case's ``unit`` per second: ``per_trial`` units per trial, or, with
``per_trial_metric``, the units a trial really held (a duel that ends in turn 4 of 10 played
4 duel-turns), read from the engine run the benchmark times. A model that declares its own
chunk (``Model.default_chunk``: the Classic duel's kernel block) is timed in it; a slow kernel
without one is timed in smaller chunks (:func:`bench_chunk`), its memory check and cache
figures too, so ``--quick`` stays well under a minute; the table names those chunks.

And once per run: the start-up time of the command line (:func:`startup_times`: ``btsim
--help``, ``btsim units`` and a finished ``btsim run`` in fresh processes, wall and CPU,
against a bare ``python -c pass``), the raw
dice limit (NumPy drawing d6 into uint8 chunks) and the peak
traced memory of a sequential engine run at a small and a large trial count, which shows
that memory is bounded by the chunk size, not the trial count.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from sim import __version__, dice, engine
from sim.models import MODULES, get_model
from sim.oracles import scalar_baseline

#: the commands whose start-up :func:`startup_times` measures (README: under 0.3 s each)
STARTUP_COMMANDS = {"help": ["--help"], "units": ["units"]}


def _rerun_experiment(folder: str, scenarios: int) -> str:
    """A punch-demo experiment file of ``scenarios`` (1224, or 153 with ``--quick``)
    scenarios in ``folder``, for the finished-rerun figure of :func:`startup_times`."""
    grid = {"tons": list(range(20, 101, 5)), "piloting": list(range(9))}
    if scenarios > 153:
        grid["target_hexes"] = list(range(8))
    path = os.path.join(folder, "rerun.toml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('name = "rerun"\nmodel = "punch-demo"\ntrials = 1000\nseed = 1\n'
                 "exact = false\n[grid]\n"
                 + "".join(f"{k} = {v}\n" for k, v in grid.items()))
    return path


def startup_times(repeats: int = 5, rerun_scenarios: int = 1224) -> dict[str, Any]:
    """Wall and CPU (user + system) time of ``btsim --help``, ``btsim units`` and a finished
    ``btsim run`` (``python -m sim``, this interpreter) in fresh processes: the median and
    best of ``repeats`` runs after one warm-up, and of ``python -c pass`` (the interpreter's
    own start-up) for comparison. The finished rerun (``rerun``) is of a punch-demo
    experiment of ``rerun_scenarios`` scenarios run once first (issue 18: start-up plus
    reading the cache, under 0.5 s more than ``btsim --help``). ``bytecode_cache``: whether
    Python may write ``.pyc`` files (``PYTHONDONTWRITEBYTECODE`` makes every start compile
    the sources, several times slower)."""
    import resource
    import tempfile

    def cpu() -> float:
        use = resource.getrusage(resource.RUSAGE_CHILDREN)
        return use.ru_utime + use.ru_stime

    def timed(argv: list[str]) -> tuple[list[float], list[float]]:
        walls, cpus = [], []
        for _ in range(repeats + 1):
            t0, c0 = time.perf_counter(), cpu()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
            walls.append(time.perf_counter() - t0)
            cpus.append(cpu() - c0)
        return walls[1:], cpus[1:]  # the first run warms the file cache

    out: dict[str, Any] = {"repeats": repeats, "rerun_scenarios": rerun_scenarios,
                           "bytecode_cache": not sys.dont_write_bytecode}
    with tempfile.TemporaryDirectory(prefix="btsim-bench-") as tmp:
        run = ["run", _rerun_experiment(tmp, rerun_scenarios), "--out", tmp, "--quiet"]
        subprocess.run([sys.executable, "-m", "sim", *run], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)  # the run to rerun
        for key, argv in {"python": ["-c", "pass"],
                          **{k: ["-m", "sim", *v] for k, v in STARTUP_COMMANDS.items()},
                          "rerun": ["-m", "sim", *run]}.items():
            walls, cpus = timed([sys.executable, *argv])
            out[f"{key}_s"] = statistics.median(walls)
            out[f"{key}_best_s"] = min(walls)
            out[f"{key}_cpu_best_s"] = min(cpus)
    return out


def profile_times(units: list[str] | None = None) -> dict[str, Any]:
    """In-process CPU time (``time.process_time``) of the exact ``btsim profile`` of every
    built-in catalog 'Mech with Classic data (``units``: these instead; a name or an
    ``.mtf`` path), defaults (10 turns, policy ``all``), each the first profile of its unit
    in this process: the median, the maximum and the slowest unit (issue 18: under 1 s for
    any catalog 'Mech). A figure, not pass/fail."""
    from sim.classic.fire.profile import profile_frame

    if units is None:
        from sim.units.catalog import entries

        units = [e.name for e in entries() if e.classic is not None]
    times: dict[str, float] = {}
    for name in units:
        t0 = time.process_time()
        profile_frame({"unit": name})
        times[name] = time.process_time() - t0
    slowest = max(times, key=lambda k: times[k]) if times else None
    return {"units": len(times), "median_s": statistics.median(times.values()) if times
            else math.nan, "max_s": times[slowest] if slowest else math.nan,
            "slowest": slowest, "total_s": sum(times.values())}


def dice_limit(chunk: int = engine.DEFAULT_CHUNK, total: int = 2**25) -> dict[str, float]:
    """Raw dice speed in chunks of the engine's size: NumPy's own bounded-integer d6
    (``Generator.integers``, the baseline) and btsim's byte-rejection d6 and 2D6."""
    rng = np.random.Generator(np.random.PCG64DXSM(1))
    reps = max(1, total // chunk)

    def numpy_d6() -> None:
        for _ in range(reps):
            rng.integers(1, 7, size=chunk, dtype=np.uint8)

    def d6() -> None:
        for _ in range(reps):
            dice.d6(rng, chunk)

    def two() -> None:
        for _ in range(reps):
            dice.two_d6(rng, chunk)

    n = reps * chunk
    return {"numpy_integers_d6_per_s": n / _best(numpy_d6, 3), "d6_per_s": n / _best(d6, 3),
            "two_d6_per_s": n / _best(two, 3)}


def _best(fn: Callable[[], Any], repeats: int) -> float:
    """Best wall time of ``repeats`` calls (the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _times(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one call."""
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w0, time.process_time() - c0


def _kernel_time(model: Any, scn: Any, trials: int, chunk: int) -> Callable[[], None]:
    """The kernel alone: the same chunks and seeds as the engine, no engine around them."""
    def go() -> None:
        for c in range(math.ceil(trials / chunk)):
            model.sample(scn, engine.chunk_rng(0, 0, c), min(chunk, trials - c * chunk))

    return go


def _engine_run(model: Any, params: Any, trials: int, n_jobs: int, backend: str,
                chunk: int | None = None, out: list[Any] | None = None) -> Callable[[], Any]:
    def go() -> Any:
        frame = engine.simulate(model, [params], trials, 0, n_jobs=n_jobs, backend=backend,
                                chunk_size=chunk, progress=False, with_exact=False)
        if out is not None:
            out[:] = [frame]
        return frame

    return go


def peak_memory(model: Any, params: Any, trials: int, chunk: int | None = None) -> float:
    """Peak traced memory (MiB) of a sequential engine run of ``trials`` trials."""
    gc.collect()
    tracemalloc.start()
    try:
        engine.simulate(model, [params], trials, 0, n_jobs=1, backend="sequential",
                        chunk_size=chunk, progress=False, with_exact=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20


#: a kernel whose 4-chunk probe at the default chunk would take longer than this (seconds)
#: is measured in smaller chunks (:func:`bench_chunk`)
SLOW_PROBE_S = 4.0
#: the smallest chunk the benchmark shrinks to (below it a kernel's fixed per-call costs
#: would dominate its rate)
MIN_BENCH_CHUNK = 2**12


def bench_chunk(model: Any, scn: Any, seconds: float) -> int:
    """The chunk size the benchmark measures a kernel in: the engine's default, except for a
    slow kernel (4 default chunks over :data:`SLOW_PROBE_S`): then the largest power of two whose chunk takes at most ``seconds``
    (at least :data:`MIN_BENCH_CHUNK`), so ``--quick`` stays quick. Fast kernels keep the
    default chunk, hence their figures. A model that declares its own chunk
    (``Model.default_chunk``, e.g. the Classic duel's one kernel block) is measured in it:
    that is the chunk its runs use."""
    if getattr(model, "default_chunk", None):
        return int(model.default_chunk)
    n0 = MIN_BENCH_CHUNK
    per = _best(_kernel_time(model, scn, n0, n0), 2) / n0  # per trial, fixed costs included
    chunk = engine.DEFAULT_CHUNK
    if 4 * chunk * per <= SLOW_PROBE_S:
        return chunk
    while chunk > n0 and chunk * per > seconds:
        chunk //= 2
    return chunk


def _scalar_trials(scalar: Callable[..., Any], params: Any, most: int, seconds: float
                   ) -> int:
    """Trials for the scalar oracle: ``most``, unless that would take over ``10 *
    seconds`` (a slow oracle such as the Classic duel's): then what fits in about
    ``3 * seconds``, at least 50."""
    n0 = 20
    t0 = time.process_time()
    scalar(params, np.random.default_rng(1), n0)
    per = (time.process_time() - t0) / n0
    if most * per <= 10 * seconds:
        return most
    return max(50, min(most, int(3 * seconds / per)))


def bench_case(model: Any, case: Any, cores: int, seconds: float = 1.0) -> dict[str, Any]:
    scn = model.scenario(case.params)
    chunk = bench_chunk(model, scn, seconds)
    probe = _best(_kernel_time(model, scn, 4 * chunk, chunk), 3 if chunk ==
                  engine.DEFAULT_CHUNK else 1)
    trials = max(chunk, int(4 * chunk / probe * seconds) // chunk * chunk)
    big = trials * cores
    kernel = _kernel_time(model, scn, trials, chunk)
    frames: list[Any] = []
    seq = _engine_run(model, case.params, trials, 1, "sequential", chunk, frames)
    par = _engine_run(model, case.params, big, cores, "loky", chunk)
    _engine_run(model, case.params, chunk * cores, cores, "loky", chunk)()  # start the pool
    # Interleave the repeats so that a slow spell of a shared machine hits all three alike;
    # keep the best of each. One-core figures use CPU time (immune to other processes).
    k_cpu = e_cpu = k_wall = p_wall = float("inf")
    for _ in range(3):
        w, c = _times(kernel)
        k_wall, k_cpu = min(k_wall, w), min(k_cpu, c)
        e_cpu = min(e_cpu, _times(seq)[1])
        p_wall = min(p_wall, _times(par)[0])
    one = trials / k_cpu
    overhead = e_cpu / k_cpu - 1
    rate_all = big / p_wall
    efficiency = rate_all / (cores * trials / k_wall)
    # rates below are in `case.unit` per second: per_trial items per trial, or the items
    # the trials really held (case.per_trial_metric, from the engine run just timed)
    metric = getattr(case, "per_trial_metric", None)
    k: float = float(frames[0][metric].iloc[0]) if metric else case.per_trial
    row: dict[str, Any] = {
        "kernel": f"{model.name}:{case.label}",
        "unit": case.unit,
        "per_trial": k,
        "per_trial_from": metric or "declared",
        "chunk_size": chunk,
        "trials": trials,
        "rate_one_core": one * k,
        "rate_engine_one_core": trials / e_cpu * k,
        "engine_overhead": overhead,
        "rate_all_cores": rate_all * k,
        "cores": cores,
        "parallel_efficiency": efficiency,
    }
    scalar = case.scalar or scalar_baseline(model.name)
    if scalar is not None:
        n = _scalar_trials(scalar, case.params, max(200, 20_000 // case.per_trial), seconds)
        rng = np.random.default_rng(0)
        t0 = time.process_time()  # CPU time, as the kernel's one-core figure
        scalar(case.params, rng, n)
        scalar_rate = n * k / (time.process_time() - t0)
        row["scalar_trials"] = n
        row["rate_scalar_python"] = scalar_rate
        row["speedup_vs_scalar"] = one * k / scalar_rate
    times = []
    for _ in range(21):
        clear = getattr(model, "clear_cache", None)
        if clear:
            clear()
        t0 = time.perf_counter()
        ex = model.exact(scn)
        times.append(time.perf_counter() - t0)
    if ex is not None:
        row["exact_ms"] = statistics.median(times) * 1e3
        row["exact_ms_max"] = max(times) * 1e3
    return row


SWEEP_SIZES: tuple[int, ...] = tuple(2**k for k in range(12, 21))


def chunk_sweep(model: Any, case: Any, sizes: tuple[int, ...] = SWEEP_SIZES,
                seconds: float = 0.3) -> dict[int, float]:
    """Kernel rate (trials/s, one core) at several chunk sizes: how DEFAULT_CHUNK was chosen."""
    scn = model.scenario(case.params)
    out = {}
    for size in sizes:
        probe = _best(_kernel_time(model, scn, size * 4, size), 2)
        trials = max(size * 4, int(size * 4 / probe * seconds) // size * size)
        out[size] = trials / _best(_kernel_time(model, scn, trials, size), 3)
    return out


# -- precision (issue 12): pairing gains, cache overhead, coverage of stopped intervals ----
#: (a) two overheat policies of one unit under the same incoming fire (heat model)
PAIRING_HEAT = {"common": {"ov": 2, "turns": 6, "incoming": ["tn=7,dmg=2,ht=2"]},
                "a": {"policy": "never"}, "b": {"policy": "max"}}
#: (a2) one heat scenario under two values of a rule whose effect only shows through the dice
#: (CASE re-roll damage 1 vs 2 on a CASE 'Mech): the states part where an ammo crit is rolled,
#: and the per-unit, per-event dice keep everything else in step
PAIRING_HEAT_CASE = {"common": {"policy": "never", "turns": 6, "incoming": ["tn=6,dmg=2"],
                                "unit": "case-mech"},
                     "a": {"case_damage": 1}, "b": {"case_damage": 2}}


def _case_mech() -> Any:
    """The generic 'Mech of the heat model with CASE, Armor 2 and Structure 6."""
    import dataclasses

    from sim.alphastrike.generic import generic_mech
    from sim.units.types import Special

    return dataclasses.replace(generic_mech(2), name="CASE test 'Mech", armor=2, structure=6,
                               specials={"CASE": Special("CASE", "CASE", ())},
                               specials_raw="CASE")


#: (b) two piloting skills of one kick (attack model)
PAIRING_KICK = {"common": {"attack": "kick", "tons": 60}, "a": {"piloting": 5},
                "b": {"piloting": 6}}


def pairing_gain(model: str, spec: dict[str, Any], trials: int, chunk: int = 2**12,
                 seed: int = 1) -> dict[str, Any]:
    """SE of B - A with shared streams vs independent streams, per metric (last row).

    Both from one paired run: the paired SE from the per-chunk differences, the independent
    one as ``sqrt(SE_A^2 + SE_B^2)`` (what two separate runs of these trials give).
    ``ratio`` = independent / paired (higher is better)."""
    from sim.api import compare

    common = dict(spec["common"])
    if common.get("unit") == "case-mech":
        common["unit"] = _case_mech()
    frame = compare(model, spec["a"], spec["b"], common, trials=trials, seed=seed,
                    chunk_size=chunk)
    last = frame.groupby("metric", sort=False).tail(1)
    per = {}
    for _, r in last.iterrows():
        if r["diff_se"] > 0 and r["independent_se"] > 0:
            per[r["metric"]] = {"diff": float(r["diff"]), "se_paired": float(r["diff_se"]),
                                "se_independent": float(r["independent_se"]),
                                "ratio": float(r["independent_se"] / r["diff_se"])}
    ratios = sorted(v["ratio"] for v in per.values())
    return {"model": model, "a": spec["common"] | spec["a"], "b": spec["common"] | spec["b"],
            "trials": trials, "chunk_size": chunk, "metrics": per,
            "median_ratio": statistics.median(ratios) if ratios else math.nan,
            "max_ratio": max(ratios) if ratios else math.nan,
            "best_metric": max(per, key=lambda k: per[k]["ratio"]) if per else None}


def cache_overhead(model: Any, params: Any, chunks: int, repeats: int = 3,
                   chunk: int = engine.DEFAULT_CHUNK) -> dict[str, Any]:
    """Wall time of a ``sim.run`` of ``chunks`` default-size chunks with the chunk cache vs
    without (best of ``repeats``, interleaved; each cached run starts from an empty cache),
    and of the same run again once finished (everything from the cache). The difference of
    two wall times is noisy on a busy machine; ``cache_time_share`` (time spent inside the
    cache's reads and writes / the run's wall time) is the steadier figure."""
    import shutil
    import tempfile
    from pathlib import Path

    from sim.experiment import run as run_exp

    trials = chunks * chunk
    exp = {"name": "bench_cache", "model": model.name, "trials": trials, "seed": 0,
           "exact": False, "fixed": dict(params)}
    root = Path(tempfile.mkdtemp(prefix="btsim-bench-cache-"))
    best = {"with": math.inf, "without": math.inf, "again": math.inf, "share": math.inf}
    try:
        for _ in range(repeats):
            shutil.rmtree(root / "c", ignore_errors=True)
            t0 = time.perf_counter()
            run_exp(exp, out=root / "n", cache=False, progress=False, chunk_size=chunk)
            best["without"] = min(best["without"], time.perf_counter() - t0)
            info: dict[str, Any] = {}
            t0 = time.perf_counter()
            run_exp(exp, out=root / "c", progress=False, info=info, chunk_size=chunk)
            wall = time.perf_counter() - t0
            best["with"] = min(best["with"], wall)
            best["share"] = min(best["share"], info["cache_seconds"] / wall)
            t0 = time.perf_counter()
            run_exp(exp, out=root / "c", progress=False, chunk_size=chunk)
            best["again"] = min(best["again"], time.perf_counter() - t0)
        size = sum(p.stat().st_size for p in (root / "c").rglob("*") if p.is_file()
                   and ".cache" in p.parts)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"model": model.name, "trials": trials, "chunks": chunks, "chunk_size": chunk,
            "seconds_without_cache": best["without"], "seconds_with_cache": best["with"],
            "overhead": best["with"] / best["without"] - 1,
            "cache_time_share": best["share"],
            "seconds_finished_rerun": best["again"],
            "rerun_fraction": best["again"] / best["without"], "cache_bytes": size}


def coverage_check(n_runs: int, target: float = 0.032, chunk: int = 128
                   ) -> dict[str, Any]:
    """Coverage of the 95% intervals of target-error runs (punch-demo p_hit, exact 5/6 at
    TN 5), with the target set so the stop falls at 512 or 1024 trials depending on the
    sample (where optional stopping could bias the interval). The test suite runs 1000."""
    from sim.demo import MODEL as DEMO

    scn = DEMO.scenario({"tons": 50, "piloting": 5})
    p = float(DEMO.exact(scn)["p_hit"][0])
    prec = engine.Precision(target, ("p_hit",), 8192)
    hits, used = 0, []
    for seed in range(n_runs):
        out = engine.sample_run(DEMO, [scn], 1, seed, backend="sequential", chunk_size=chunk,
                                precision=prec)
        st = out.parts[0].stats["p_hit"]
        _, _, lo, hi = engine._interval("probability", st[:, 0], st[:, 1], st[:, 2])
        hits += bool(lo[0] <= p <= hi[0])
        used.append(out.trials_used[0])
    u, c = np.unique(used, return_counts=True)
    return {"runs": n_runs, "coverage": hits / n_runs, "target_error": target,
            "stops": {str(k): int(v) for k, v in zip(u.tolist(), c.tolist(), strict=True)}}


def precision_figures(names: list[str], quick: bool, coverage_runs: int = 0
                      ) -> dict[str, Any]:
    """Pairing gains (a) heat policies and (b) kick piloting, the cache overhead, and (with
    ``coverage_runs``) the large coverage check."""
    out: dict[str, Any] = {}
    trials = 2**16 if quick else 2**19
    if "heat" in names:
        out["pairing_heat_policies"] = pairing_gain("heat", PAIRING_HEAT, trials)
        out["pairing_heat_case_rule"] = pairing_gain("heat", PAIRING_HEAT_CASE, trials)
    if "attack" in names:
        out["pairing_kick_piloting"] = pairing_gain("attack", PAIRING_KICK, trials)
    out["cache"] = []
    for name in names:  # each model's first kernel, runs of about 1 s (quick: 0.3 s)
        model = get_model(name)
        if not model.bench_cases:
            continue
        params = model.bench_cases[0].params
        scn = model.scenario(params)
        seconds = 0.3 if quick else 1.0
        chunk = bench_chunk(model, scn, seconds)
        one = _best(_kernel_time(model, scn, chunk, chunk), 2)
        fewest = 2 if chunk < engine.DEFAULT_CHUNK and quick else 4  # a slow kernel
        chunks = int(min(64, max(fewest, seconds / max(one, 1e-6))))
        out["cache"].append(cache_overhead(model, params, chunks, repeats=2 if quick else 3,
                                           chunk=chunk))
    if coverage_runs:
        out["coverage"] = coverage_check(coverage_runs)
    return out


#: catalog 'Mechs of the Classic-duel scenario figures (built in: no shared data needed)
DUEL_UNITS = ("Locust LCT-1V", "Commando COM-2D", "Hatchetman HCT-3F", "Hunchback HBK-4G",
              "Wolverine WVR-6R", "Catapult CPLT-C1", "Awesome AWS-8Q", "Atlas AS7-D")


def classic_duel_figures(quick: bool = False) -> dict[str, Any]:
    """Issue 21's Classic-duel figures on this machine: the sampler (compiled engine) at 200
    duels per scenario over many pairings, the fixed cost of a scenario (build both sides,
    compile the engine's arrays, start the kernel), the cold-compile / cache-load state,
    and ``--jobs 2`` against ``--jobs 1`` on that run (wall time; the rest CPU time)."""
    from sim.classic.engine import sampler
    from sim.classic.engine.compile import compile_scenario

    model = get_model("classic-duel")
    units = DUEL_UNITS[:4] if quick else DUEL_UNITS
    params = [{"unit_a": a, "unit_b": b, "range": r, "turns": 15,
               **({"physical_a": "none", "physical_b": "none"} if r > 1 else {})}
              for a in units for b in units for r in (1, 3, 9)]
    sampler.warm_up()                       # compile (cold) or load numba's cache
    # fixed cost per scenario: build (validate, both sides, fire tables) + flat arrays +
    # one duel through the kernel
    rng = np.random.default_rng(0)
    t0 = time.process_time()
    for p in params:
        scn = model.scenario(p)
        compile_scenario(scn)
        sampler.run(scn, rng, 1)
    fixed = (time.process_time() - t0) / len(params)
    trials = 200
    t0 = time.process_time()
    frame = engine.simulate(model, params, trials, 1, n_jobs=1, backend="sequential",
                            progress="never", with_exact=False)
    cpu = time.process_time() - t0
    # per-scenario metrics repeat on each of a scenario's per-turn rows: one row each
    per = len(frame) // len(params)
    turns = float((frame["expected_turns"].iloc[::per] * trials).sum())
    out: dict[str, Any] = {"scenarios": len(params), "duels_per_scenario": trials,
                           "duel_turns": turns, "cpu_s": cpu,
                           "rate_200": turns / cpu, "fixed_ms": fixed * 1e3,
                           **cold_tables(model), **engine_start_cpu(cold=not quick)}
    walls = {}
    for jobs in (1, 2):
        engine.simulate(model, params[:4], trials, 1, n_jobs=jobs, backend="loky",
                        progress="never", with_exact=False)      # start the pool
        t0 = time.perf_counter()
        engine.simulate(model, params, trials, 1, n_jobs=jobs, backend="loky",
                        progress="never", with_exact=False)
        walls[jobs] = time.perf_counter() - t0
    out["wall_jobs1_s"], out["wall_jobs2_s"] = walls[1], walls[2]
    out["jobs2_speedup"] = walls[1] / walls[2]
    return out


def cold_tables(model: Any, chunks: int = 2) -> dict[str, float]:
    """The bench pairing played ``competent`` from empty decision tables, as a fresh
    process (a ``btsim run``, a new loky worker) plays it: CPU time of ``chunks`` kernel
    blocks through the sequential engine with the process's caches of compiled scenarios,
    sides and fire situations emptied first, and the rate in played duel-turns/s. The
    kernel rows above reuse one filled table (their ``1 core`` figure), and since the
    compiled scenarios are kept per process by content (issue 21) so does the engine."""
    from sim.classic.duel import scenario as DS
    from sim.classic.engine import sampler

    params = model.bench_cases[0].params
    n = chunks * int(model.default_chunk)
    sampler.clear_cache()
    DS._SIDES.clear()
    DS._FIRE.clear()
    t0 = time.process_time()
    frame = engine.simulate(model, [params], n, 0, n_jobs=1, backend="sequential",
                            progress=False, with_exact=False)
    cpu = time.process_time() - t0
    turns = float(frame["expected_turns"].iloc[0]) * n
    return {"cold_duels": n, "cold_cpu_s": cpu, "cold_rate": turns / cpu}


def engine_start_cpu(cold: bool = True) -> dict[str, float]:
    """CPU seconds a fresh process spends starting the Classic engine, beyond importing
    numba and the scenario code: ``kernel_load_s`` loading numba's cache (the checkout's,
    warm) and running one tiny duel (numba loads a cached function at its first call);
    with ``cold``, ``compile_cpu_s`` compiling it into an empty cache (``NUMBA_CACHE_DIR``
    of a temporary folder: the checkout's own cache is left alone)."""
    import resource
    import tempfile

    def child_cpu(code: str, env: dict[str, str]) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], env=env, check=True,
                       capture_output=True, timeout=1200)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    base_code = "import numba, sim.classic.duel.scenario"
    code = "from sim.classic.engine import sampler; sampler.warm_up()"
    env = dict(os.environ)
    out = {"kernel_load_s": max(child_cpu(code, env) - child_cpu(base_code, env), 0.0)}
    if cold:
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            out["compile_cpu_s"] = max(child_cpu(code, env) - child_cpu(base_code, env), 0.0)
    return out


def run(models: list[str] | None = None, quick: bool = False,
        big_trials: int | None = None, sweep: bool = False, precision: bool = True,
        coverage_runs: int = 0) -> dict[str, Any]:
    """Run the benchmark and return its figures as a dict (see module docstring)."""
    cores = os.cpu_count() or 1
    seconds = 0.3 if quick else 1.0
    names = models or [m for m in MODULES]
    out: dict[str, Any] = {
        "btsim_version": __version__,
        "machine": {"cores": cores, "python": platform.python_version(),
                    "numpy": np.__version__, "platform": platform.platform(),
                    "processor": platform.processor() or platform.machine()},
        "chunk_size": engine.DEFAULT_CHUNK,
        "malloc_tuned": engine.MALLOC_TUNED,
        "startup": startup_times(3 if quick else 7, 153 if quick else 1224),
        "dice": dice_limit(total=2**23 if quick else 2**25),
        "kernels": [],
    }
    loaded = []
    for name in names:
        try:
            model = get_model(name)
        except ImportError:
            continue
        loaded.append(model)
        for case in model.bench_cases:
            out["kernels"].append(bench_case(model, case, cores, seconds))
            if sweep:
                out.setdefault("chunk_sweep", {})[f"{model.name}:{case.label}"] = {
                    str(k): v for k, v in chunk_sweep(model, case).items()}
    # memory: the fastest kernel at a small and a large trial count
    if out["kernels"]:
        fastest = max(out["kernels"], key=lambda r: r["rate_one_core"] / r["per_trial"])
        mname, label = fastest["kernel"].split(":", 1)
        model = next(m for m in loaded if m.name == mname)
        case = next(c for c in model.bench_cases if c.label == label)
        chunk = fastest["chunk_size"]
        small = 10**6
        large = big_trials or (10**7 if quick else 10**9)
        if big_trials is None and chunk < engine.DEFAULT_CHUNK:
            # a slow kernel (only one benchmarked): one chunk against 2 (quick) or 4 chunks
            # (tracemalloc slows it down several times)
            large = min(large, (2 if quick else 4) * chunk)
            small = min(small, chunk)
        elif big_trials is None:  # at most ~3 s (quick) or ~30 s of kernel time: 10^9
            # trials of punch take 3 s, of a `hit` kernel (--model hit) half an hour
            per_s = fastest["rate_one_core"] / fastest["per_trial"]
            large = min(large, max(4 * chunk, int(per_s * (3 if quick else 30)) // chunk
                                   * chunk))
            small = min(small, max(chunk, large // 10))
        t0 = time.perf_counter()
        out["memory"] = {
            "kernel": fastest["kernel"],
            "chunk_size": chunk,
            "trials_small": small,
            "peak_mib_small": peak_memory(model, case.params, small, chunk),
            "trials_large": large,
            "peak_mib_large": peak_memory(model, case.params, large, chunk),
        }
        out["memory"]["seconds"] = time.perf_counter() - t0
    if "duel" in names:
        out["tactic_cost"] = tactic_cost(2 if quick else 4)
    if "classic-duel" in [m.name for m in loaded]:
        out["classic_duel"] = classic_duel_figures(quick)
    if precision:
        out["precision"] = precision_figures(names, quick, coverage_runs)
    if models is None or "profile" in names:  # issue 18: the exact profile of every 'Mech
        out["profile"] = profile_times()
    if models is None:  # issue 20: BV + converted card, both from the unit design
        from sim.units.price_check import bench_prices
        out["prices"] = bench_prices(400 if quick else 4000)
    return out


def tactic_cost(chunks: int = 4) -> dict[str, Any]:
    """Issue 22: CPU time per unit-turn of the Alpha Strike duel kernel played ``competent``
    by both sides over ``stand-and-fire``, in the same chunks (the engine's default) with the
    decision table warm (it is filled once per scenario): at the bench case's Medium band and
    under free movement (the default duel). Unit-turns are 2 x the run's E[turns]."""
    from sim.alphastrike.duel.model import BENCH_COMPETENT, BENCH_PARAMS

    model = get_model("duel")
    chunk = engine.DEFAULT_CHUNK

    def per_unit_turn(params: dict[str, Any]) -> float:
        scn = model.scenario(params)
        model.sample(scn, engine.chunk_rng(0, 0, 0), chunk)           # warm the table
        frame = engine.simulate(model, [params], chunk, 0, progress=False, with_exact=False,
                                chunk_size=chunk)
        unit_turns = 2.0 * float(frame["expected_turns"].iloc[0])
        best = float("inf")
        for _ in range(2):
            c0 = time.process_time()
            for c in range(chunks):
                model.sample(scn, engine.chunk_rng(0, 0, c), chunk)
            best = min(best, time.process_time() - c0)
        return best / (chunks * chunk * unit_turns)

    saf = per_unit_turn(BENCH_PARAMS)
    medium = per_unit_turn(BENCH_COMPETENT)
    free = per_unit_turn({"a": BENCH_PARAMS["a"], "b": BENCH_PARAMS["b"]})
    return {"chunk_size": chunk, "saf_ns": saf * 1e9, "competent_medium_ns": medium * 1e9,
            "competent_free_ns": free * 1e9, "ratio_medium": medium / saf,
            "ratio_free": free / saf}


def _precision_lines(p: dict[str, Any], res_chunk: int = engine.DEFAULT_CHUNK) -> list[str]:
    lines: list[str] = []
    for key, what in (("pairing_heat_policies", "(a) heat, policy never vs max, same fire"),
                      ("pairing_heat_case_rule", "(a2) heat, CASE damage 1 vs 2, same policy"),
                      ("pairing_kick_piloting", "(b) attack, kick piloting 5 vs 6")):
        if key not in p:
            continue
        g = p[key]
        lines += ["", f"pairing gain {what}: SE(B-A) independent / paired, {g['trials']} "
                  f"trials, chunks of {g['chunk_size']}: median {g['median_ratio']:.2f}x, "
                  f"best {g['max_ratio']:.2f}x ({g['best_metric']})"]
        for m, v in g["metrics"].items():
            lines.append(f"  {m:<34} diff {v['diff']:>10.4g}  SE paired {v['se_paired']:.3g}"
                         f"  independent {v['se_independent']:.3g}  {v['ratio']:.2f}x")
    for c in p.get("cache", []):
        lines += ["",
                  f"chunk cache ({c['model']}, {c['chunks']} chunks of "
                  f"{c.get('chunk_size', res_chunk)}, "
                  f"{c['trials']:.2e} trials): time in the cache {c['cache_time_share']:.1%} of the "
                  f"run; wall-time overhead {c['overhead']:+.1%} "
                  f"({c['seconds_with_cache']:.2f} s vs {c['seconds_without_cache']:.2f} s); "
                  f"finished rerun {c['rerun_fraction']:.1%} of a run; "
                  f"{c['cache_bytes'] / 1024:.0f} KiB on disk"]
    if "coverage" in p:
        c = p["coverage"]
        lines += ["", f"coverage of stopped 95% intervals: {c['coverage']:.1%} of "
                  f"{c['runs']} runs (stops {c['stops']})"]
    return lines


def _startup_lines(st: dict[str, Any] | None) -> list[str]:
    if not st:
        return []
    rerun = ""
    if "rerun_s" in st:
        rerun = (f", a finished btsim run ({st['rerun_scenarios']} scenarios) "
                 f"{st['rerun_s']:.3f} s ({st['rerun_best_s']:.3f}; CPU {st['rerun_cpu_best_s']:.3f}"
                 f" s, {st['rerun_cpu_best_s'] - st['help_cpu_best_s']:+.3f} s over --help)")
    return [f"start-up (median of {st['repeats']}, best in brackets): btsim --help "
            f"{st['help_s']:.3f} s ({st['help_best_s']:.3f}), btsim units {st['units_s']:.3f} s "
            f"({st['units_best_s']:.3f}){rerun}; python -c pass {st['python_s']:.3f} s"
            + ("" if st["bytecode_cache"] else "; PYTHONDONTWRITEBYTECODE is set: every start "
               "compiles the sources")]


def _mps(rate: float) -> str:
    """A rate in millions per second: one decimal, or three significant digits below 1."""
    m = rate / 1e6
    return f"{m:.1f}" if m >= 1 else f"{m:.3g}"


def format_table(res: dict[str, Any]) -> str:
    """Human-readable figures."""
    lines = [
        f"btsim {res['btsim_version']} bench on {res['machine']['cores']} cores, "
        f"{res['machine']['processor']}, Python {res['machine']['python']}, "
        f"NumPy {res['machine']['numpy']}; chunk {res['chunk_size']} trials",
        f"dice limit per core (uint8, exact): NumPy integers "
        f"{res['dice']['numpy_integers_d6_per_s'] / 1e6:,.0f} M d6/s; btsim byte rejection "
        f"{res['dice']['d6_per_s'] / 1e6:,.0f} M d6/s, {res['dice']['two_d6_per_s'] / 1e6:,.0f}"
        f" M 2D6/s",
        *_startup_lines(res.get("startup")),
        "",
        f"{'kernel':<22}{'1 core M/s':>11}{'engine ovh':>11}{'all cores M/s':>14}"
        f"{'par. eff.':>10}{'scalar k/s':>11}{'speed-up':>10}{'exact ms':>10}",
    ]
    for r in res["kernels"]:
        lines.append(
            f"{r['kernel']:<22}{_mps(r['rate_one_core']):>11}{r['engine_overhead']:>10.1%}"
            f"{_mps(r['rate_all_cores']):>14}{r['parallel_efficiency']:>10.0%}"
            f"{r.get('rate_scalar_python', float('nan')) / 1e3:>11.0f}"
            f"{r.get('speedup_vs_scalar', float('nan')):>9.0f}x"
            f"{r.get('exact_ms', float('nan')):>10.3f}"
        )
    if "tactic_cost" in res:
        t = res["tactic_cost"]
        lines += ["", f"tactics (issue 22), CPU per unit-turn in {t['chunk_size']}-trial chunks: "
                  f"stand-and-fire {t['saf_ns']:.0f} ns; competent {t['competent_medium_ns']:.0f}"
                  f" ns at Medium ({t['ratio_medium']:.2f}x), "
                  f"{t['competent_free_ns']:.0f} ns moving freely ({t['ratio_free']:.2f}x)"]
    if "memory" in res:
        m = res["memory"]
        lines += ["", f"peak traced memory ({m['kernel']}, sequential): "
                  f"{m['peak_mib_small']:.1f} MiB at {m['trials_small']:.0e} trials, "
                  f"{m['peak_mib_large']:.1f} MiB at {m['trials_large']:.0e} trials "
                  f"({m['seconds']:.0f} s)"]
    if "classic_duel" in res:
        c = res["classic_duel"]
        lines += ["", f"classic-duel at {c['duels_per_scenario']} duels per scenario "
                  f"({c['scenarios']} scenarios, one core, CPU time): "
                  f"{c['rate_200'] / 1e6:.3f} M played duel-turns/s; fixed cost "
                  f"{c['fixed_ms']:.2f} ms per scenario (build, flat arrays, first duel); "
                  f"engine cache load {c['kernel_load_s']:.2f} s CPU (first duel included); "
                  + (f"competent from empty tables {c['cold_rate'] / 1e6:.3f} M/s "
                     f"({c['cold_duels']} duels of the bench pairing, "
                     f"{c['cold_cpu_s']:.1f} s CPU); " if "cold_rate" in c else "")
                  + (f"cold compile {c['compile_cpu_s']:.0f} s CPU; "
                     if "compile_cpu_s" in c else "")
                  + f"--jobs 2 {c['jobs2_speedup']:.2f}x --jobs 1 (wall "
                  f"{c['wall_jobs1_s']:.1f} s / {c['wall_jobs2_s']:.1f} s)"]
    if "chunk_sweep" in res:
        sizes = list(next(iter(res["chunk_sweep"].values())))
        lines += ["", "kernel rate by chunk size (M trials/s, one core):",
                  f"{'kernel':<22}" + "".join(f"{'2^' + str(int(s).bit_length() - 1):>8}"
                                              for s in sizes)]
        for name, row in res["chunk_sweep"].items():
            lines.append(f"{name:<22}" + "".join(f"{row[s] / 1e6:>8.1f}" for s in sizes))
    lines += _precision_lines(res.get("precision") or {}, res["chunk_size"])
    if "profile" in res:
        p = res["profile"]
        lines.append(f"btsim profile (exact, in-process CPU) of the {p['units']} catalog "
                     f"'Mechs: median {p['median_s']:.3f} s, max {p['max_s']:.3f} s "
                     f"({p['slowest']})")
    if "prices" in res:
        p = res["prices"]
        lines.append(f"prices (BV 2 + converted AS card): {p['units']} units in "
                     f"{p['seconds']:.1f} s ({p['units_per_s']:,.0f}/s; {p['source']})")
    units = sorted({f"{r['kernel']}: {r['unit']}/s"
                    + (f" ({r['per_trial']:.2f} per trial, counted by {r['per_trial_from']})"
                       if r.get("per_trial_from", "declared") != "declared" else "")
                    for r in res["kernels"] if r["unit"] != "trials"})
    small = [f"{r['kernel']} {r['chunk_size']}" for r in res["kernels"]
             if r.get("chunk_size", res["chunk_size"]) != res["chunk_size"]]
    if small:
        lines.append("kernels measured in their own or smaller chunks (trials per chunk): "
                     + ", ".join(small))
    lines.append("(rates in trials/s" + ("; " + ", ".join(units) if units else "")
                 + "; figures, not pass/fail)")
    return "\n".join(lines)
