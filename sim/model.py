"""The model contract: what every simulated rule set provides to the engine.

A model turns validated parameters into a *scenario* and answers two questions about it:

* :meth:`Model.sample` -- draw ``n`` trials from a ``numpy.random.Generator`` with a
  vectorized kernel and return an :class:`~sim.aggregate.Aggregate` (never per-trial data);
* :meth:`Model.exact` -- the exact value of every metric that has one, computed by
  enumerating the dice distributions (or a Markov chain), under the same metric names.

The engine (:mod:`sim.engine`) runs ``sample`` over chunks and workers and puts both side by
side in one tidy DataFrame. Models register themselves in :mod:`sim.models`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate

MetricKind = Literal["probability", "mean", "hist"]


@dataclass(frozen=True)
class Metric:
    """One output metric.

    ``kind``: ``probability`` (mean of a 0/1 indicator: Wilson interval), ``mean`` (mean of a
    number: normal interval) or ``hist`` (a distribution over 0..bins-1, stored as a list of
    probabilities). ``per_row=False`` marks a metric with one value per scenario even when the
    scenario has several rows (e.g. the expected turn of first shutdown of a heat run).
    """

    name: str
    description: str
    kind: MetricKind = "mean"
    unit: str = ""
    exact: bool = True
    per_row: bool = True


@dataclass(frozen=True)
class BenchCase:
    """A kernel the benchmark measures: model parameters and an optional scalar oracle.

    ``scalar(params, rng, n)`` runs the same rules one trial at a time in plain Python (the
    oracle the tests also use); the benchmark times it side by side with the kernel.
    ``per_trial`` is how many ``unit`` items one trial holds (a 20-turn heat run is 20
    unit-turns); the benchmark reports rates in ``unit`` per second.
    """

    label: str
    params: Mapping[str, Any]
    scalar: Callable[[Mapping[str, Any], np.random.Generator, int], Any] | None = None
    unit: str = "trials"
    per_trial: int = 1


@dataclass
class Model:
    """Base class for models. Subclasses override the methods below."""

    name: str = ""
    description: str = ""
    metrics: tuple[Metric, ...] = ()
    bench_cases: tuple[BenchCase, ...] = field(default_factory=tuple)

    def scenario(self, params: Mapping[str, Any]) -> Any:
        """Validate ``params`` (unknown keys included) and return a scenario object.

        Raise :class:`sim.errors.ConfigError` naming the field, the value and what is allowed.
        """
        raise NotImplementedError

    def params(self, scenario: Any) -> dict[str, Any]:
        """The normalized parameters as flat JSON-able scalars (columns of the summary)."""
        raise NotImplementedError

    def rows(self, scenario: Any) -> pd.DataFrame | None:
        """Index columns when one scenario yields several rows (e.g. ``turn``); else None."""
        return None

    def facts(self, scenario: Any) -> dict[str, Any]:
        """Deterministic per-scenario columns (``target_number``, ``impossible``, rule set...)."""
        return {}

    def sample(self, scenario: Any, rng: np.random.Generator, n: int) -> Aggregate:
        """Run ``n`` vectorized trials and return their aggregate."""
        raise NotImplementedError

    def exact(self, scenario: Any) -> dict[str, np.ndarray] | None:
        """Exact metric values: name -> array of shape (rows,) or (rows, bins) for hists."""
        return None

    def metric(self, name: str) -> Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)
