"""Experiments: a TOML file (or dict) naming a model, a grid of parameters, trials and seed.

Format::

    name = "physical_damage"        # results go to results/<name>/
    title = "Expected damage of every physical attack"
    question = "Which physical attack deals the most damage for its risk?"
    model = "attack"
    trials = 40000                  # Monte Carlo trials per scenario
    seed = 1
    exact = true                    # also compute exact values (columns <metric>_exact)
    metrics = ["p_hit", "expected_damage"]   # optional subset of the model's metrics
    report = "physical-damage"      # the report section that shows it (default "generic");
                                    # one module in sim/report/sections/ per section

    [fixed]                         # parameters shared by every scenario
    target_tons = 50

    [grid]                          # every combination becomes a scenario
    tons = [20, 50, 100]
    piloting = [4, 5]

    [[cases]]                       # optional explicit rows, each crossed with the grid
    attack = "punch"
    [[cases]]
    attack = "charge"
    hexes = 5

    [rule_overrides]                # optional rule options for every scenario (btsim rules)
    dfa_rounding = "ceil-then-times-3"

    tactic_matrices = { pairings = 3, trials = 2000 }   # models duel and classic-duel
                                    # (issue 22): the tactic matrices of the most/least
                                    # surprising pairings (sim.tactic_report; optional keys
                                    # tactics = [...], ranges = [...])

Precision keys (README "Precision")::

    target_error = 0.005            # stop each scenario when every 95% CI half-width <= this
    target_metric = ["p_hit"]       # optional: only these metrics (default: every non-hist)
    max_trials = 10_000_000         # optional cap with target_error (default 2**26)
    paired = ["piloting"]           # grid axes whose scenarios share their dice
    baseline = {piloting = 4}       # optional: the value each paired axis is compared with
                                    # (default: its first value); rows gain m_diff, m_diff_se,
                                    # m_diff_ci_low, m_diff_ci_high

Scenarios are ``fixed`` updated by each case, updated by each grid combination, in that
order (cases outer, grid inner, grid keys in file order), then by ``rule_overrides`` (which
``btsim run --rule NAME=VALUE`` extends).

Limits (each refused with one line naming the key): at most :data:`MAX_SCENARIOS` scenarios
(cases x grid, counted before any is built), a ``name`` of at most :data:`MAX_NAME_CHARS`
printable characters (it names a folder), text keys that are strings, ``trials`` and
``seed`` written as numbers, a non-empty ``metrics`` list of the model's metric names, and a
file that is a regular UTF-8 TOML file (:mod:`sim.fileio`) nested at most
:data:`MAX_DEPTH` levels deep.
"""

from __future__ import annotations

import dataclasses
import difflib
import itertools
import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim import options
from sim.errors import ConfigError, UserError, check_bool, check_int, path_text, some
from sim.fileio import read_regular_text
from sim.models import MODULES, get_model

if TYPE_CHECKING:
    import pandas as pd

KEYS = ("name", "title", "question", "model", "trials", "seed", "exact", "metrics", "fixed",
        "grid", "cases", "description", "rule_overrides", "report", "tactic_matrices")
#: precision keys (stop at a target error; paired axes)
PRECISION_KEYS = ("target_error", "target_metric", "max_trials", "paired", "baseline")
#: the most scenarios (cases x grid) one experiment may have; the default suite's largest has
#: 4,332 (a grid of ~10**6 would take minutes and gigabytes just to validate)
MAX_SCENARIOS = 50_000
#: the longest experiment ``name`` (it names the results folder)
MAX_NAME_CHARS = 100
#: the deepest nesting of tables and arrays an experiment file may have (real ones: 3)
MAX_DEPTH = 20


@dataclass
class Experiment:
    """A parsed, validated experiment."""

    name: str
    model: str
    trials: int = 100_000
    seed: int = 0
    exact: bool = True
    title: str = ""
    question: str = ""
    description: str = ""
    metrics: list[str] | None = None
    report: str = "generic"
    fixed: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    cases: list[dict[str, Any]] = field(default_factory=list)
    source: str | None = None
    #: rule options applied to every scenario, last (validated for the model's game)
    rule_overrides: dict[str, Any] = field(default_factory=dict)
    #: stop each scenario when every chosen metric's 95% CI half-width is at most this
    target_error: float | None = None
    target_metric: list[str] | None = None
    max_trials: int | None = None
    #: grid axes whose scenarios share their random streams, and the baseline value of each
    paired: list[str] = field(default_factory=list)
    baseline: dict[str, Any] = field(default_factory=dict)
    #: the duel round-robin's tactic matrices of its most and least surprising pairings,
    #: computed after the grid and kept in the metadata (sim.tactic_report)
    tactic_matrices: dict[str, Any] | None = None

    def streams(self) -> tuple[list[int], dict[int, int]]:
        """Each scenario's random stream and, for a paired experiment, scenario -> baseline.

        Without ``paired`` the stream is the scenario index (no pairs). With it, the stream
        is the index of the scenario with the paired axes removed (cases outer, the other
        grid axes inner, in file order), so scenarios differing only along paired axes share
        their dice chunk by chunk; each is compared with the one whose paired axes hold the
        ``baseline`` values."""
        n = len(self.scenarios())
        if not self.paired:
            return list(range(n)), {}
        keys = list(self.grid)
        free = [k for k in keys if k not in self.paired]
        combos = list(itertools.product(*(self.grid[k] for k in keys))) or [()]
        sub = {c: i for i, c in enumerate(itertools.product(*(range(len(self.grid[k]))
                                                              for k in free)))}
        base = {k: self.grid[k].index(self.baseline[k]) if k in self.baseline else 0
                for k in self.paired}
        index = {}
        streams = []
        pos = 0
        for ci in range(len(self.cases or [{}])):
            for combo in itertools.product(*(range(len(self.grid[k])) for k in keys)):
                named = dict(zip(keys, combo, strict=True))
                stream = ci * len(sub) + sub[tuple(named[k] for k in free)]
                streams.append(stream)
                index[(ci, combo)] = pos
                pos += 1
        pairs = {}
        for (ci, combo), s in index.items():
            named = dict(zip(keys, combo, strict=True)) | base
            b = index[(ci, tuple(named[k] for k in keys))]
            if b != s:
                pairs[s] = b
        assert pos == n and len(combos) * len(self.cases or [{}]) == n
        return streams, pairs

    def scenarios(self) -> list[dict[str, Any]]:
        """Expand fixed x cases x grid into a list of parameter dicts."""
        keys = list(self.grid)
        combos = list(itertools.product(*(self.grid[k] for k in keys))) or [()]
        out = []
        for case in self.cases or [{}]:
            for combo in combos:
                p = dict(self.fixed)
                p.update(case)
                p.update(zip(keys, combo, strict=True))
                p.update(self.rule_overrides)
                out.append(p)
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_name(name: Any) -> str:
    allowed = (f"a folder name: 1-{MAX_NAME_CHARS} printable characters, no slashes, not "
               "starting with '.'")
    if (not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS
            or any(c in name for c in "/\\") or name[0] == "." or not name.isprintable()
            or name != name.strip()):
        raise ConfigError("name", name, allowed)
    return name


def _check_text(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(key, value, "a string")
    return value


def _check_count(key: str, value: Any, default: int) -> int:
    """``trials`` / ``seed``: a number (TOML integer, or a float with an integer value),
    never a string."""
    if isinstance(value, str):
        raise ConfigError(key, value, "a number written without quotes (an integer >= "
                          f"{1 if key == 'trials' else 0})")
    return check_int(key, default if value is None else value, lo=1 if key == "trials" else 0,
                     hi=_max_trials() if key == "trials" else None)


def _depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests tables and arrays (stops counting past ``limit``)."""
    if limit < 0 or not isinstance(value, Mapping | list):
        return 0
    items = value.values() if isinstance(value, Mapping) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def scenario_count(grid: Mapping[str, Any], cases: Any) -> int:
    """How many scenarios ``grid`` x ``cases`` gives, without building them."""
    n = max(len(cases), 1) if isinstance(cases, list) else 1
    for values in grid.values():
        n *= len(values) if isinstance(values, list) else 1
    return n


def _check_report(value: Any) -> str:
    """The experiment's ``report`` key: a registered report section (ConfigError otherwise)."""
    from sim.report.registry import check_name

    return check_name(value)


def load(source: str | os.PathLike[str] | Mapping[str, Any]) -> Experiment:
    """Read and validate an experiment from a TOML path or a dict."""
    where: str | None = None
    if isinstance(source, Mapping):
        data = dict(source)
    else:
        path = Path(source)
        where = str(path)
        given = os.fspath(source)  # as written (Path() folds 'a//b' into 'a/b')
        if not path.exists():
            raise UserError(f"The 'experiment' file must exist; got {path_text(given)} "
                            "(not found).")
        text = read_regular_text(given, "experiment", what="TOML")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{path_text(path)}: not valid TOML: {exc}") from None
        except RecursionError:
            raise UserError(f"{path_text(path)}: not a usable experiment: tables or arrays "
                            f"nested more than {MAX_DEPTH} deep") from None
        data.setdefault("name", path.stem)
    if _depth(data, MAX_DEPTH + 1) > MAX_DEPTH:
        raise UserError(f"{path_text(where or 'experiment')}: not a usable experiment: tables "
                        f"or arrays nested more than {MAX_DEPTH} deep")
    if "kind" in data:  # another kind of experiment (issue 23: a rating)
        if data["kind"] != "rating":
            raise ConfigError("kind", data["kind"], "'rating' (or no kind: a model run)")
        from sim.rating.experiment import load as load_rating

        return load_rating(data, where)
    unknown = [k for k in data if k not in KEYS + PRECISION_KEYS]
    if unknown:
        raise ConfigError(unknown[0], data[unknown[0]],
                          "an experiment key: one of " + ", ".join(KEYS + PRECISION_KEYS))
    if "model" not in data:
        raise ConfigError("model", None, "a model name (e.g. 'attack', 'heat')")
    if not isinstance(data["model"], str):
        raise ConfigError("model", data["model"], "a model name: one of "
                          + ", ".join(repr(m) for m in MODULES))
    model = get_model(data["model"])  # unknown model -> ConfigError
    name = _check_name(data.get("name", "experiment"))
    texts = {k: _check_text(k, data.get(k, "")) for k in ("title", "question", "description")}
    fixed = data.get("fixed", {})
    grid = data.get("grid", {})
    cases = data.get("cases", [])
    if not isinstance(fixed, Mapping):
        raise ConfigError("fixed", fixed, "a table of parameter = value")
    if not isinstance(grid, Mapping) or not all(isinstance(v, list) and v for v in grid.values()):
        raise ConfigError("grid", grid, "a table of parameter = [non-empty list of values]")
    if not isinstance(cases, list) or not all(isinstance(c, Mapping) for c in cases):
        raise ConfigError("cases", cases, "an array of tables ([[cases]])")
    count = scenario_count(grid, cases)
    if count > MAX_SCENARIOS:
        raise ConfigError("grid", f"{count:,} scenarios (cases x grid)",
                          f"at most {MAX_SCENARIOS:,} scenarios per experiment: split it "
                          "into several experiments")
    overrides = data.get("rule_overrides", {})
    if not isinstance(overrides, Mapping):
        raise ConfigError("rule_overrides", overrides, "a table of rule option = value")
    metrics = data.get("metrics")
    known = [m.name for m in model.metrics]
    if metrics is not None and (not isinstance(metrics, list) or not metrics
                                or not all(isinstance(m, str) for m in metrics)):
        raise ConfigError("metrics", metrics, "a non-empty list of metric names of model "
                          f"{model.name!r}: " + some(known))
    for m in metrics or []:
        if m not in known:
            near = difflib.get_close_matches(m, known, n=3)
            raise ConfigError("metrics", m, f"a metric of model {model.name!r}: "
                              + (f"did you mean {', '.join(near)}? " if near else "")
                              + some(known))
    report = _check_report(data.get("report", "generic"))
    precision = _precision_keys(data, grid)
    tmat = None
    if "tactic_matrices" in data:
        from sim.tactic_report import check as check_tmat

        rng = [part["range"] for part in (fixed, *cases) if "range" in part]
        tmat = check_tmat(data["tactic_matrices"], data["model"],
                          [*rng, *grid.get("range", [])])
    return Experiment(
        **precision,
        name=name,
        model=data["model"],
        trials=_check_count("trials", data.get("trials"), 100_000),
        seed=_check_count("seed", data.get("seed"), 0),
        exact=check_bool("exact", data.get("exact", True)),
        title=texts["title"],
        question=texts["question"],
        description=texts["description"],
        metrics=metrics,
        report=report,
        fixed=dict(fixed),
        grid={k: list(v) for k, v in grid.items()},
        cases=[dict(c) for c in cases],
        source=where,
        rule_overrides=options.check_overrides(data["model"], overrides),
        tactic_matrices=tmat,
    )


def _max_trials() -> int:
    from sim.engine import MAX_TRIALS

    return MAX_TRIALS


def _precision_keys(data: Mapping[str, Any], grid: Mapping[str, list[Any]]) -> dict[str, Any]:
    """Validate ``target_error``, ``target_metric``, ``max_trials``, ``paired`` and
    ``baseline`` (one line naming the key on error)."""
    from sim import engine

    model = get_model(data["model"])
    prec = engine.check_precision(model, data.get("target_error"), data.get("target_metric"),
                                  data.get("max_trials"))
    paired = data.get("paired", [])
    if isinstance(paired, str):
        paired = [paired]
    if not isinstance(paired, list) or not all(isinstance(k, str) and k in grid for k in paired):
        raise ConfigError("paired", paired, "a list of grid axes (keys of [grid]): "
                          + ", ".join(grid))
    baseline = data.get("baseline", {})
    if not isinstance(baseline, Mapping):
        raise ConfigError("baseline", baseline, "a table of paired axis = value")
    for k, v in baseline.items():
        if k not in paired:
            raise ConfigError("baseline", k, "a paired axis: " + ", ".join(paired))
        if v not in grid[k]:
            raise ConfigError(f"baseline.{k}", v, "one of the grid values "
                              + ", ".join(map(repr, grid[k])))
    out: dict[str, Any] = {"paired": list(paired), "baseline": dict(baseline)}
    if prec is not None:
        out.update(target_error=prec.target_error,
                   target_metric=None if prec.metrics is None else list(prec.metrics),
                   max_trials=data.get("max_trials"))
    return out


def precision_of(exp: Experiment) -> Any:
    """The experiment's :class:`sim.engine.Precision` (None without ``target_error``)."""
    from sim import engine

    return engine.check_precision(get_model(exp.model), exp.target_error, exp.target_metric,
                                  exp.max_trials)


def with_rule_overrides(exp: Experiment, overrides: Mapping[str, Any] | None) -> Experiment:
    """A copy of ``exp`` whose every scenario also takes ``overrides`` (rule option name ->
    value or text), validated against the options of the experiment's model; ``exp`` itself
    is unchanged."""
    if not overrides:
        return exp
    extra = options.check_overrides(exp.model, overrides)
    return dataclasses.replace(exp, rule_overrides={**exp.rule_overrides, **extra})


def run(experiment: str | os.PathLike[str] | Mapping[str, Any] | Experiment,
        **kwargs: Any) -> pd.DataFrame:
    """Run an experiment (:func:`_run`, whose docstring follows). With ``out``, one process at
    a time writes its results folder (:func:`sim.results.lock`; a second one waits and says
    who holds it), and what an earlier, killed write of it left is removed first.
    ``rerun_key`` (``btsim run``: :func:`sim.results.rerun_key` of its command) is stamped
    beside the run key of a computed result, so the same command's rerun is recognised
    before anything heavy is imported (:func:`sim.results.finished`); it changes no number."""
    rerun = kwargs.pop("rerun_key", None)
    out = kwargs.get("out")
    if out is None:
        return _run(experiment, **kwargs)
    from sim import results

    exp = experiment if isinstance(experiment, Experiment) else load(experiment)
    check_scheduler(kwargs.get("scheduler"), kwargs.get("backend"))  # before the folder
    folder = Path(out) / exp.name
    key = _run_key(exp, kwargs)
    with results.lock(folder):
        results.clean_leftovers(folder)
        meta = results.up_to_date(folder, key) if kwargs.get("cache", True) else None
        if meta is not None:  # a finished rerun: read the result instead of recomputing
            info = kwargs.get("info")
            if info is not None:
                stats = meta.get("cache") or {}
                info.update(chunks_computed=0, tasks_computed=0, up_to_date=True,
                            chunks_cached=int(stats.get("chunks_computed", 0))
                            + int(stats.get("chunks_cached", 0)))
            return results.read(folder)[0]
        frame = _run(exp, **kwargs)
        if kwargs.get("cache", True):
            results.stamp(folder, key, rerun=rerun, rows=len(frame),
                          scenarios=len(exp.scenarios()) if rerun is not None else None)
        return frame


#: arguments of :func:`run` that never change its numbers (left out of its run key)
_NOT_IN_KEY = ("out", "progress", "info", "n_jobs", "backend", "scheduler")


def _run_key(exp: Experiment, kwargs: Mapping[str, Any]) -> str:
    from sim import results

    settings = {k: v for k, v in sorted(kwargs.items()) if k not in _NOT_IN_KEY}
    settings["model_version"] = str(get_model(exp.model).version)
    return results.run_key(exp.to_dict(), settings)


def up_to_date(experiment: Experiment, **kwargs: Any) -> bool:
    """Whether ``run(experiment, **kwargs)`` would only read its finished result back
    (:func:`sim.results.up_to_date`); ``btsim run`` then skips validating it again."""
    from sim import results

    if kwargs.get("out") is None or not kwargs.get("cache", True):
        return False
    return results.up_to_date(Path(kwargs["out"]) / experiment.name,
                              _run_key(experiment, kwargs)) is not None


def _run(experiment: str | os.PathLike[str] | Mapping[str, Any] | Experiment, *,
        trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
        backend: str = "loky", scheduler: str | None = None, chunk_size: int | None = None,
        exact_only: bool = False, out: str | os.PathLike[str] | None = None,
        progress: bool | None = None,
        rule_overrides: Mapping[str, Any] | None = None,
        target_error: float | None = None, target_metric: str | Sequence[str] | None = None,
        max_trials: int | None = None, cache: bool = True,
        info: dict[str, Any] | None = None) -> pd.DataFrame:
    """Run an experiment and return its summary DataFrame.

    ``trials`` and ``seed`` override the file; ``rule_overrides`` (rule option name -> value)
    applies to every scenario, after the file's own (see ``btsim rules``). With
    ``exact_only`` no Monte Carlo runs: the frame holds the exact values. With ``out`` (a
    results folder, e.g. ``"results"``) the summary is written to ``out/<name>/`` atomically
    (see :mod:`sim.results`), and finished chunks are cached in ``out/<name>/.cache/`` as
    the run goes (``cache=False``: none), so the same call resumes an interrupted run and
    extends a finished one (:mod:`sim.cache`).

    ``target_error``/``target_metric``/``max_trials`` override the file's precision keys
    (:class:`sim.engine.Precision`). ``info``: a dict that receives ``chunks_computed``,
    ``chunks_cached``, ``tasks_computed`` and (with a cache) ``cache_seconds`` and
    ``scenarios_described`` (finished scenarios read back, :mod:`sim.described`).
    """
    from sim import engine, results
    from sim.cache import CACHE_DIR, ChunkCache

    exp = experiment if isinstance(experiment, Experiment) else load(experiment)
    if getattr(exp, "kind", "") == "rating":  # sim.rating.experiment: its own run
        return exp.run(out=out, seed=seed, n_jobs=n_jobs, backend=backend,  # type: ignore[attr-defined]
                       scheduler=scheduler, target_error=target_error, max_trials=max_trials,
                       cache=cache, progress=progress, trials=trials, chunk_size=chunk_size,
                       exact_only=exact_only)
    if trials is not None or seed is not None:  # a copy: the caller's experiment is unchanged
        exp = dataclasses.replace(
            exp, trials=exp.trials if trials is None else check_int("trials", trials, lo=1),
            seed=exp.seed if seed is None else check_int("seed", seed, lo=0))
    if target_error is not None or target_metric is not None or max_trials is not None:
        names = [target_metric] if isinstance(target_metric, str) else target_metric
        exp = dataclasses.replace(
            exp, target_error=exp.target_error if target_error is None else target_error,
            target_metric=exp.target_metric if names is None else list(names),
            max_trials=exp.max_trials if max_trials is None else max_trials)
    exp = with_rule_overrides(exp, rule_overrides)
    scheduler = check_scheduler(scheduler, backend)
    model = get_model(exp.model)
    params = exp.scenarios()
    precision = precision_of(exp)
    tr, sd, jobs, be, chunk = engine.validate_run(exp.trials, exp.seed, n_jobs, backend,
                                                  chunk_size, model)
    if exact_only and scheduler:
        raise ConfigError("scheduler", scheduler, "used only by Monte Carlo runs, not with --exact")
    outcome: list[engine.RunOutcome] = []
    store = None
    scenarios = _built(model, exp.model, params)  # each built on first use
    if exact_only:
        frame, wall = engine.timed(engine.exact_frame, model, params, metrics=exp.metrics)
    else:
        streams, pairs = exp.streams()
        store = ChunkCache(Path(out) / exp.name / CACHE_DIR) if (
            out is not None and cache) else None
        frame, wall = engine.timed(engine.simulate, model, params, tr, sd, n_jobs=jobs,
                                   backend=be, chunk_size=chunk, progress=progress,
                                   scheduler=scheduler, metrics=exp.metrics,
                                   with_exact=exp.exact, precision=precision,
                                   streams=streams if exp.paired else None,
                                   pairs=pairs or None, cache=store, outcome=outcome,
                                   scenarios=scenarios)
    stats: dict[str, Any] = {}
    views: Sequence[Any] = scenarios
    if outcome:
        res = outcome[0]
        views = res.views if res.views is not None else scenarios
        stats = {"chunks_computed": res.chunks_computed, "chunks_cached": res.chunks_cached,
                 "tasks_computed": res.tasks_computed}
        if store is not None:
            stats["cache_seconds"] = round(store.seconds, 6)
            # finished scenarios read back from scenarios.rec (nothing of them rebuilt)
            stats["scenarios_described"] = store.described_read
    if info is not None:
        info.update(stats)
    if out is not None:
        meta = results.metadata(exp, model=model, frame=frame, wall_time_s=wall,
                                backend=be, n_jobs=jobs, chunk_size=chunk,
                                exact_only=exact_only, scheduler=scheduler,
                                scenarios=views)
        if outcome:
            meta["precision"] = precision_metadata(exp, outcome[0])
            meta["cache"] = stats
        if exp.tactic_matrices:  # issue 22: once per run, read by the report section
            from sim.tactic_report import matrices

            meta["tactic_matrices"] = matrices(frame, exp.tactic_matrices, exp.seed, params,
                                               exp.model)
        results.write(Path(out) / exp.name, frame, meta,
                      csv_layout=results.csv_layout(model, params, frame, views))
    return frame


#: a Dask scheduler address: [SCHEME://]HOST[:PORT] (what ``dask.distributed.Client`` takes)
_SCHEDULER = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]"
                        r"[A-Za-z0-9.\-_]*)(?::(\d{1,5}))?/?|inproc://[A-Za-z0-9.\-_/]+")


def check_scheduler(scheduler: Any, backend: Any) -> str | None:
    """``--scheduler``: None, or with ``backend`` ``"dask"`` a well-formed scheduler address
    (ConfigError otherwise: a malformed address, or one that would be ignored)."""
    if scheduler is None:
        return None
    allowed = ("a Dask scheduler address [tcp|tls|ws|wss|ucx://]HOST[:PORT] such as "
               "tcp://10.0.0.5:8786")
    if not isinstance(scheduler, str):
        raise ConfigError("scheduler", scheduler, allowed)
    if backend != "dask":
        raise ConfigError("scheduler", scheduler, "given only with --backend dask (backend "
                          f"{backend!r} would ignore it)")
    m = _SCHEDULER.fullmatch(scheduler)
    if m is None or (m.group(1) is not None and not 0 < int(m.group(1)) < 65536):
        raise ConfigError("scheduler", scheduler, allowed)
    return scheduler


def precision_metadata(exp: Experiment, res: Any) -> dict[str, Any]:
    """What a results folder records of the precision settings and their outcome."""
    out: dict[str, Any] = {"target_error": exp.target_error,
                           "target_metric": exp.target_metric,
                           "max_trials": exp.max_trials, "paired": exp.paired,
                           "baseline": exp.baseline,
                           "trials_used": [res.trials_used[s] for s in sorted(res.trials_used)]}
    if res.target_reached is not None:
        missed = [s for s, ok in sorted(res.target_reached.items()) if not ok]
        out["target_missed"] = missed
        out["target_summary"] = (
            f"target error {exp.target_error} reached in {len(res.target_reached) - len(missed)}"
            f" of {len(res.target_reached)} scenarios"
            + (f"; max trials reached first in scenarios {missed}" if missed else ""))
    return out


#: scenarios :func:`validate_all` built (index -> scenario), by model and parameters, for
#: the run that follows (:func:`_built` takes each list once: a run builds a scenario once)
_VALIDATED: dict[tuple[str, str], dict[int, Any]] = {}


def _params_key(model: str, params_list: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    return model, json.dumps(list(params_list), sort_keys=True, default=repr)


def _remember(model: str, params_list: Sequence[Mapping[str, Any]],
              built: dict[int, Any]) -> None:
    _VALIDATED[_params_key(model, params_list)] = built


def _built(model: Any, name: str, params_list: Sequence[Mapping[str, Any]]) -> Any:
    """The scenarios of ``params_list`` (:class:`sim.described.Scenarios`: each built on
    first use), with those :func:`validate_all` built for it."""
    from sim.described import Scenarios

    got = _VALIDATED.pop(_params_key(name, params_list), None) if _VALIDATED else None
    return Scenarios(model, params_list, got)


def _finished_scenarios(exp: Experiment, settings: Mapping[str, Any]) -> set[int]:
    """The scenarios of ``exp`` that its run with ``settings`` (:func:`run`'s keywords) will
    read back finished from its cache (:meth:`sim.cache.ChunkCache.described`): built and
    validated by an earlier run of the same code and parameters, so not validated again.
    Reads only."""
    from sim import engine
    from sim.cache import CACHE_DIR, SCENARIOS_NAME, ChunkCache

    out = settings.get("out")
    if out is None or not settings.get("cache", True) or settings.get("exact_only"):
        return set()
    if any(settings.get(k) is not None for k in ("target_error", "target_metric",
                                                 "max_trials")):
        return set()
    if exp.target_error is not None or settings.get("rule_overrides"):
        return set()
    root = Path(out) / exp.name / CACHE_DIR
    if not os.path.isfile(root / SCENARIOS_NAME):
        return set()
    model = get_model(exp.model)
    trials = exp.trials if settings.get("trials") is None else settings["trials"]
    seed = exp.seed if settings.get("seed") is None else settings["seed"]
    try:
        tr, sd, _, _, chunk = engine.validate_run(trials, seed, 1, "sequential",
                                                  settings.get("chunk_size"), model)
    except UserError:  # the run reports it
        return set()
    streams, pairs = exp.streams()
    involved = set(pairs) | set(pairs.values())
    params_list = exp.scenarios()
    try:
        found = ChunkCache(root, quiet=True).described(
            model, params_list, sd, chunk, streams if exp.paired else None, tr,
            eligible=[s for s in range(len(params_list)) if s not in involved], write=False,
            keys_only=True)
    except (UserError, OSError):  # the run reports it
        return set()
    return set(found)


def validate_all(experiments: Sequence[Experiment], **settings: Any) -> None:
    """Check a batch before running any of it: unique names, and every scenario's parameters
    (so a typo in the last file fails before the first file's results are written).
    ``settings``: the keywords of the :func:`run` that follows; a scenario its cache
    describes as finished (built by an earlier run of the same code) is not built again."""
    names = [e.name for e in experiments]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError("name", dup[0], "unique across the experiments of one run")
    for exp in experiments:
        if getattr(exp, "kind", "") == "rating":
            exp.validate()  # type: ignore[attr-defined]
            continue
        model = get_model(exp.model)
        params_list = exp.scenarios()
        skip = _finished_scenarios(exp, settings) if settings else set()
        _remember(exp.model, params_list, {s: model.scenario(p)
                                           for s, p in enumerate(params_list)
                                           if s not in skip})
