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

Scenarios are ``fixed`` updated by each case, updated by each grid combination, in that
order (cases outer, grid inner, grid keys in file order), then by ``rule_overrides`` (which
``btsim run --rule NAME=VALUE`` extends).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim import options
from sim.errors import ConfigError, UserError, check_bool, check_int
from sim.models import get_model

KEYS = ("name", "title", "question", "model", "trials", "seed", "exact", "metrics", "fixed",
        "grid", "cases", "description", "rule_overrides", "report")


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
    if not isinstance(name, str) or not name or any(c in name for c in "/\\") or name[0] == ".":
        raise ConfigError("name", name, "a non-empty folder name without slashes")
    return name


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
        if not path.is_file():
            raise UserError(f"The 'experiment' file must exist; got {str(path)!r} (not found).")
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{path}: not valid TOML: {exc}") from None
        data.setdefault("name", path.stem)
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise ConfigError(unknown[0], data[unknown[0]],
                          "an experiment key: one of " + ", ".join(KEYS))
    if "model" not in data:
        raise ConfigError("model", None, "a model name (e.g. 'attack', 'heat')")
    get_model(data["model"])  # unknown model -> ConfigError
    fixed = data.get("fixed", {})
    grid = data.get("grid", {})
    cases = data.get("cases", [])
    if not isinstance(fixed, Mapping):
        raise ConfigError("fixed", fixed, "a table of parameter = value")
    if not isinstance(grid, Mapping) or not all(isinstance(v, list) and v for v in grid.values()):
        raise ConfigError("grid", grid, "a table of parameter = [non-empty list of values]")
    if not isinstance(cases, list) or not all(isinstance(c, Mapping) for c in cases):
        raise ConfigError("cases", cases, "an array of tables ([[cases]])")
    overrides = data.get("rule_overrides", {})
    if not isinstance(overrides, Mapping):
        raise ConfigError("rule_overrides", overrides, "a table of rule option = value")
    metrics = data.get("metrics")
    if metrics is not None and (not isinstance(metrics, list)
                                or not all(isinstance(m, str) for m in metrics)):
        raise ConfigError("metrics", metrics, "a list of metric names")
    report = _check_report(data.get("report", "generic"))
    return Experiment(
        name=_check_name(data.get("name", "experiment")),
        model=data["model"],
        trials=check_int("trials", data.get("trials", 100_000), lo=1),
        seed=check_int("seed", data.get("seed", 0), lo=0),
        exact=check_bool("exact", data.get("exact", True)),
        title=str(data.get("title", "")),
        question=str(data.get("question", "")),
        description=str(data.get("description", "")),
        metrics=metrics,
        report=report,
        fixed=dict(fixed),
        grid={k: list(v) for k, v in grid.items()},
        cases=[dict(c) for c in cases],
        source=where,
        rule_overrides=options.check_overrides(data["model"], overrides),
    )


def with_rule_overrides(exp: Experiment, overrides: Mapping[str, Any] | None) -> Experiment:
    """A copy of ``exp`` whose every scenario also takes ``overrides`` (rule option name ->
    value or text), validated against the options of the experiment's model; ``exp`` itself
    is unchanged."""
    if not overrides:
        return exp
    extra = options.check_overrides(exp.model, overrides)
    return dataclasses.replace(exp, rule_overrides={**exp.rule_overrides, **extra})


def run(experiment: str | os.PathLike[str] | Mapping[str, Any] | Experiment, *,
        trials: int | None = None, seed: int | None = None, n_jobs: int = 1,
        backend: str = "loky", scheduler: str | None = None, chunk_size: int | None = None,
        exact_only: bool = False, out: str | os.PathLike[str] | None = None,
        progress: bool | None = None,
        rule_overrides: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Run an experiment and return its summary DataFrame.

    ``trials`` and ``seed`` override the file; ``rule_overrides`` (rule option name -> value)
    applies to every scenario, after the file's own (see ``btsim rules``). With ``exact_only`` no Monte Carlo runs: the
    frame holds the exact values. With ``out`` (a results folder, e.g. ``"results"``) the
    summary is written to ``out/<name>/`` atomically (see :mod:`sim.results`).
    """
    from sim import engine, results

    exp = experiment if isinstance(experiment, Experiment) else load(experiment)
    if trials is not None or seed is not None:  # a copy: the caller's experiment is unchanged
        exp = dataclasses.replace(
            exp, trials=exp.trials if trials is None else check_int("trials", trials, lo=1),
            seed=exp.seed if seed is None else check_int("seed", seed, lo=0))
    exp = with_rule_overrides(exp, rule_overrides)
    model = get_model(exp.model)
    params = exp.scenarios()
    tr, sd, jobs, be, chunk = engine.validate_run(exp.trials, exp.seed, n_jobs, backend,
                                                  chunk_size)
    if exact_only and scheduler:
        raise ConfigError("scheduler", scheduler, "used only by Monte Carlo runs, not with --exact")
    if exact_only:
        frame, wall = engine.timed(engine.exact_frame, model, params, metrics=exp.metrics)
    else:
        frame, wall = engine.timed(engine.simulate, model, params, tr, sd, n_jobs=jobs,
                                   backend=be, chunk_size=chunk, progress=progress,
                                   scheduler=scheduler, metrics=exp.metrics,
                                   with_exact=exp.exact)
    if out is not None:
        meta = results.metadata(exp, model=model, frame=frame, wall_time_s=wall,
                                backend=be, n_jobs=jobs, chunk_size=chunk,
                                exact_only=exact_only, scheduler=scheduler)
        results.write(Path(out) / exp.name, frame, meta)
    return frame


def validate_all(experiments: Sequence[Experiment]) -> None:
    """Check a batch before running any of it: unique names, and every scenario's parameters
    (so a typo in the last file fails before the first file's results are written)."""
    names = [e.name for e in experiments]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError("name", dup[0], "unique across the experiments of one run")
    for exp in experiments:
        model = get_model(exp.model)
        for params in exp.scenarios():
            model.scenario(params)
