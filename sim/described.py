"""What a run's summary reads of a finished scenario, kept so a resume need not build it.

A finished scenario (every chunk of a fixed-trials run folded) is described by a
:class:`Described`: its normalized parameters, row-index columns, facts, notes, effective
rule options and rule-set entries (what :func:`sim.engine.summarize`, the results metadata
and the CSV layout read of it), its cache key and its folded aggregate. The chunk cache
(:mod:`sim.cache`, ``scenarios.rec``) stores one per scenario as its last chunk lands, so a
resumed run reads the finished scenarios back instead of building them, keying and
reloading their chunks (issue 18: a resume costs the unfinished share of the work).

A description is stored only when it reads back exactly: :func:`encode` refuses any value
JSON would not give back with the same type and bits (:func:`plain`: a tuple, a NumPy
scalar, an int dict key; a row column of objects that are not plain values; the tests
check with :func:`same`, which compares types, key order, float bits). Such a scenario is
simply built again on a resume. So a summary made from descriptions is the
frame made from the scenarios themselves, byte for byte.

The engine's summary code reads a scenario only through :func:`params_of`, :func:`rows_of`,
:func:`facts_of`, :func:`notes_of` and :func:`options_of`, which take a built scenario or a
:class:`Described` alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.aggregate import Aggregate


@dataclass
class Described:
    """A finished scenario as the summary reads it (module docstring)."""

    params: dict[str, Any]
    #: row-index columns (name -> 1-D array) when the scenario has several rows, else None
    rows: dict[str, np.ndarray] | None
    row_count: int
    facts: dict[str, Any]
    notes: list[str]
    #: ``jsonable(model.options(scn))``
    options: dict[str, Any]
    #: :func:`sim.options.scenario_rule_sets`: ``[[key, entry], ...]``
    rule_entries: list[list[Any]]
    #: the scenario's chunk-cache key (:meth:`sim.cache.ChunkCache.bind`)
    key: str
    #: the scenario's chunks folded in chunk order
    total: Aggregate


def params_of(model: Any, scn: Any) -> dict[str, Any]:
    return scn.params if isinstance(scn, Described) else model.params(scn)


def rows_of(model: Any, scn: Any) -> tuple[dict[str, np.ndarray] | None, int]:
    """The row-index columns (name -> array, None for a one-row scenario) and row count."""
    if isinstance(scn, Described):
        return scn.rows, scn.row_count
    rows = model.rows(scn)
    if rows is None:
        return None, 1
    return {str(c): rows[c].to_numpy() for c in rows.columns}, len(rows)


def row_count(model: Any, scn: Any) -> int:
    if isinstance(scn, Described):
        return scn.row_count
    rows = model.rows(scn)
    return 1 if rows is None else len(rows)


def facts_of(model: Any, scn: Any) -> dict[str, Any]:
    return scn.facts if isinstance(scn, Described) else model.facts(scn)


def notes_of(model: Any, scn: Any) -> list[str]:
    return scn.notes if isinstance(scn, Described) else model.notes(scn)


def options_of(model: Any, scn: Any) -> dict[str, Any]:
    """``jsonable(model.options(scn))``."""
    if isinstance(scn, Described):
        return scn.options
    from sim.result import jsonable

    out: dict[str, Any] = jsonable(model.options(scn))
    return out


def describe(model: Any, scn: Any, key: str, total: Aggregate) -> Described:
    """The description of built scenario ``scn`` (cache key ``key``, folded ``total``)."""
    from sim.options import scenario_rule_sets

    rows, k = rows_of(model, scn)
    return Described(params=model.params(scn), rows=rows, row_count=k,
                     facts=model.facts(scn), notes=model.notes(scn),
                     options=options_of(model, scn),
                     rule_entries=scenario_rule_sets(model, scn), key=key, total=total)


# -- exact JSON ---------------------------------------------------------------------------------
def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same value of the same types throughout (dict key
    order, float bits and the sign of zero included; arrays: dtype, shape and bytes)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a)
                                                     == math.copysign(1, b))
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype == object:
            return all(same(x, y) for x, y in zip(a.tolist(), b.tolist(), strict=True))
        return a.tobytes() == b.tobytes()
    if isinstance(a, str | int | bool) or a is None:
        return bool(a == b)
    return False


def plain(x: Any) -> bool:
    """Whether JSON gives ``x`` back as it is: None, and values of exactly the types str,
    int, bool, float (NaN, infinities and -0.0 included: Python writes them back), list,
    and dict with str keys, all the way down (a tuple, a NumPy scalar, an int key: no)."""
    t = type(x)
    if t is str or t is int or t is float or t is bool or x is None:
        return True
    if t is list:
        return all(plain(v) for v in x)
    if t is dict:
        return all(type(k) is str and plain(v) for k, v in x.items())
    return False


def _array_json(a: np.ndarray) -> list[Any]:
    """A row column as ``[dtype, values]`` (ValueError for one JSON would not give back)."""
    values = a.tolist()
    if a.ndim != 1 or not (a.dtype.kind in "biuf" or (
            a.dtype == object and all(type(v) is not list and type(v) is not dict
                                      and plain(v) for v in values))):
        raise ValueError("a row column that is not a 1-D array of numbers or plain values")
    return [a.dtype.str, values]


def _array_back(spec: list[Any]) -> np.ndarray:
    dtype, values = spec
    if dtype == "|O":
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.array(values, dtype=np.dtype(dtype))


def encode(d: Described) -> dict[str, Any] | None:
    """``d`` (without its aggregate) as a JSON-able dict whose JSON text :func:`decode`
    reads back :func:`same` to ``d``, or None when it would not (a value that is not
    :func:`plain`, a row column that is not numbers or plain values)."""
    fields = (d.params, d.facts, d.notes, d.options, d.rule_entries)
    if not all(plain(v) for v in fields) or type(d.key) is not str:
        return None
    try:
        rows = None if d.rows is None else [[c, *_array_json(v)] for c, v in d.rows.items()]
    except ValueError:
        return None
    if d.rows is not None and not all(type(c) is str and len(v) == d.row_count
                                      for c, v in d.rows.items()):
        return None
    return {"params": d.params, "facts": d.facts, "notes": d.notes, "options": d.options,
            "rule_entries": d.rule_entries, "key": d.key, "row_count": int(d.row_count),
            "rows": rows}


def decode(doc: Mapping[str, Any], total: Aggregate) -> Described:
    """The :class:`Described` of an :func:`encode` dict (KeyError/TypeError/ValueError when
    it is not one)."""
    rows = doc["rows"]
    if not isinstance(doc["params"], dict) or not isinstance(doc["facts"], dict) \
            or not isinstance(doc["options"], dict) or not isinstance(doc["notes"], list) \
            or not isinstance(doc["rule_entries"], list):
        raise ValueError("not a scenario description")
    k = int(doc["row_count"])
    cols = None if rows is None else {str(c): _array_back([t, v]) for c, t, v in rows}
    if k < 1 or (cols is not None and any(len(v) != k for v in cols.values())):
        raise ValueError("a scenario description with inconsistent rows")
    return Described(params=doc["params"], rows=cols, row_count=k, facts=doc["facts"],
                     notes=doc["notes"], options=doc["options"],
                     rule_entries=doc["rule_entries"], key=str(doc["key"]), total=total)


class Scenarios(Sequence[Any]):
    """The scenarios of a run, each built on first use (``model.scenario(params)``), so a
    resume builds only those it computes; ``built`` (index -> scenario) are those a
    validation already built."""

    def __init__(self, model: Any, params_list: Sequence[Mapping[str, Any]],
                 built: Mapping[int, Any] | None = None) -> None:
        self.model = model
        self.params_list = params_list
        self._built: dict[int, Any] = dict(built or {})

    def __len__(self) -> int:
        return len(self.params_list)

    def __getitem__(self, s: Any) -> Any:
        if isinstance(s, slice):
            return [self[i] for i in range(*s.indices(len(self)))]
        s = int(s)
        if s < 0:
            s += len(self)
        if s not in self._built:
            self._built[s] = self.model.scenario(self.params_list[s])
        return self._built[s]

    def built(self) -> int:
        """How many scenarios have been built."""
        return len(self._built)


class Views(Sequence[Any]):
    """Scenario ``s`` as the summary reads it: its :class:`Described` where there is one,
    else the scenario itself (built on use)."""

    def __init__(self, scenarios: Sequence[Any], described: Mapping[int, Described]) -> None:
        self.scenarios = scenarios
        self.described = described

    def __len__(self) -> int:
        return len(self.scenarios)

    def __getitem__(self, s: Any) -> Any:
        if isinstance(s, slice):
            return [self[i] for i in range(*s.indices(len(self)))]
        got = self.described.get(int(s))
        return got if got is not None else self.scenarios[s]
