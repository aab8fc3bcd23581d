"""The one result type of the Python API: every ``sim.*`` call returns a :class:`Result`.

* ``.frame``: a pandas DataFrame, one row per scenario row (the engine's summary layout:
  parameters, facts, ``metric``, ``metric_se``, ``metric_exact`` ...);
* ``.to_dict()``: the JSON view, exactly what the CLI's ``--json`` prints (NaN as None);
* ``.metadata``: model, params, effective rule options, mode (``exact`` / ``monte-carlo``),
  trials, seed, chunk size, jobs, btsim version;
* ``.notes``: every note a user needs to trust the numbers (also in ``to_dict()["notes"]``
  where the JSON contract has room, and in ``metadata["notes"]``).

For backwards compatibility a result still answers the way the old return values did:
``res["p_hit"]`` reads the dict view of ``sim.attack`` (it returned a dict), and
``res["turn"]``, ``res.iloc[0]``, ``len(res)`` reach the frame of ``sim.heat``/``sim.run``
(they returned DataFrames).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd


def jsonable(x: Any) -> Any:
    """Plain JSON values: NaN -> None, numpy scalars and arrays -> Python numbers and lists."""
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float):
        return None if math.isnan(x) else x
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple | np.ndarray):
        return [jsonable(v) for v in x]
    return x


_SUFFIXES = ("se", "ci_low", "ci_high", "n", "exact")


def _varies(col: pd.Series) -> bool:
    try:
        return bool(col.nunique(dropna=False) > 1)
    except TypeError:  # unhashable cells (histograms)
        return False


@dataclass(eq=False)
class Result:
    """A scenario's (or an experiment's) results; see the module docstring."""

    frame: pd.DataFrame
    metadata: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: the model's own dict view (the ``--json`` document before NaN -> None); None for
    #: results whose JSON view is the generic one (metadata, notes and the frame's rows)
    data: dict[str, Any] | None = None
    #: where ``res[key]`` looks: ``data`` (``sim.attack`` returned a dict) or ``frame``
    legacy: Literal["data", "frame"] = "frame"

    # -- views ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON view (what ``--json`` prints): strict JSON values, NaN as None."""
        if self.data is not None:
            out = jsonable(self.data)
            if isinstance(out.get("rule_options"), str):  # the frame keeps it as JSON text
                out["rule_options"] = json.loads(out["rule_options"])
            return dict(out)
        return {"metadata": jsonable(self.metadata), "notes": list(self.notes),
                "rows": jsonable(self.frame.to_dict(orient="records"))}

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    @property
    def mode(self) -> str:
        """``exact`` or ``monte-carlo``."""
        return str(self.metadata.get("mode", ""))

    # -- comparison and backwards compatibility --------------------------------------------
    def __eq__(self, other: object) -> bool:
        """Same numbers: equal dict views (``sim.attack``) or equal frames and notes. The
        metadata (jobs, backend) is not compared: it does not change the numbers."""
        if isinstance(other, dict):
            return self.data is not None and self.data == other
        if not isinstance(other, Result):
            return NotImplemented
        if self.data is not None or other.data is not None:
            return self.data == other.data
        return bool(self.frame.equals(other.frame)) and self.notes == other.notes

    __hash__ = None  # type: ignore[assignment]

    def _target(self) -> Any:
        return self.data if self.legacy == "data" and self.data is not None else self.frame

    def __getitem__(self, key: Any) -> Any:
        return self._target()[key]

    def __contains__(self, key: Any) -> bool:
        return key in self._target()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._target())

    def __len__(self) -> int:
        return len(self._target())

    def get(self, key: Any, default: Any = None) -> Any:
        """``dict.get`` / ``DataFrame.get`` on the legacy view."""
        return self._target().get(key, default)

    def keys(self) -> Any:
        """Keys of the legacy view (dict keys, or the frame's columns)."""
        return self._target().keys()

    def __getattr__(self, name: str) -> Any:
        # only reached for names a Result lacks: DataFrame methods (iloc, columns...) of the
        # frame, so code written when sim.heat/sim.run returned a DataFrame keeps working
        if name.startswith("_") or name in ("frame", "metadata", "notes", "data", "legacy"):
            raise AttributeError(name)
        return getattr(self.frame, name)

    # -- display ------------------------------------------------------------------------------
    def _headline(self) -> str:
        meta = self.metadata
        bits = [f"model {meta.get('model', '?')}", str(meta.get("mode", ""))]
        if meta.get("mode") == "monte-carlo":
            bits.append(f"{meta.get('trials')} trials, seed {meta.get('seed')}, "
                        f"chunk {meta.get('chunk_size')}")
        return "Result(" + ", ".join(b for b in bits if b) + f", {len(self.frame)} row(s))"

    def _metric_view(self) -> pd.DataFrame | pd.Series:
        """What a notebook shows: a one-row result as a column of its metric values (mean,
        standard error, exact where present), a longer one as its frame."""
        kinds: dict[str, str] = dict(self.frame.attrs.get("metric_kinds", {}))
        if not kinds:
            return self.frame
        if len(self.frame) != 1:  # the columns that vary (row index, scenario) and the means
            cols = [c for c in self.frame.columns if c in kinds and kinds[c] != "hist"
                    or c not in kinds and _varies(self.frame[c])]
            return self.frame[[c for c in cols if not any(
                c.startswith(m + "_") and c != m and c[len(m) + 1:] in _SUFFIXES
                for m in kinds)]]
        row = self.frame.iloc[0]
        table = {name: {col: row[name + suffix] for col, suffix in
                        (("value", ""), ("se", "_se"), ("exact", "_exact"))
                        if name + suffix in row.index}
                 for name, kind in kinds.items() if kind != "hist" and name in row.index}
        return pd.DataFrame.from_dict(table, orient="index")

    def __repr__(self) -> str:
        lines = [self._headline()]
        lines += [f"note: {n}" for n in self.notes]
        with pd.option_context("display.max_columns", 12, "display.width", 120,
                               "display.max_rows", 60):
            lines.append(repr(self._metric_view()))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in self.notes)
        return (f"<div><p><b>{html.escape(self._headline())}</b></p>"
                + (f"<ul>{notes}</ul>" if notes else "")
                + self._metric_view().to_html(max_rows=60, max_cols=20) + "</div>")
