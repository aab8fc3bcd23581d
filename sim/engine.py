"""The Monte Carlo engine: chunks, seeds, workers, aggregation, confidence intervals.

How a run is cut up
-------------------
* A *chunk* is the unit of randomness: ``chunk_size`` trials (default :data:`DEFAULT_CHUNK`,
  chosen by measurement so a kernel's temporaries stay in cache). Chunk ``c`` of scenario
  ``s`` draws from ``Generator(PCG64DXSM(SeedSequence(seed, spawn_key=(s, c))))``, which is
  the same stream as ``SeedSequence(seed).spawn(s + 1)[s].spawn(c + 1)[c]``. A chunk's
  numbers therefore depend on ``(seed, s, c)`` only.
* A *task* is the unit of work sent to a worker: a run of consecutive chunks of one scenario,
  at most :data:`TASK_TRIALS` trials, cut so that a run has about :data:`TARGET_TASKS` tasks.
  A task merges its chunks in chunk order and returns one small aggregate; the driver folds
  the tasks of each scenario in task order as they become contiguous. Task boundaries depend
  on the number of scenarios, the trial count and the chunk size only, never on the number of
  workers or the backend, so the whole merge tree is fixed and a run is bit-identical for any
  ``n_jobs`` and any backend. (Every metric of the built-in models sums integers, which float64
  adds exactly, so even a different task size gives the same bits.)
* Chunks return :class:`~sim.aggregate.Aggregate` objects (counts, sums, sums of squares,
  histograms), never per-trial arrays: memory is bounded by the chunk size, not the trial count.

Backends: ``loky`` (processes, default), ``threading``, ``sequential`` and ``dask`` (joblib's
Dask backend; with ``scheduler=ADDRESS`` on an existing cluster, otherwise on a LocalCluster on
127.0.0.1 without a dashboard).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate
from sim.errors import ConfigError, UserError, check_choice, check_int
from sim.model import Metric, MetricContractError, Model

#: Trials per chunk (one SeedSequence child each). Chosen by measurement (``btsim bench
#: --sweep``, README "Performance"): at 2**18 the per-chunk costs (seeding, merging) are a
#: few percent of the fastest kernels while uint8 temporaries (256 KiB) stay in L2 cache;
#: the slower many-dice kernels peak between 2**17 and 2**18.
DEFAULT_CHUNK = 2**18
#: Trials per joblib task: large enough that task overhead is < 5% of kernel time.
TASK_TRIALS = 2**22
#: Tasks a run is cut into (when it has enough chunks): enough to keep dozens of workers
#: busy and to balance uneven tasks; few enough that task overhead stays small.
TARGET_TASKS = 64
BACKENDS = ("loky", "threading", "sequential", "dask")
Z95 = 1.959963984540054

def _tune_malloc() -> bool:
    """Keep glibc from returning large numpy temporaries to the OS after every chunk.

    By default glibc serves allocations of 128 KiB or more with mmap and unmaps them on free,
    so every chunk page-faults its temporaries afresh (DESIGN.md, "Performance facts"):
    measured here, the fastest kernels run at half speed. Raising the mmap and trim
    thresholds with ``mallopt`` keeps the memory in the process. It runs on import, so in
    the driver and in every worker that unpickles a task. Memory stays bounded by the chunk.
    Returns whether the call succeeded (False off glibc, or with BTSIM_MALLOC_TUNING=0).
    """
    if not sys.platform.startswith("linux") or os.environ.get("BTSIM_MALLOC_TUNING") == "0":
        return False
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3  # from <malloc.h>
        return bool(libc.mallopt(m_mmap_threshold, 32 * 2**20)
                    and libc.mallopt(m_trim_threshold, 128 * 2**20))
    except (OSError, AttributeError):
        return False


MALLOC_TUNED = _tune_malloc()


def chunk_rng(seed: int, scenario_index: int, chunk_index: int) -> np.random.Generator:
    """The generator of one chunk: depends on (seed, scenario, chunk) only."""
    ss = np.random.SeedSequence(seed, spawn_key=(scenario_index, chunk_index))
    return np.random.Generator(np.random.PCG64DXSM(ss))


@dataclass(frozen=True)
class _Task:
    scenario_index: int
    first_chunk: int
    last_chunk: int  # exclusive
    trials: int  # total trials of the scenario
    chunk_size: int


def _plan(n_scenarios: int, trials: int, chunk_size: int) -> list[_Task]:
    """Cut every scenario into tasks of consecutive chunks (see module docstring)."""
    n_chunks = max(1, math.ceil(trials / chunk_size))
    total = n_chunks * n_scenarios
    per_task = max(1, min(TASK_TRIALS // chunk_size, math.ceil(total / TARGET_TASKS)))
    return [
        _Task(s, c, min(c + per_task, n_chunks), trials, chunk_size)
        for s in range(n_scenarios)
        for c in range(0, n_chunks, per_task)
    ]


def _run_task(model: Model, scenario: Any, task: _Task, seed: int) -> tuple[_Task, Aggregate]:
    """Worker side: run a task's chunks and merge them in chunk order."""
    parts = []
    for c in range(task.first_chunk, task.last_chunk):
        n = min(task.chunk_size, task.trials - c * task.chunk_size)
        if n <= 0:
            break
        parts.append(model.sample(scenario, chunk_rng(seed, task.scenario_index, c), n))
    return task, Aggregate.merge_all(parts)


class _OrderedFold:
    """Fold the task aggregates of one scenario strictly in task order as they arrive."""

    def __init__(self) -> None:
        self.total = Aggregate(0)
        self.next = 0
        self.pending: dict[int, tuple[int, Aggregate]] = {}

    def add(self, task: _Task, agg: Aggregate) -> None:
        self.pending[task.first_chunk] = (task.last_chunk, agg)
        while self.next in self.pending:
            last, part = self.pending.pop(self.next)
            self.total.merge(part)
            self.next = last


# -- backends -------------------------------------------------------------------------------
@contextlib.contextmanager
def _dask_client(scheduler: str | None) -> Iterator[Any]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - depends on the install
        raise UserError(
            "The 'backend' parameter 'dask' needs the dask extra: pip install 'btsim[dask]'."
        ) from None
    if scheduler:
        try:
            client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError) as exc:
            raise UserError(
                f"The 'scheduler' parameter must be the address of a reachable Dask scheduler; "
                f"got {scheduler!r} ({exc.__class__.__name__})."
            ) from None
        with client:
            yield client
        return
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, processes=True) as cluster, Client(cluster) as client:
        yield client


def _parallel_results(model: Model, scenarios: Sequence[Any], tasks: list[_Task], seed: int,
                      n_jobs: int, backend: str, scheduler: str | None,
                      progress: bool) -> Generator[tuple[_Task, Aggregate], None, None]:
    from joblib import Parallel, delayed, parallel_config

    calls = (delayed(_run_task)(model, scenarios[t.scenario_index], t, seed) for t in tasks)
    if backend == "sequential" or (n_jobs == 1 and backend != "dask"):
        yield from (_run_task(model, scenarios[t.scenario_index], t, seed) for t in tasks)
        return
    if backend == "dask":
        with _dask_client(scheduler), parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)
        return
    yield from Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered")(calls)


#: ``progress`` modes: ``auto`` draws a bar after ~2 s when stderr is a terminal, ``always``
#: draws it at once (terminal or not), ``never`` draws none.
PROGRESS_MODES = ("auto", "always", "never")
#: Seconds an ``auto`` bar waits before it appears (short runs stay quiet).
PROGRESS_DELAY = 2.0


def check_progress(progress: bool | str | None) -> str:
    """Normalize a ``progress`` argument to one of :data:`PROGRESS_MODES`.

    ``None`` is ``auto``, ``True`` is ``always`` and ``False`` is ``never`` (the older
    boolean spelling)."""
    if progress is None:
        return "auto"
    if isinstance(progress, bool):
        return "always" if progress else "never"
    return check_choice("progress", progress, PROGRESS_MODES)


def _progress_bar(total: int, progress: bool | str | None) -> Any:
    """A tqdm bar on stderr (see :data:`PROGRESS_MODES`), or None."""
    mode = check_progress(progress)
    if mode == "never" or (mode == "auto" and not sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="trials", unit_scale=True,
                delay=PROGRESS_DELAY if mode == "auto" else 0.0, file=sys.stderr, leave=False)


# -- public API -------------------------------------------------------------------------------
def validate_run(trials: Any, seed: Any, n_jobs: Any, backend: Any,
                 chunk_size: Any = None) -> tuple[int, int, int, str, int]:
    """Check run parameters up front; raise ConfigError naming the field."""
    trials = check_int("trials", trials, lo=1)
    seed = check_int("seed", seed, lo=0)
    n_jobs = check_int("jobs", n_jobs, lo=-1)
    if n_jobs == 0:
        raise ConfigError("jobs", 0, "a positive worker count, or -1 for all cores")
    if n_jobs == -1:
        n_jobs = os.cpu_count() or 1
    backend = check_choice("backend", backend, BACKENDS)
    chunk = DEFAULT_CHUNK if chunk_size is None else check_int("chunk_size", chunk_size,
                                                                lo=1, hi=2**24)
    return trials, seed, n_jobs, backend, chunk


def sample_scenarios(model: Model, scenarios: Sequence[Any], trials: int, seed: int,
                     n_jobs: int = 1, backend: str = "loky", chunk_size: int | None = None,
                     progress: bool | str | None = None,
                     scheduler: str | None = None) -> dict[int, Aggregate]:
    """Run ``trials`` trials of every (already built) scenario; the merged aggregates by
    scenario index. This is the one Monte Carlo loop of btsim: :func:`simulate`, ``sim.run``,
    ``sim.attack``, ``sim.heat`` and the CLI all come through here, so the same seed, trials
    and chunk size give the same bits by every door. Every aggregate is checked against the
    model's declared metrics (:func:`check_sample`)."""
    trials, seed, n_jobs, backend, chunk = validate_run(trials, seed, n_jobs, backend, chunk_size)
    tasks = _plan(len(scenarios), trials, chunk)
    folds = [_OrderedFold() for _ in scenarios]
    bar = _progress_bar(trials * len(scenarios), progress)
    results = _parallel_results(model, scenarios, tasks, seed, n_jobs, backend, scheduler,
                                bool(bar))
    try:
        # closing() shuts the workers (or the Dask cluster) down at once on an error or Ctrl-C
        with contextlib.closing(results):
            for task, agg in results:
                folds[task.scenario_index].add(task, agg)
                if bar is not None:
                    bar.update(agg.n)
    finally:
        if bar is not None:
            bar.close()
    parts = {s: f.total for s, f in enumerate(folds)}
    for agg in parts.values():
        check_sample(model, agg)
    return parts


def simulate(model: Model, params_list: Sequence[Mapping[str, Any]], trials: int, seed: int,
             n_jobs: int = 1, backend: str = "loky", chunk_size: int | None = None,
             progress: bool | str | None = None, scheduler: str | None = None,
             metrics: Sequence[str] | None = None, with_exact: bool = True) -> pd.DataFrame:
    """Run ``trials`` Monte Carlo trials of every scenario and summarise them.

    Returns one row per scenario row with the parameters, the model's facts and, for every
    metric ``m``: ``m`` (mean), ``m_se``, ``m_ci_low``, ``m_ci_high``, ``m_n`` (observations)
    and ``m_exact`` where the model has an exact value (``with_exact``). ``progress``:
    ``auto`` (default; a bar after ~2 s when stderr is a terminal), ``always`` or ``never``.
    """
    trials, seed, n_jobs, backend, chunk = validate_run(trials, seed, n_jobs, backend, chunk_size)
    check_progress(progress)
    scenarios = [model.scenario(p) for p in params_list]
    parts = sample_scenarios(model, scenarios, trials, seed, n_jobs=n_jobs, backend=backend,
                             chunk_size=chunk, progress=progress, scheduler=scheduler)
    return summarize(model, scenarios, parts, metrics=metrics, with_exact=with_exact,
                     trials=trials)


def exact_frame(model: Model, params_list: Sequence[Mapping[str, Any]],
                metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Exact values of every metric that has one, in the same layout as :func:`simulate`."""
    scenarios = [model.scenario(p) for p in params_list]
    frames = []
    for scn in scenarios:
        cols, k = _base_columns(model, scn)
        ex = _exact(model, scn) or {}
        for m in _selected(model, metrics):
            if m.name in ex:
                _put(cols, k, m.name, ex[m.name], m.kind == "hist")
        frames.append(_blank_if_impossible(model, scn, cols, k))
    out = pd.concat(frames, ignore_index=True)
    out.attrs["metric_kinds"] = {m.name: m.kind for m in _selected(model, metrics)}
    _annotate(out, model, scenarios)
    return out


def _annotate(frame: pd.DataFrame, model: Model, scenarios: Sequence[Any]) -> None:
    """Record in ``frame.attrs`` what a results folder must keep beside the numbers: the
    notes a user needs (``notes``, each once) and every scenario's effective rule options
    (``options``, one dict per scenario)."""
    from sim.result import jsonable

    notes: list[str] = []
    for scn in scenarios:
        notes += [n for n in model.notes(scn) if n not in notes]
    frame.attrs["notes"] = notes
    frame.attrs["options"] = [jsonable(model.options(scn)) for scn in scenarios]


# -- the metric contract ------------------------------------------------------------------------
def _mismatch(model: Model, what: str, got: set[str], want: set[str]) -> None:
    extra, missing = sorted(got - want), sorted(want - got)
    if extra or missing:
        parts = []
        if extra:
            parts.append("undeclared metric(s) " + ", ".join(extra))
        if missing:
            parts.append("missing declared metric(s) " + ", ".join(missing))
        raise MetricContractError(f"model {model.name!r}: {what} returned "
                                  + "; ".join(parts))


def check_sample(model: Model, agg: Aggregate) -> None:
    """Fail loudly (:class:`~sim.model.MetricContractError`, naming the model and metric)
    unless ``sample`` produced exactly the declared metrics (hists as hists)."""
    declared = {m.name for m in model.metrics}
    _mismatch(model, "sample()", set(agg.stats) | set(agg.hists), declared)
    for m in model.metrics:
        if (m.kind == "hist") != (m.name in agg.hists):
            raise MetricContractError(
                f"model {model.name!r}: sample() returned metric {m.name!r} as "
                f"{'a histogram' if m.name in agg.hists else 'a mean'}, declared {m.kind!r}")


def check_exact(model: Model, values: Mapping[str, Any] | None) -> None:
    """Fail loudly unless ``exact`` returned None (no exact path for this scenario) or exactly
    the metrics declared with ``exact=True``."""
    if values is None:
        return
    _mismatch(model, "exact()", set(values), {m.name for m in model.metrics if m.exact})


def _exact(model: Model, scn: Any) -> dict[str, Any] | None:
    ex = model.exact(scn)
    check_exact(model, ex)
    return ex


def _selected(model: Model, metrics: Sequence[str] | None) -> list[Metric]:
    if metrics is None:
        return list(model.metrics)
    known = {m.name for m in model.metrics}
    for name in metrics:
        if name not in known:
            raise ConfigError("metrics", name, "metric names of model " + repr(model.name)
                              + ": " + ", ".join(sorted(known)))
    return [m for m in model.metrics if m.name in set(metrics)]


def _base_columns(model: Model, scn: Any) -> tuple[dict[str, Any], int]:
    """Parameter, row-index and fact columns of one scenario, and its row count."""
    rows = model.rows(scn)
    k = 1 if rows is None else len(rows)
    cols: dict[str, Any] = {key: [v] * k for key, v in model.params(scn).items()}
    if rows is not None:
        for col in rows.columns:
            cols[col] = rows[col].to_numpy()
    for key, v in model.facts(scn).items():
        cols[key] = [v] * k
    return cols, k


def _blank_if_impossible(model: Model, scn: Any, cols: dict[str, Any], k: int) -> pd.DataFrame:
    """An impossible scenario (fact ``impossible`` set to the reason) has no metric values:
    every metric column is NaN (hist columns None) rather than a silent zero."""
    if model.facts(scn).get("impossible"):
        for m in model.metrics:
            for suffix in ("", "_exact", "_se", "_ci_low", "_ci_high"):
                if m.name + suffix in cols:
                    cols[m.name + suffix] = [None] * k if m.kind == "hist" else np.full(k, np.nan)
    return pd.DataFrame(cols)


def _put(cols: dict[str, Any], k: int, col: str, values: Any, hist: bool) -> None:
    """Add one metric column (k rows); scalars broadcast, hist rows become lists."""
    arr = np.asarray(values, dtype=np.float64)
    if hist:
        arr = np.atleast_2d(arr)
        if arr.shape[0] == 1 and k > 1:
            arr = np.repeat(arr, k, axis=0)
        cols[col] = [list(map(float, r)) for r in arr]
    else:
        arr = np.atleast_1d(arr)
        cols[col] = np.broadcast_to(arr, (k,)).copy() if arr.size == 1 else arr


def _interval(kind: str, count: np.ndarray, total: np.ndarray, total_sq: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean, standard error and 95% interval. Proportions get the Wilson score interval."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / count
        if kind == "probability":
            se = np.sqrt(mean * (1 - mean) / count)
            z2 = Z95 * Z95
            centre = (mean + z2 / (2 * count)) / (1 + z2 / count)
            half = Z95 * np.sqrt(mean * (1 - mean) / count + z2 / (4 * count * count)) / (
                1 + z2 / count)
            return mean, se, centre - half, centre + half
        var = np.maximum(total_sq / count - mean * mean, 0.0) * count / np.maximum(count - 1, 1)
        se = np.sqrt(var / count)
        return mean, se, mean - Z95 * se, mean + Z95 * se


def summarize(model: Model, scenarios: Sequence[Any], parts: Mapping[int, Aggregate],
              metrics: Sequence[str] | None = None, with_exact: bool = True,
              trials: int | None = None) -> pd.DataFrame:
    """Turn merged aggregates into the summary frame (see :func:`simulate`)."""
    chosen = _selected(model, metrics)
    frames = []
    for s, scn in enumerate(scenarios):
        agg = parts[s]
        cols, k = _base_columns(model, scn)
        cols["trials"] = [agg.n if trials is None else trials] * k
        ex = (_exact(model, scn) or {}) if with_exact else {}
        for m in chosen:
            if m.kind == "hist":
                if m.name in agg.hists:
                    h = agg.hists[m.name].astype(np.float64)
                    _put(cols, k, m.name, h / np.maximum(h.sum(axis=1, keepdims=True), 1), True)
                if m.name in ex:
                    _put(cols, k, m.name + "_exact", ex[m.name], True)
                continue
            if m.name in agg.stats:
                st = agg.stats[m.name]
                mean, se, lo, hi = _interval(m.kind, st[:, 0], st[:, 1], st[:, 2])
                for suffix, v in (("", mean), ("_se", se), ("_ci_low", lo), ("_ci_high", hi),
                                  ("_n", st[:, 0])):
                    _put(cols, k, m.name + suffix, v, False)
            if m.name in ex:
                _put(cols, k, m.name + "_exact", ex[m.name], False)
        frames.append(_blank_if_impossible(model, scn, cols, k))
    out = pd.concat(frames, ignore_index=True)
    out.attrs["metric_kinds"] = {m.name: m.kind for m in chosen}
    _annotate(out, model, scenarios)
    return out


def zscores(frame: pd.DataFrame, metrics: Sequence[str] | None = None,
            kinds: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Per-metric z-scores of Monte Carlo means against exact values.

    Returns a long frame: ``row`` (index in ``frame``), ``metric``, ``mc``, ``exact``, ``se``
    and ``z = (mc - exact) / se``. For proportions the standard error is computed from the
    exact value (``sqrt(p (1 - p) / n)``), which stays meaningful when the sample shows no
    events at all; otherwise the sample standard error is used. Zero error and zero difference
    give z = 0; zero error with a difference gives an infinite z.
    """
    kinds = dict(frame.attrs.get("metric_kinds", {})) if kinds is None else dict(kinds)
    names = metrics or [c[: -len("_exact")] for c in frame.columns
                        if c.endswith("_exact") and c[: -len("_exact")] + "_se" in frame.columns]
    out = []
    for name in names:
        mc = frame[name].to_numpy(np.float64)
        ex = frame[name + "_exact"].to_numpy(np.float64)
        se = frame[name + "_se"].to_numpy(np.float64)
        n = frame[name + "_n"].to_numpy(np.float64)
        if kinds.get(name) == "probability":
            with np.errstate(invalid="ignore", divide="ignore"):
                se = np.sqrt(ex * (1 - ex) / n)
        diff = mc - ex
        with np.errstate(invalid="ignore", divide="ignore"):
            z = np.where(se > 0, diff / np.where(se > 0, se, 1),
                         np.where(np.abs(diff) <= 1e-12, 0.0, np.inf))
        z = np.where(np.isnan(ex) & np.isnan(mc), 0.0, z)
        out.append(pd.DataFrame({"row": np.arange(len(frame)), "metric": name, "mc": mc,
                                 "exact": ex, "se": se, "z": z}))
    if not out:
        return pd.DataFrame(columns=["row", "metric", "mc", "exact", "se", "z"])
    return pd.concat(out, ignore_index=True)


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """Call ``fn`` and return (result, seconds)."""
    t0 = time.perf_counter()
    res = fn(*args, **kwargs)
    return res, time.perf_counter() - t0
