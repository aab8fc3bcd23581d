"""The Monte Carlo engine: chunks, seeds, workers, aggregation, confidence intervals.

How a run is cut up
-------------------
* A *chunk* is the unit of randomness: ``chunk_size`` trials (default :data:`DEFAULT_CHUNK`,
  chosen by measurement so a kernel's temporaries stay in cache). Chunk ``c`` of scenario
  ``s`` draws from ``Generator(PCG64DXSM(SeedSequence(seed, spawn_key=(s, c))))``, which is
  the same stream as ``SeedSequence(seed).spawn(s + 1)[s].spawn(c + 1)[c]``. A chunk's
  numbers therefore depend on ``(seed, s, c)`` only.
* A *task* is the unit of work sent to a worker: a run of consecutive chunks of one scenario,
  at most :data:`TASK_TRIALS` trials, cut so that a run has about :data:`TARGET_TASKS` tasks
  (:func:`_cut`). A task returns one small aggregate per chunk; the driver folds every
  scenario chunk by chunk, strictly in chunk order, whatever the task cut, the worker count,
  the backend or whether a chunk came from the cache (:class:`_ChunkFold`). So a run is
  bit-identical for any ``n_jobs`` and backend, a resumed run equals an uninterrupted one,
  and a run extended to more trials equals a fresh run at that count (only a partial last
  chunk changes when the trial count grows).
* Chunks return :class:`~sim.aggregate.Aggregate` objects (counts, sums, sums of squares,
  histograms), never per-trial arrays: memory is bounded by the chunk size, not the trial count.

Precision (README "Precision"): :class:`Precision` stops each scenario at a target 95%
half-width, deciding only at 1, 2, 4, 8... chunks; ``streams`` let scenarios share their
dice (the spawn key of a chunk is the scenario's stream, by default its index) and
:class:`PairedDiff` accumulates the per-chunk paired differences to a baseline; a
:class:`sim.cache.ChunkCache` supplies finished chunks and stores new ones as tasks end.
:func:`sample_run` is the one loop behind all of it.

Backends: ``loky`` (processes, default), ``threading``, ``sequential`` and ``dask`` (tasks as
Dask futures, on an existing cluster with ``scheduler=ADDRESS``, otherwise on a LocalCluster
on 127.0.0.1 without a dashboard; a task whose worker dies is rerun on another worker, so a
lost worker does not lose the run).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate, ChunkAggregates
from sim.choices import BACKENDS, PROGRESS_MODES
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
#: Chunks per task a cached run aims at (one cache record per task, so the fastest kernels
#: spend under 3% of a run in the cache; a crash recomputes at most one task per worker).
CACHE_TASK_CHUNKS = 8
#: Most chunks a task holds (tiny chunk sizes: a task's per-chunk aggregates stay small).
MAX_TASK_CHUNKS = 1024
#: Most chunks the driver plans at once (a *wave*): the run is planned, submitted and
#: folded wave by wave, so its memory never grows with the trial count (only the boundary
#: of a wave idles the workers; a wave is thousands of chunks). One wave for most runs.
WAVE_CHUNKS = 8192
#: Most trials per scenario (``trials``, ``max_trials``, ``bench --big-trials``): 10**12, a
#: few hours of the fastest kernel per scenario on one core. Above it: one line, exit 2.
MAX_TRIALS = 10**12
Z95 = 1.959963984540054

def _no_results() -> Iterator[Any]:
    """An empty generator (closable like the workers' result generators)."""
    yield from ()


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
    """The generator of one chunk: depends on (seed, scenario, chunk) only. ``scenario_index``
    is the scenario's *stream*: its index in the run, or, for paired scenarios, the index of
    its group (the scenario with the paired axes removed), so they share their dice."""
    ss = np.random.SeedSequence(seed, spawn_key=(scenario_index, chunk_index))
    return np.random.Generator(np.random.PCG64DXSM(ss))


def chunk_trials(c: int, trials: int, chunk_size: int) -> int:
    """Trials of chunk ``c`` of a scenario capped at ``trials``: ``chunk_size`` except the
    last chunk. A chunk is identified by ``(stream, c, chunk_trials)`` for the cache."""
    return max(0, min(chunk_size, trials - c * chunk_size))


@dataclass(frozen=True)
class _Task:
    scenario_index: int
    first_chunk: int
    last_chunk: int  # exclusive
    trials: int  # the scenario's trial cap (chunk c holds chunk_trials(c, trials, chunk_size))
    chunk_size: int
    stream: int = -1  # spawn key of the scenario's chunks; -1: the scenario index

    @property
    def spawn(self) -> int:
        return self.scenario_index if self.stream < 0 else self.stream


def _cut(todo: Mapping[int, Sequence[int]], caps: Mapping[int, int], chunk_size: int,
         streams: Sequence[int] | None = None, min_chunks: int = 1) -> list[_Task]:
    """Cut the chunks to compute (scenario -> sorted chunk indices) into tasks of consecutive
    chunks, about :data:`TARGET_TASKS` in all and at most :data:`TASK_TRIALS` trials each.
    Where the task boundaries fall never changes a number: the driver folds every scenario
    chunk by chunk, in chunk order (:class:`_ChunkFold`). ``min_chunks``: a floor on the
    chunks per task (a cached run writes one record per task; fewer, larger tasks keep the
    cache's cost small for the fastest kernels)."""
    total = sum(len(v) for v in todo.values())
    per_task = min(MAX_TASK_CHUNKS, max(
        1, min_chunks, min(TASK_TRIALS // chunk_size, math.ceil(total / TARGET_TASKS))))
    tasks = []
    for s, chunks in todo.items():
        stream = -1 if streams is None else streams[s]
        run: list[int] = []
        for c in list(chunks) + [-2]:
            if run and (c != run[-1] + 1 or len(run) == per_task):
                tasks.append(_Task(s, run[0], run[-1] + 1, caps[s], chunk_size, stream))
                run = []
            run.append(c)
    return tasks


def _plan(n_scenarios: int, trials: int, chunk_size: int) -> list[_Task]:
    """Cut every scenario of a fixed-trials run into tasks of consecutive chunks (one wave:
    for small runs and tests; :func:`sample_run` plans wave by wave)."""
    n_chunks = max(1, math.ceil(trials / chunk_size))
    return _cut({s: range(n_chunks) for s in range(n_scenarios)},
                dict.fromkeys(range(n_scenarios), trials), chunk_size)


#: Test hook (tests/precision): a worker running a task whose first chunk is this number
#: kills its own process once (the marker file named by BTSIM_TEST_KILL_WORKER_MARKER is
#: created first), as a lost Dask worker would.
_KILL_WORKER_ENV = "BTSIM_TEST_KILL_WORKER_AT_CHUNK"


#: Batches of tasks per worker a local pool (loky, threading) is given: small tasks (a
#: 200-duel scenario is a few ms) are sent several to a call, so a call's dispatch, pickling
#: and result transfer are shared by them, while 8 calls a worker still balance the load.
BATCHES_PER_WORKER = 8


def _batches(tasks: Sequence[_Task], jobs: int) -> list[list[_Task]]:
    """Consecutive tasks packed into about ``BATCHES_PER_WORKER * jobs`` batches, a batch
    closed once it holds :data:`TASK_TRIALS` trials (big tasks go one to a batch). Only
    which process computes a task changes: its numbers depend on its chunks only."""
    per = max(1, math.ceil(len(tasks) / (BATCHES_PER_WORKER * max(1, jobs))))
    out: list[list[_Task]] = []
    size = 0
    for t in tasks:
        n = min(t.trials, t.last_chunk * t.chunk_size) - t.first_chunk * t.chunk_size
        if not out or len(out[-1]) >= per or size >= TASK_TRIALS:
            out.append([])
            size = 0
        out[-1].append(t)
        size += max(0, n)
    return out


#: bytes a loky worker may grow past its size after its first task before loky takes it for
#: a leak (joblib's vendored loky: ``process_executor._MAX_MEMORY_LEAK_SIZE``, 300 MB).
#: A btsim worker grows by design and stays bounded: each model's compiled code and tables
#: load once, the content caches are bounded (:class:`sim.memo.WeightedLRU`) and the malloc
#: tuning above keeps freed chunks. Over a suite (``make report``: 14 experiments on the same
#: workers) that passes 300 MB, and loky restarted a worker mid-run ("A worker stopped while
#: some jobs were given to the executor"), throwing its caches away; workers raise the bound.
WORKER_MEMORY_SLACK = 2 * 2**30


def _loosen_leak_guard() -> None:
    """Raise loky's leak threshold to :data:`WORKER_MEMORY_SLACK` in this process (read by a
    loky worker after every task; nothing else reads it)."""
    mod = sys.modules.get("joblib.externals.loky.process_executor")
    if mod is not None and getattr(mod, "_MAX_MEMORY_LEAK_SIZE", WORKER_MEMORY_SLACK) < \
            WORKER_MEMORY_SLACK:
        mod._MAX_MEMORY_LEAK_SIZE = WORKER_MEMORY_SLACK  # type: ignore[attr-defined]


def _run_batch(model: Model, items: Sequence[tuple[Any, _Task, int]], seed: int
               ) -> list[tuple[_Task, list[Aggregate], Any]]:
    """Worker side: run each ``(scenario, task, describe)`` of a batch. ``describe`` 1:
    also return the scenario's :class:`sim.described.Described` (its ``key`` and ``total``
    are the driver's to fill in); 2: ``(described, encode(described))`` (what the chunk
    cache writes to ``scenarios.rec``, its ``key`` the driver's). So reading a finished
    scenario for the summary and the cache is done here, in parallel, not in the driver."""
    _loosen_leak_guard()
    out = []
    for scenario, task, want in items:
        t, aggs = _run_task(model, scenario, task, seed)
        desc: Any = None
        if want:
            from sim.described import describe, encode

            desc = describe(model, scenario, "", Aggregate(0))
            if want == 2:
                desc = (desc, encode(desc))
        out.append((t, aggs, desc))
    return out


def _run_task(model: Model, scenario: Any, task: _Task, seed: int
              ) -> tuple[_Task, list[Aggregate]]:
    """Worker side: run a task's chunks; one aggregate per chunk, in chunk order."""
    if os.environ.get(_KILL_WORKER_ENV) == str(task.first_chunk):
        marker = os.environ.get("BTSIM_TEST_KILL_WORKER_MARKER", "")
        if marker and not os.path.exists(marker):
            open(marker, "w").close()  # noqa: SIM115 - a marker, closed at once
            import signal

            os.kill(os.getpid(), signal.SIGKILL)
    parts = ChunkAggregates()
    for c in range(task.first_chunk, task.last_chunk):
        n = chunk_trials(c, task.trials, task.chunk_size)
        parts.append(model.sample(scenario, chunk_rng(seed, task.spawn, c), n))
    return task, parts


class _ChunkFold:
    """Fold the chunk aggregates of one scenario strictly in chunk order as they arrive, so
    the sums (and every float rounding) depend on the chunks only, never on the task cut,
    the worker count, the backend or what came from the cache. ``on_chunk(c, agg)`` sees
    each chunk once, in order (paired differences use it)."""

    def __init__(self, on_chunk: Any = None) -> None:
        self.total = Aggregate(0)
        self.next = 0
        self.pending: dict[int, Aggregate] = {}
        self.on_chunk = on_chunk

    def add(self, c: int, agg: Aggregate) -> None:
        self.pending[c] = agg
        while self.next in self.pending:
            part = self.pending.pop(self.next)
            self.total.merge(part)
            if self.on_chunk is not None:
                self.on_chunk(self.next, part)
            self.next += 1


#: Kept for callers of the older name: folds task aggregates in task order.
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


def chunk_means(agg: Aggregate) -> dict[str, np.ndarray]:
    """Per-row means of every mean/probability metric of one chunk (NaN where no count)."""
    out = {}
    for name, st in agg.stats.items():
        with np.errstate(invalid="ignore", divide="ignore"):
            out[name] = np.where(st[:, 0] > 0, st[:, 1] / np.where(st[:, 0] > 0, st[:, 0], 1),
                                 np.nan)
    return out


#: Student's t 97.5% quantiles for 1..10 degrees of freedom (exact to 4 decimals).
_T975 = np.array([np.nan, 12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
                  2.2622, 2.2281])


def t975(df: Any) -> np.ndarray:
    """Student's t 97.5% quantile (two-sided 95%) for ``df`` degrees of freedom: a table up
    to 10, then the Cornish-Fisher series in 1/df (error < 1e-4), tending to 1.95996."""
    d = np.asarray(df, dtype=np.float64)
    z = Z95
    series = (z + (z**3 + z) / (4 * d) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * d**2)
              + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * d**3))
    small = _T975[np.clip(d, 0, 10).astype(int)]
    return np.where(d <= 10, small, series)


class PairedDiff:
    """Sufficient statistics of a paired difference ``scenario - baseline`` over chunks.

    Paired scenarios share their dice chunk by chunk, so chunk ``c`` gives one difference of
    chunk means ``d_c`` (weight ``n_c``, the chunk's trials). The estimate is
    ``D = sum n_c d_c / N`` and its standard error the batch-means one,
    ``SE^2 = sum n_c (d_c - D)^2 / ((C - 1) N)`` over ``C`` chunks (``N = sum n_c``), which
    keeps every correlation between the two scenarios. Memory: a few arrays per metric,
    whatever the trial count. Needs at least 2 chunks for a standard error; the 95% interval
    uses Student's t with ``C - 1`` degrees of freedom, so it stays honest with few chunks
    (use 30 or more chunks, e.g. a smaller ``chunk_size``, for a tight standard error). A
    chunk where a conditional metric has no observation in either scenario is left out for
    that metric.
    """

    def __init__(self) -> None:
        self.sums: dict[str, list[np.ndarray]] = {}  # name -> [N, S1, S2, C] per row

    def add(self, n: int, a: Mapping[str, np.ndarray], b: Mapping[str, np.ndarray]) -> None:
        for name, va in a.items():
            if name not in b:
                continue
            d = va - b[name]
            ok = ~np.isnan(d)
            d0 = np.where(ok, d, 0.0)
            w = np.where(ok, float(n), 0.0)
            acc = self.sums.setdefault(name, [np.zeros(d.shape) for _ in range(4)])
            acc[0] += w
            acc[1] += w * d0
            acc[2] += w * d0 * d0
            acc[3] += ok

    def result(self, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(difference, standard error, 95% low, 95% high) per row."""
        big_n, s1, s2, c = self.sums[name]
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = s1 / big_n
            var = np.maximum(s2 - big_n * diff * diff, 0.0) / ((c - 1) * big_n)
            se = np.where(c >= 2, np.sqrt(var), np.nan)
            q = np.where(c >= 2, t975(np.maximum(c - 1, 1)), np.nan)
        return diff, se, diff - q * se, diff + q * se


@dataclass
class Precision:
    """Stop when precise enough: every chosen metric's 95% interval half-width at most
    ``target_error`` (in the metric's unit: 0.01 is one percentage point of a probability).

    Decisions are taken only at the checkpoints 1, 2, 4, 8, ... chunks (then the cap
    ``max_trials``), on the scenario's aggregate folded in chunk order: the stopping point
    and every number depend on the seed, the chunk size and these settings only, never on
    the workers or the backend. ``metrics=None``: every probability and mean metric
    (histograms are never targets; name their mean metric instead). Paired scenarios stop
    together (the group stops when all its members are precise)."""

    target_error: float
    metrics: tuple[str, ...] | None = None
    max_trials: int = 2**26
    #: fewest chunks before the first decision (a paired comparison needs chunks for its
    #: standard error: :data:`PAIRED_MIN_CHUNKS`)
    min_chunks: int = 1

    def checkpoints(self, chunk_size: int) -> list[int]:
        """Chunk counts at which the stopping decision is taken."""
        last = max(1, math.ceil(self.max_trials / chunk_size))
        out, k = [], 1
        while k < last:
            if k >= self.min_chunks:
                out.append(k)
            k *= 2
        return out + [last]

    def half_width(self, model: Model, agg: Aggregate) -> float:
        """Largest 95% half-width over the chosen metrics and rows (inf with no data)."""
        worst = 0.0
        for m in model.metrics:
            if m.kind == "hist" or (self.metrics is not None and m.name not in self.metrics):
                continue
            st = agg.stats.get(m.name)
            if st is None:
                continue
            _, _, lo, hi = _interval(m.kind, st[:, 0], st[:, 1], st[:, 2])
            half = (hi - lo) / 2
            half = np.where(st[:, 0] > 0, half, np.inf)
            worst = max(worst, float(np.nanmax(half)) if half.size else 0.0)
        return worst


#: Chunks a paired comparison aims at: the standard error of a paired difference is the
#: batch-means one over chunks (:class:`PairedDiff`), which needs 2 chunks and is tight
#: (Student's t within 4% of the normal) from about 30.
PAIRED_MIN_CHUNKS = 32


def paired_chunk(trials: int | None, chunk_size: int | None, default: int,
                 precision: Precision | None = None) -> int:
    """The chunk size of a paired comparison: ``chunk_size`` when given (ConfigError when
    it leaves fewer than 2 chunks, naming the fix), else the model's ``default`` lowered
    so that ``trials`` (or a target run's ``max_trials``) make at least
    :data:`PAIRED_MIN_CHUNKS` chunks. Same seed and chunk size: same bits as ever."""
    total = precision.max_trials if precision is not None else int(trials or 0)
    if total < 2:
        raise ConfigError("trials", total, "at least 2 for a paired comparison (its standard "
                          "error needs 2 chunks; 30 or more for a tight one)")
    if chunk_size is not None:
        if math.ceil(total / chunk_size) < 2:
            raise ConfigError("chunk_size", chunk_size, f"at most {total // 2} for {total} "
                              "trials: a paired difference's standard error needs >= 2 "
                              f"chunks (chunk size <= {max(1, total // PAIRED_MIN_CHUNKS)} "
                              f"gives {PAIRED_MIN_CHUNKS})")
        return chunk_size
    return max(1, min(default, total // PAIRED_MIN_CHUNKS))


def check_precision(model: Model, target_error: Any, target_metric: Any = None,
                    max_trials: Any = None) -> Precision | None:
    """Validate the stop-at-target settings; None when no target is set."""
    if target_error is None:
        if target_metric is not None or max_trials is not None:
            field = "target_metric" if target_metric is not None else "max_trials"
            raise ConfigError(field, target_metric if target_metric is not None
                              else max_trials, "given only with a target error")
        return None
    if isinstance(target_error, bool) or not isinstance(target_error, int | float) or not (
            0 < float(target_error) < math.inf):
        raise ConfigError("target_error", target_error,
                          "a positive number (95% CI half-width, in the metric's unit)")
    names: tuple[str, ...] | None = None
    if target_metric is not None:
        raw = [target_metric] if isinstance(target_metric, str) else list(target_metric)
        kinds = {m.name: m.kind for m in model.metrics}
        for name in raw:
            if kinds.get(name) in (None, "hist"):
                raise ConfigError("target_metric", name, "a probability or mean metric of "
                                  f"model {model.name!r}: " + ", ".join(
                                      k for k, v in kinds.items() if v != "hist"))
        names = tuple(raw)
    cap = 2**26 if max_trials is None else check_int("max_trials", max_trials, lo=1,
                                                       hi=MAX_TRIALS)
    return Precision(float(target_error), names, cap)


@dataclass
class RunOutcome:
    """What :func:`sample_run` returns: merged aggregates, trials used, whether each scenario
    met the target, paired differences and what was computed vs taken from the cache."""

    parts: dict[int, Aggregate]
    trials_used: dict[int, int]
    target_reached: dict[int, bool] | None = None
    pairs: dict[int, tuple[int, PairedDiff]] = field(default_factory=dict)
    chunks_computed: int = 0
    chunks_cached: int = 0
    tasks_computed: int = 0
    #: most workers a round of the run used (:func:`effective_jobs`; 0: nothing computed)
    workers: int = 0
    #: (set by :func:`simulate`) each scenario as the summary read it: a
    #: :class:`sim.described.Described` or the scenario (:class:`sim.described.Views`)
    views: Any = None


# -- backends -------------------------------------------------------------------------------
@contextlib.contextmanager
def _dask_client(scheduler: str | None) -> Iterator[Any]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - depends on the install
        raise UserError(
            "The 'backend' parameter 'dask' needs the dask extra: pip install 'btsim[dask]'."
        ) from None
    import logging

    # distributed logs every lost connection as an ERROR with its traceback; btsim reports a
    # lost scheduler itself, in one line (_dask_results)
    names = ["distributed"] + [n for n in logging.root.manager.loggerDict
                               if n.startswith("distributed.")]
    levels = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL)
    try:
        with _dask_client_inner(scheduler, Client, LocalCluster) as client:
            yield client
    finally:
        for n, lv in levels.items():
            logging.getLogger(n).setLevel(lv)


@contextlib.contextmanager
def _dask_client_inner(scheduler: str | None, Client: Any, LocalCluster: Any  # noqa: N803
                       ) -> Iterator[Any]:
    if scheduler:
        try:
            client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise UserError(
                f"The 'scheduler' parameter must be the address of a reachable Dask scheduler; "
                f"got {scheduler!r} ({exc.__class__.__name__})."
            ) from None
        try:
            yield client
        finally:
            with contextlib.suppress(Exception):  # a scheduler that died: nothing to close
                client.close(timeout=5)
        return
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, processes=True) as cluster, Client(cluster) as client:
        yield client


#: Seconds a Dask run waits with no worker connected before it stops (exit 2, one line);
#: ``BTSIM_DASK_NO_WORKERS_TIMEOUT`` overrides it (README "Beyond one machine").
DASK_NO_WORKERS_TIMEOUT = 120.0
#: Seconds between two checks of a Dask run's scheduler and workers.
DASK_POLL = 1.0


def _dask_lost() -> tuple[type[BaseException], ...]:
    """What Dask raises when its scheduler is gone (a connection closed or timed out)."""
    out: list[type[BaseException]] = [OSError, TimeoutError]
    with contextlib.suppress(ImportError):
        from distributed.comm.core import CommClosedError

        out.append(CommClosedError)
    with contextlib.suppress(ImportError):
        from asyncio import CancelledError

        out.append(CancelledError)
    with contextlib.suppress(ImportError):
        from concurrent.futures import CancelledError as FutureCancelled

        out.append(FutureCancelled)
    return tuple(out)


def _lost(where: str, exc: BaseException) -> UserError:
    return UserError(f"The Dask scheduler ({where}) went away mid-run "
                     f"({exc.__class__.__name__}); finished chunks are cached: rerun the same "
                     "command once a scheduler is back.")


def _dask_results(client: Any, futures: list[Any], where: str) -> Iterator[Any]:
    """The futures' results in completion order; UserError (one line) when the scheduler
    goes away or no worker is connected for :data:`DASK_NO_WORKERS_TIMEOUT` seconds."""
    from dask.distributed import wait

    limit = float(os.environ.get("BTSIM_DASK_NO_WORKERS_TIMEOUT", DASK_NO_WORKERS_TIMEOUT))
    lost = _dask_lost()
    pending = set(futures)
    alone_since: float | None = None
    while pending:
        try:
            done, pending_now = wait(list(pending), timeout=DASK_POLL,
                                     return_when="FIRST_COMPLETED")
            pending = set(pending_now)
        except TimeoutError:
            done = set()
        except lost as exc:
            raise _lost(where, exc) from None
        for fut in done:
            if fut.status == "cancelled":
                raise _lost(where, RuntimeError("task cancelled"))
            try:
                yield fut.result()
            except lost as exc:
                raise _lost(where, exc) from None
        if done or not pending:
            alone_since = None
            continue
        if client.status not in ("running", "connecting"):
            raise _lost(where, RuntimeError(f"client {client.status}"))
        try:
            workers = len(client.scheduler_info().get("workers", {})) if \
                client.status == "running" else 0
            if workers == 0:  # the cached info may be stale: ask the scheduler itself
                workers = len(client.nthreads())
        except lost as exc:
            raise _lost(where, exc) from None
        if workers:
            alone_since = None
            continue
        now = time.monotonic()
        alone_since = now if alone_since is None else alone_since
        if now - alone_since >= limit:
            raise UserError(f"No Dask worker has been connected to {where} for "
                            f"{limit:g} s (BTSIM_DASK_NO_WORKERS_TIMEOUT); finished chunks are "
                            "cached: start workers and rerun the same command.")


def effective_jobs(n_jobs: int, backend: str, n_tasks: int) -> int:
    """Workers a run really starts: never more than its tasks (a task is the smallest unit of
    work) and, on the local backends (loky, threading), never more than the machine's
    cores; ``sequential`` runs one. Dask keeps ``n_jobs`` (its cluster sizes itself), so a
    ``--jobs 999`` on one chunk starts one local worker, not 999."""
    if backend == "sequential":
        return 1
    if backend == "dask":
        return n_jobs
    return max(1, min(n_jobs, n_tasks, os.cpu_count() or 1))


@contextlib.contextmanager
def _executor(model: Model, scenarios: Sequence[Any], seed: int, n_jobs: int, backend: str,
              scheduler: str | None) -> Iterator[Any]:
    """Yield ``submit(tasks, describe=()) -> iterator of (task, chunk aggregates,
    description)`` in completion order; ``description`` is the scenario's
    :class:`sim.described.Described` (computed in the worker) for a task whose scenario
    index is in ``describe`` (scenario -> what :func:`_run_batch` makes), else None.

    One pool for the whole run (every round of a target-error run). On a local pool the
    tasks go in batches (:func:`_batches`). On Dask the tasks are submitted as futures: a
    task whose worker dies is rerun on another worker by the scheduler (and retried up to
    3 times on an error), so a lost worker does not lose the run; the result is the same
    since a task's numbers depend on its chunks only."""
    def items(batch: Sequence[_Task], describe: Mapping[int, int] | None) -> list[tuple[Any, _Task, int]]:
        # a scenario is described by the task that holds its last chunk
        return [(scenarios[t.scenario_index], t,
                 (describe or {}).get(t.scenario_index, 0)
                 if t.last_chunk * t.chunk_size >= t.trials else 0) for t in batch]

    def flat(results: Any) -> Iterator[tuple[_Task, list[Aggregate], Any]]:
        try:
            for batch in results:
                yield from batch
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()

    if backend == "sequential" or (n_jobs == 1 and backend != "dask"):
        def run_seq(tasks: list[_Task], describe: Mapping[int, int] | None = None
                    ) -> Iterator[tuple[_Task, list[Aggregate], Any]]:
            return flat(_run_batch(model, items([t], describe), seed) for t in tasks)

        yield run_seq
        return
    if backend == "dask":
        with _dask_client(scheduler) as client:
            def run_dask(tasks: list[_Task], describe: Mapping[int, int] | None = None
                         ) -> Iterator[tuple[_Task, list[Aggregate], Any]]:
                where = scheduler or "the local Dask cluster"
                try:
                    futures = [client.submit(_run_batch, model, items([t], describe), seed,
                                             pure=False, retries=3) for t in tasks]
                except _dask_lost() as exc:
                    raise _lost(where, exc) from None
                try:
                    yield from flat(_dask_results(client, futures, where))
                finally:
                    with contextlib.suppress(Exception):
                        client.cancel(futures)

            yield run_dask
        return
    from joblib import Parallel, delayed

    def run_joblib(tasks: list[_Task], describe: Mapping[int, int] | None = None
                   ) -> Iterator[tuple[_Task, list[Aggregate], Any]]:
        jobs = effective_jobs(n_jobs, backend, len(tasks))
        if jobs == 1:   # one task (or one core): no pool to start
            return flat(_run_batch(model, items([t], describe), seed) for t in tasks)
        calls = (delayed(_run_batch)(model, items(b, describe), seed)
                 for b in _batches(tasks, jobs))
        return flat(Parallel(n_jobs=jobs, backend=backend,
                             return_as="generator_unordered")(calls))

    yield run_joblib


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
                 chunk_size: Any = None, model: Model | None = None
                 ) -> tuple[int, int, int, str, int]:
    """Check run parameters up front; raise ConfigError naming the field. Without
    ``chunk_size`` the chunk is ``model.default_chunk`` or :data:`DEFAULT_CHUNK`."""
    trials = check_int("trials", trials, lo=1, hi=MAX_TRIALS)
    seed = check_int("seed", seed, lo=0)
    n_jobs = check_int("jobs", n_jobs, lo=-1)
    if n_jobs == 0:
        raise ConfigError("jobs", 0, "a positive worker count, or -1 for all cores")
    if n_jobs == -1:
        n_jobs = os.cpu_count() or 1
    backend = check_choice("backend", backend, BACKENDS)
    default = (model.default_chunk if model is not None else None) or DEFAULT_CHUNK
    chunk = default if chunk_size is None else check_int("chunk_size", chunk_size,
                                                          lo=1, hi=2**24)
    return trials, seed, n_jobs, backend, chunk


def _next_wave(pos: dict[int, int], ends: Mapping[int, int], cap: int, chunk: int,
               cache: Any, folds: Sequence[_ChunkFold] | None, out: RunOutcome,
               bar: Any) -> dict[int, list[int]]:
    """The next wave of at most :data:`WAVE_CHUNKS` chunks to compute (scenario -> chunk
    indices), from ``pos[s]`` up to ``ends[s]`` (exclusive), advancing ``pos``; chunks found
    in the cache are folded at once (``folds=None``: a shard, which folds nothing)."""
    todo: dict[int, list[int]] = {}
    budget = WAVE_CHUNKS
    for s in sorted(pos):
        if budget <= 0:
            break
        if pos[s] >= ends[s]:
            continue
        have = cache.load(s) if cache is not None else {}
        c = pos[s]
        while c < ends[s] and budget > 0:
            agg = have.get((c, chunk_trials(c, cap, chunk)))
            if agg is not None:
                if folds is not None:
                    folds[s].add(c, agg)
                out.chunks_cached += 1
                if bar is not None:
                    bar.update(agg.n)
            else:
                todo.setdefault(s, []).append(c)
                budget -= 1
            c += 1
        pos[s] = c
    return todo


#: Test hook (tests/precision): the driver kills its own process with SIGKILL after this many
#: computed tasks have been folded (and cached), as a crash or ``kill -9`` would.
_KILL_DRIVER_ENV = "BTSIM_TEST_KILL_AFTER_TASKS"


def sample_run(model: Model, scenarios: Sequence[Any], trials: int, seed: int,
               n_jobs: int = 1, backend: str = "loky", chunk_size: int | None = None,
               progress: bool | str | None = None, scheduler: str | None = None, *,
               precision: Precision | None = None, streams: Sequence[int] | None = None,
               pairs: Mapping[int, int] | None = None, cache: Any = None,
               finished: Mapping[int, Aggregate] | None = None,
               on_done: Any = None, descriptions: dict[int, Any] | None = None
               ) -> RunOutcome:
    """The one Monte Carlo loop of btsim (every door comes through here).

    ``trials`` per scenario, or with ``precision`` chunks added at the checkpoints until the
    target error is met (``trials`` is then ignored; the cap is ``precision.max_trials``).
    ``streams[s]``: the spawn key of scenario ``s``'s chunks (default ``s``); scenarios with
    the same stream share their dice. ``pairs``: scenario -> baseline scenario (same stream)
    whose chunk-by-chunk difference is accumulated (:class:`PairedDiff`). ``cache``: a
    :class:`sim.cache.ChunkCache` that supplies finished chunks and stores new ones as each
    task ends. Every aggregate is checked against the model's declared metrics.

    Fixed-trials runs only (no ``precision``; never a paired scenario): ``finished``,
    scenario -> its chunks already folded (a finished scenario the cache describes,
    :mod:`sim.described`: nothing of it is loaded, built or computed); ``on_done(s, total)``
    is called once a scenario's last chunk is folded (and saved); ``descriptions``: a dict
    that receives, scenario -> its :class:`sim.described.Described` made in the worker
    that computed its last chunk (``key`` empty, ``total`` empty: the caller's to fill),
    for every computed scenario that is not paired, before its ``on_done``."""
    trials, seed, n_jobs, backend, chunk = validate_run(trials, seed, n_jobs, backend,
                                                        chunk_size, model)
    n = len(scenarios)
    finished = dict(finished or {})
    if (finished or on_done is not None or descriptions is not None) \
            and precision is not None:
        raise ValueError("finished scenarios, on_done and descriptions: fixed-trials runs "
                         "only")
    streams = list(range(n)) if streams is None else [int(x) for x in streams]
    if len(streams) != n:
        raise ValueError("streams: one per scenario")
    pairs = dict(pairs or {})
    for s, b in pairs.items():
        if streams[s] != streams[b]:
            raise ValueError(f"paired scenarios {s} and {b} must share a stream")
    cap = precision.max_trials if precision is not None else trials
    caps = dict.fromkeys(range(n), cap)
    last = max(1, math.ceil(cap / chunk))
    checkpoints = precision.checkpoints(chunk) if precision is not None else [last]

    # paired differences: chunk means kept only until every pair that needs them has used them
    diffs = {s: PairedDiff() for s in pairs}
    means: dict[int, dict[int, dict[str, np.ndarray]]] = {}
    cursor = dict.fromkeys(pairs, 0)
    involved = set(pairs) | set(pairs.values())

    def on_chunk(s: int) -> Any:
        def record(c: int, agg: Aggregate) -> None:
            means.setdefault(s, {})[c] = chunk_means(agg) | {"__n": np.array(agg.n)}
            for a, b in pairs.items():
                if s not in (a, b):
                    continue
                while cursor[a] in means.get(a, {}) and cursor[a] in means.get(b, {}):
                    ma, mb = means[a][cursor[a]], means[b][cursor[a]]
                    diffs[a].add(int(ma["__n"]), ma, mb)
                    cursor[a] += 1
            for x in (a for a in involved if a in means):
                low = min([cursor[a] for a, b in pairs.items() if x in (a, b)])
                for c_old in [c_ for c_ in means[x] if c_ < low]:
                    del means[x][c_old]
        return record

    if set(finished) & involved:
        raise ValueError("a paired scenario cannot be given as finished")
    folds = [_ChunkFold(on_chunk(s) if s in involved else None) for s in range(n)]
    for s, total in finished.items():  # the whole scenario, folded by an earlier run
        folds[s].total, folds[s].next = total, last
    done_seen = set(finished)
    # scenario -> 1: describe it in its last chunk's worker, 2: and encode it for the cache
    describe = dict.fromkeys(set(range(n)) - involved - set(finished),
                             1 if cache is None else 2) if descriptions is not None else {}

    def check_done(s: int) -> None:
        if on_done is not None and s not in done_seen and s not in involved \
                and folds[s].next >= last:
            done_seen.add(s)
            on_done(s, folds[s].total)
    groups: dict[int, list[int]] = {}
    for s in range(n):  # paired scenarios stop together
        groups.setdefault(streams[s] if involved else s, []).append(s)
    active = set(range(n))
    reached: dict[int, bool] = {}
    out = RunOutcome(parts={}, trials_used={})
    out.chunks_cached = last * len(finished)
    bar = _progress_bar(cap * n, progress) if precision is None else _progress_bar(0, progress)
    if bar is not None and precision is not None:
        bar.total = None  # open-ended: the target decides (the cap is max_trials)
    if bar is not None and finished:
        bar.update(sum(t.n for t in finished.values()))
    kill_after = int(os.environ.get(_KILL_DRIVER_ENV, "0") or 0)
    try:
        with _executor(model, scenarios, seed, n_jobs, backend, scheduler) as submit:
            for goal in checkpoints:
                if not active:
                    break
                pos = {s: folds[s].next for s in active}
                ends = dict.fromkeys(pos, goal)
                while any(pos[s] < goal for s in pos):  # wave by wave (WAVE_CHUNKS)
                    todo = _next_wave(pos, ends, cap, chunk, cache, folds, out, bar)
                    if on_done is not None:  # scenarios completed from cached chunks
                        for s in pos:
                            check_done(s)
                    # with a cache: tasks of up to CACHE_TASK_CHUNKS chunks while every
                    # worker still gets 4 tasks or more
                    cores = effective_jobs(n_jobs, backend, 2**62)
                    floor = 1 if cache is None else max(1, min(
                        CACHE_TASK_CHUNKS, sum(map(len, todo.values())) // (4 * cores)))
                    tasks = _cut(todo, caps, chunk, streams, min_chunks=floor)
                    if tasks:
                        out.workers = max(out.workers,
                                          effective_jobs(n_jobs, backend, len(tasks)))
                    results: Any = submit(tasks, describe) if tasks else _no_results()
                    # closing() shuts the workers (or the futures) down at once on an error
                    with contextlib.closing(results):
                        for task, aggs, desc in results:
                            if desc is not None and descriptions is not None:
                                descriptions[task.scenario_index] = desc
                            if cache is not None:
                                cache.save(task, aggs)
                            for c, agg in zip(range(task.first_chunk, task.last_chunk), aggs,
                                              strict=True):
                                folds[task.scenario_index].add(c, agg)
                            check_done(task.scenario_index)
                            out.tasks_computed += 1
                            out.chunks_computed += len(aggs)
                            if bar is not None:
                                bar.update(sum(a.n for a in aggs))
                            if kill_after and out.tasks_computed >= kill_after:
                                import signal

                                os.kill(os.getpid(), signal.SIGKILL)
                if precision is None:
                    active.clear()
                    break
                for members in groups.values():
                    if not set(members) & active:
                        continue
                    ok = all(precision.half_width(model, folds[s].total)
                             <= precision.target_error for s in members)
                    if ok or goal >= last:
                        for s in members:
                            reached[s] = ok
                            active.discard(s)
    finally:
        if bar is not None:
            bar.close()
    for s in range(n):
        out.parts[s] = folds[s].total
        out.trials_used[s] = folds[s].total.n
        check_sample(model, folds[s].total)
    if precision is not None:
        out.target_reached = reached
    out.pairs = {s: (b, diffs[s]) for s, b in pairs.items()}
    return out


def shard_ranges(n_scenarios: int, trials: int, chunk_size: int, shard: tuple[int, int]
                 ) -> dict[int, tuple[int, int]]:
    """The chunks shard ``i`` of ``N`` (``shard = (i, N)``, 0 <= i < N) computes: scenario
    -> (first chunk, end chunk). The run's chunks, scenario by scenario in chunk order, are
    cut into N contiguous parts of equal count (to within one), so each shard's tasks are
    runs of consecutive chunks and the N shards together hold every chunk exactly once."""
    i, n = shard
    per = max(1, math.ceil(trials / chunk_size))
    total = n_scenarios * per
    lo, hi = i * total // n, (i + 1) * total // n
    out = {}
    for s in range(n_scenarios):
        a, b = max(lo - s * per, 0), min(hi - s * per, per)
        if a < b:
            out[s] = (a, b)
    return out


def run_shard(model: Model, scenarios: Sequence[Any], trials: int, seed: int,
              shard: tuple[int, int], cache: Any, n_jobs: int = 1, backend: str = "loky",
              chunk_size: int | None = None, progress: bool | str | None = None,
              scheduler: str | None = None, streams: Sequence[int] | None = None,
              ranges: Mapping[int, tuple[int, int]] | None = None) -> RunOutcome:
    """Compute shard ``shard = (i, N)`` of a fixed-trials run (:func:`shard_ranges`) into
    ``cache`` (a bound :class:`sim.cache.ChunkCache`): its chunks that are not cached yet,
    task by task. Nothing is folded or summarized: ``btsim merge`` folds the shards' chunks
    in chunk order, which gives the bits of a single run (README "Beyond one machine").
    ``ranges``: scenario -> (first chunk, end chunk) to compute instead of the shard's
    (a rating's round, :mod:`sim.rating.shards`; ``shard`` is then unused)."""
    trials, seed, n_jobs, backend, chunk = validate_run(trials, seed, n_jobs, backend,
                                                        chunk_size, model)
    n = len(scenarios)
    spawn = list(range(n)) if streams is None else [int(x) for x in streams]
    ranges = shard_ranges(n, trials, chunk, shard) if ranges is None else dict(ranges)
    caps = dict.fromkeys(range(n), trials)
    pos = {s: a for s, (a, _) in ranges.items()}
    ends = {s: b for s, (_, b) in ranges.items()}
    out = RunOutcome(parts={}, trials_used={})
    bar = _progress_bar(sum(min(trials, b * chunk) - a * chunk for a, b in ranges.values()),
                        progress)
    try:
        with _executor(model, scenarios, seed, n_jobs, backend, scheduler) as submit:
            while any(pos[s] < ends[s] for s in pos):
                todo = _next_wave(pos, ends, trials, chunk, cache, None, out, bar)
                cores = effective_jobs(n_jobs, backend, 2**62)
                floor = max(1, min(CACHE_TASK_CHUNKS,
                                   sum(map(len, todo.values())) // (4 * cores)))
                tasks = _cut(todo, caps, chunk, spawn, min_chunks=floor)
                results: Any = submit(tasks) if tasks else _no_results()
                with contextlib.closing(results):
                    for task, aggs, _ in results:
                        cache.save(task, aggs)
                        out.tasks_computed += 1
                        out.chunks_computed += len(aggs)
                        if bar is not None:
                            bar.update(sum(a.n for a in aggs))
    finally:
        if bar is not None:
            bar.close()
    return out


def sample_scenarios(model: Model, scenarios: Sequence[Any], trials: int, seed: int,
                     n_jobs: int = 1, backend: str = "loky", chunk_size: int | None = None,
                     progress: bool | str | None = None,
                     scheduler: str | None = None) -> dict[int, Aggregate]:
    """Run ``trials`` trials of every (already built) scenario; the merged aggregates by
    scenario index (:func:`sample_run` without a target, pairing or cache). :func:`simulate`,
    ``sim.run``, ``sim.attack``, ``sim.heat`` and the CLI all come through
    :func:`sample_run`, so the same seed, trials and chunk size give the same bits by every
    door."""
    return sample_run(model, scenarios, trials, seed, n_jobs=n_jobs, backend=backend,
                      chunk_size=chunk_size, progress=progress, scheduler=scheduler).parts


def simulate(model: Model, params_list: Sequence[Mapping[str, Any]], trials: int, seed: int,
             n_jobs: int = 1, backend: str = "loky", chunk_size: int | None = None,
             progress: bool | str | None = None, scheduler: str | None = None,
             metrics: Sequence[str] | None = None, with_exact: bool = True, *,
             precision: Precision | None = None, streams: Sequence[int] | None = None,
             pairs: Mapping[int, int] | None = None, cache: Any = None,
             outcome: list[RunOutcome] | None = None,
             scenarios: Sequence[Any] | None = None) -> pd.DataFrame:
    """Run ``trials`` Monte Carlo trials of every scenario and summarise them.

    Returns one row per scenario row with the parameters, the model's facts and, for every
    metric ``m``: ``m`` (mean), ``m_se``, ``m_ci_low``, ``m_ci_high``, ``m_n`` (observations)
    and ``m_exact`` where the model has an exact value (``with_exact``). ``progress``:
    ``auto`` (default; a bar after ~2 s when stderr is a terminal), ``always`` or ``never``.

    ``precision`` (:func:`check_precision`) stops each scenario at its target error; the
    frame then has ``trials_used`` and ``target_reached`` columns (``trials`` = trials
    used). ``streams``/``pairs`` pair scenarios (see :func:`sample_run`); paired rows gain
    ``m_diff``, ``m_diff_se``, ``m_diff_ci_low``, ``m_diff_ci_high`` against their baseline.
    ``cache``: resume and extend (:mod:`sim.cache`). ``outcome``: a list that receives the
    :class:`RunOutcome` (chunks computed and cached). ``scenarios``: the scenarios of
    ``params_list`` already built (:func:`sim.experiment.run` builds each once).
    """
    from sim.described import Described, Scenarios, Views, describe

    trials, seed, n_jobs, backend, chunk = validate_run(trials, seed, n_jobs, backend,
                                                        chunk_size, model)
    check_progress(progress)
    if scenarios is None:
        scenarios = Scenarios(model, params_list)
    elif len(scenarios) != len(params_list):
        raise ValueError("scenarios and params_list differ in length")
    exact_values = None
    # finished scenarios (issue 18): a fixed-trials run with a cache describes each one as
    # its last chunk lands; a resume reads those back instead of building them
    described: dict[int, Described] = {}
    on_done = None
    # fixed trials: each computed scenario is described by the worker of its last chunk
    # (the summary's and the cache's reading of it in parallel, not in the driver); without
    # a cache only when there are workers (in one process it is extra work: the summary
    # reads less of a scenario than a description holds) and no exact values (read from
    # the scenario itself)
    made: dict[int, Any] | None = {} if precision is None and (
        cache is not None or (not with_exact and effective_jobs(n_jobs, backend, 2) > 1)
    ) else None
    if cache is not None:
        if precision is None:
            involved = set(pairs or {}) | set((pairs or {}).values())
            described = cache.described(
                model, params_list, seed, chunk, streams, trials,
                eligible=[s for s in range(len(params_list)) if s not in involved])

            def on_done(s: int, total: Aggregate) -> None:
                got = made.pop(s, None) if made is not None else None
                if got is None:
                    described[s] = describe(model, scenarios[s], cache.keys[s], total)
                    cache.record(s, described[s])
                    return
                d, doc = got  # made and encoded by the worker (sample_run)
                described[s] = dataclasses.replace(d, key=cache.keys[s], total=total)
                cache.record(s, described[s],
                             encoded=(None if doc is None else {**doc, "key": cache.keys[s]},))
        # builds (so validates) every scenario not described, before any is computed
        cache.bind(model, scenarios, params_list, seed, chunk, streams, described=described)
        if with_exact:  # before the chunks: the first saved chunk stores them too
            exact_values = cache.exact_values(lambda s: _exact(model, scenarios[s]))
    else:  # every scenario built (so validated) before any is computed
        for s in range(len(scenarios)):
            scenarios[s]
    try:
        res = sample_run(model, scenarios, trials, seed, n_jobs=n_jobs, backend=backend,
                         chunk_size=chunk, progress=progress, scheduler=scheduler,
                         precision=precision, streams=streams, pairs=pairs, cache=cache,
                         finished={s: d.total for s, d in described.items()},
                         on_done=on_done, descriptions=made)
    finally:
        if cache is not None:
            cache.close()
    if made and not with_exact:  # no cache: the summary reads the workers' descriptions
        # (with exact values it reads each scenario itself: they come from the scenario)
        for s, d in made.items():
            described[s] = dataclasses.replace(d, total=res.parts[s])
    views = Views(scenarios, described)
    res.views = views  # what sim.experiment's metadata and CSV layout read of them
    if outcome is not None:
        outcome.append(res)
    if cache is not None:
        cache.flush_exact()
    frame = summarize(model, views, res.parts, metrics=metrics, with_exact=with_exact,
                      trials=trials if precision is None else None, exact=exact_values)
    if precision is not None or res.pairs:
        frame = _add_precision_columns(model, views, frame, res, metrics)
    return frame


def _rows_of(model: Model, scenarios: Sequence[Any]) -> list[int]:
    from sim.described import row_count

    return [row_count(model, scenarios[s]) for s in range(len(scenarios))]


def _add_precision_columns(model: Model, scenarios: Sequence[Any], frame: pd.DataFrame,
                           res: RunOutcome, metrics: Sequence[str] | None) -> pd.DataFrame:
    """``trials_used``/``target_reached`` (target runs) and the ``*_diff*`` columns of
    paired rows (baseline rows: difference 0; unpaired rows: NaN)."""
    attrs = dict(frame.attrs)
    rows = _rows_of(model, scenarios)
    cols: dict[str, Any] = {}
    if res.target_reached is not None:
        cols["trials_used"] = np.repeat([res.trials_used[s] for s in range(len(scenarios))],
                                        rows)
        cols["target_reached"] = np.repeat([res.target_reached[s]
                                            for s in range(len(scenarios))], rows)
    if res.pairs:
        baselines = set(b for b, _ in res.pairs.values())
        for m in _selected(model, metrics):
            if m.kind == "hist":
                continue
            vals: dict[str, list[np.ndarray]] = {sfx: [] for sfx in ("_diff", "_diff_se", "_diff_ci_low", "_diff_ci_high")}
            for s, k in enumerate(rows):
                if s in res.pairs and m.name in res.pairs[s][1].sums:
                    got: tuple[np.ndarray, ...] = tuple(
                        np.broadcast_to(g, (k,)) for g in res.pairs[s][1].result(m.name))
                elif s in baselines and s not in res.pairs:
                    got = (np.zeros(k),) * 4
                else:
                    got = (np.full(k, np.nan),) * 4
                for sfx, g in zip(vals, got, strict=True):
                    vals[sfx].append(g)
            for sfx, parts in vals.items():
                cols[m.name + sfx] = np.concatenate(parts)
    extra = pd.DataFrame(cols, index=frame.index)
    out = pd.concat([frame, extra], axis=1)
    if res.target_reached is not None:
        out["trials"] = out["trials_used"]
    out.attrs = attrs
    return out


def exact_frame(model: Model, params_list: Sequence[Mapping[str, Any]],
                metrics: Sequence[str] | None = None, *,
                known: Sequence[tuple[Any, Mapping[str, Any] | None]] | None = None
                ) -> pd.DataFrame:
    """Exact values of every metric that has one, in the same layout as :func:`simulate`.
    ``known``: (scenario, exact values) per entry of ``params_list`` already computed by the
    caller (:func:`sim.api.run_scenario`), so that no exact computation is done twice."""
    if known is None:
        scenarios = [model.scenario(p) for p in params_list]
        values = [_exact(model, scn) for scn in scenarios]
    else:
        scenarios = [scn for scn, _ in known]
        values = [None if ex is None else dict(ex) for _, ex in known]
    frames = []
    for scn, got in zip(scenarios, values, strict=True):
        cols, k = _base_columns(model, scn)
        ex = got or {}
        for m in _selected(model, metrics):
            if m.name in ex:
                _put(cols, k, m.name, ex[m.name], m.kind == "hist")
        frames.append(_blank_if_impossible(model, scn, cols, k))
    out = _frame_of(frames)
    out.attrs["metric_kinds"] = {m.name: m.kind for m in _selected(model, metrics)}
    _annotate(out, model, scenarios)
    return out


def _annotate(frame: pd.DataFrame, model: Model, scenarios: Sequence[Any]) -> None:
    """Record in ``frame.attrs`` what a results folder must keep beside the numbers: the
    notes a user needs (``notes``, each once) and every scenario's effective rule options
    (``options``, one dict per scenario)."""
    from sim.described import notes_of, options_of

    notes: list[str] = []
    views = [scenarios[s] for s in range(len(scenarios))]
    for scn in views:
        notes += [n for n in notes_of(model, scn) if n not in notes]
    frame.attrs["notes"] = notes
    frame.attrs["options"] = [options_of(model, scn) for scn in views]


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
    return check_exact_values(model, model.exact(scn))


def check_exact_values(model: Model, ex: dict[str, Any] | None) -> dict[str, Any] | None:
    """``ex`` (what ``model.exact`` returned) after :func:`check_exact`."""
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
    """Parameter, row-index and fact columns of one scenario (built, or its
    :class:`sim.described.Described`), and its row count."""
    from sim.described import facts_of, params_of, rows_of

    rows, k = rows_of(model, scn)
    cols: dict[str, Any] = {key: [v] * k for key, v in params_of(model, scn).items()}
    if rows is not None:
        for col, values in rows.items():
            cols[col] = values
    for key, v in facts_of(model, scn).items():
        cols[key] = [v] * k
    return cols, k


def _blank_if_impossible(model: Model, scn: Any, cols: dict[str, Any], k: int
                         ) -> dict[str, Any]:
    """An impossible scenario (fact ``impossible`` set to the reason) has no metric values:
    every metric column is NaN (hist columns None) rather than a silent zero. The columns of
    one scenario, for :func:`_frame_of`."""
    from sim.described import facts_of

    if facts_of(model, scn).get("impossible"):
        for m in model.metrics:
            for suffix in ("", "_exact", "_se", "_ci_low", "_ci_high"):
                if m.name + suffix in cols:
                    cols[m.name + suffix] = [None] * k if m.kind == "hist" else np.full(k, np.nan)
    return cols


#: Python scalar types a column may be built from directly (each maps to one pandas dtype)
_PLAIN = {bool: "b", np.bool_: "b", int: "i", np.int64: "i", float: "f", np.float64: "f",
          str: "s", list: "l"}


def _column(values: list[Any]) -> Any:
    """The scenarios' values of one column joined, when pandas infers the same dtype for the
    joined column as for the concatenation of per-scenario frames: numeric arrays of one
    dtype, or lists of plain scalars of one kind (ints and floats mixed: float64; no None).
    None: build it the slow way."""
    if all(isinstance(v, np.ndarray) and v.ndim == 1 and v.dtype.kind in "biuf"
           for v in values):
        return np.concatenate(values) if len({v.dtype for v in values}) == 1 else None
    lists = [list(v) if isinstance(v, np.ndarray) and v.dtype == object else v
             for v in values]
    if not all(isinstance(v, list) for v in lists):
        return None
    flat = [x for v in lists for x in v]
    kinds = {_PLAIN.get(type(x)) for x in flat}
    if None in kinds or not (kinds <= {"i", "f"} or len(kinds) == 1):
        return None
    return flat


def _signature(value: Any) -> Any:
    """What pandas' dtype inference of one scenario's column depends on: ``("array",
    dtype)`` of a 1-D array, ``("list", element types)`` of a non-empty list (None: not a
    plain column)."""
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str) if value.ndim == 1 and value.dtype != object \
            else None
    if isinstance(value, list) and value and all(
            type(x) in _PLAIN or x is None for x in value):
        return ("list", tuple(type(x) for x in value))
    return None


def _column_by_groups(values: list[Any]) -> Any:
    """The column ``pd.concat`` of per-scenario frames gives, built from one Series per kind
    of scenario value (:func:`_signature`): the scenarios of one kind infer one dtype, the
    joined column takes pandas' common dtype of the kinds (``pd.concat`` of one frame per
    kind) and each scenario's values cast to it. None where a value is not plain or the
    common dtype is not a NumPy one (then the frames are joined the slow way)."""
    groups: dict[Any, list[int]] = {}
    for i, v in enumerate(values):
        sig = _signature(v)
        if sig is None:
            return None
        groups.setdefault(sig, []).append(i)
    series = {}
    for sig, idx in groups.items():
        series[sig] = pd.Series(np.concatenate([values[i] for i in idx]) if sig[0] == "array"
                                else [x for i in idx for x in values[i]])
    common = pd.concat([pd.DataFrame({"c": s.iloc[:1]}) for s in series.values()],
                       ignore_index=True)["c"].dtype
    if not isinstance(common, np.dtype):
        return None
    sizes = [len(v) for v in values]
    ends = np.cumsum(sizes)
    out = np.empty(int(ends[-1]), dtype=common)
    for sig, idx in groups.items():
        vals = series[sig].astype(common).to_numpy()
        at = 0
        for i in idx:
            out[ends[i] - sizes[i]: ends[i]] = vals[at: at + sizes[i]]
            at += sizes[i]
    # a Series keeps the dtype (an object array of strings would become ``str`` again)
    return pd.Series(out, dtype=common, copy=False)


def _column_of_dicts(values: list[Any]) -> Any:
    """A column whose every value is a dict (a fact such as ``rule_options``): the object
    column ``pd.concat`` gives, holding the same dicts; None otherwise. (Without it one
    such fact sent a 588-scenario summary down the slow way: 1.5 s of 2, issue 21.)"""
    if not all(isinstance(v, list) and all(type(x) is dict for x in v) for v in values):
        return None
    flat = [x for v in values for x in v]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out


def _frame_of(parts: list[dict[str, Any]]) -> pd.DataFrame:
    """``pd.concat([pd.DataFrame(c) for c in parts], ignore_index=True)``, the same frame,
    built column by column when every scenario has the same columns (a DataFrame per
    scenario cost a 1,224-scenario summary most of its time): a column of one dtype
    joined directly, a column of mixed kinds (None beside numbers) by
    :func:`_column_by_groups`."""
    keys = list(parts[0]) if parts else []
    if parts and all(list(p) == keys for p in parts[1:]):
        joined = {}
        for key in keys:
            values = [p[key] for p in parts]
            col = _column(values)
            if col is None:
                col = _column_by_groups(values)
            if col is None:
                col = _column_of_dicts(values)
            if col is None:
                break
            joined[key] = col
        else:
            return pd.DataFrame(joined)
    return pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)


def _put(cols: dict[str, Any], k: int, col: str, values: Any, hist: bool) -> None:
    """Add one metric column (k rows); scalars broadcast, hist rows become lists."""
    arr = np.asarray(values, dtype=np.float64)
    if hist:
        arr = np.atleast_2d(arr)
        if arr.shape[0] == 1 and k > 1:
            arr = np.repeat(arr, k, axis=0)
        cols[col] = [list(map(float, r)) for r in arr]
    elif arr.ndim == 1 and arr.size == k and k > 1:
        cols[col] = arr
    else:
        arr = np.atleast_1d(arr)
        cols[col] = np.full(k, arr.reshape(-1)[0]) if arr.size == 1 else arr


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


def _estimates(chosen: Sequence[Metric], parts: Mapping[int, Aggregate], rows: Sequence[int]
               ) -> dict[str, dict[int, tuple[np.ndarray, ...]]]:
    """Mean, SE, 95% interval and count of every chosen mean/probability metric of every
    scenario that has it (``[metric][scenario]``: k-row arrays, a one-row statistic
    repeated over the scenario's k rows): :func:`_interval` once per metric over all
    scenarios (elementwise, so the same bits as scenario by scenario)."""
    out: dict[str, dict[int, tuple[np.ndarray, ...]]] = {}
    for m in chosen:
        if m.kind == "hist":
            continue
        have = [s for s in range(len(rows)) if m.name in parts[s].stats]
        if not have:
            continue
        blocks = []
        for s in have:
            st = np.asarray(parts[s].stats[m.name], dtype=np.float64)
            blocks.append(np.repeat(st, rows[s], axis=0) if st.shape[0] == 1 and rows[s] > 1
                          else st)
        st = np.concatenate(blocks)
        cols = (*_interval(m.kind, st[:, 0], st[:, 1], st[:, 2]), st[:, 0].copy())
        ends = np.cumsum([b.shape[0] for b in blocks])
        out[m.name] = {s: tuple(c[e - b.shape[0]: e] for c in cols)
                       for s, b, e in zip(have, blocks, ends.tolist(), strict=True)}
    return out


def summarize(model: Model, scenarios: Sequence[Any], parts: Mapping[int, Aggregate],
              metrics: Sequence[str] | None = None, with_exact: bool = True,
              trials: int | None = None,
              exact: Sequence[Mapping[str, Any] | None] | None = None) -> pd.DataFrame:
    """Turn merged aggregates into the summary frame (see :func:`simulate`). ``exact``: the
    scenarios' exact values already computed (the chunk cache keeps them: a resume does not
    recompute them), else computed here."""
    chosen = _selected(model, metrics)
    scenarios = [scenarios[s] for s in range(len(scenarios))]
    bases = [_base_columns(model, scn) for scn in scenarios]
    estimates = _estimates(chosen, parts, [k for _, k in bases])
    frames = []
    for s, scn in enumerate(scenarios):
        agg = parts[s]
        cols, k = bases[s]
        cols["trials"] = [agg.n if trials is None else trials] * k
        if not with_exact:
            ex: Mapping[str, Any] = {}
        else:
            ex = (exact[s] if exact is not None else _exact(model, scn)) or {}
        for m in chosen:
            if m.kind == "hist":
                if m.name in agg.hists:
                    h = agg.hists[m.name].astype(np.float64)
                    _put(cols, k, m.name, h / np.maximum(h.sum(axis=1, keepdims=True), 1), True)
                if m.name in ex:
                    _put(cols, k, m.name + "_exact", ex[m.name], True)
                continue
            if m.name in agg.stats:
                for suffix, v in zip(("", "_se", "_ci_low", "_ci_high", "_n"),
                                     estimates[m.name][s], strict=True):
                    cols[m.name + suffix] = v
            if m.name in ex:
                _put(cols, k, m.name + "_exact", ex[m.name], False)
        frames.append(_blank_if_impossible(model, scn, cols, k))
    out = _frame_of(frames)
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
