"""Views of the compiled scenario's tables (numba).

The scenario travels as two flat arrays ``M = (MI, MF)`` (ints, floats): a 2-array tuple is
cheap to pass between compiled functions, where a tuple of ~70 arrays costs ~1 us per call in
reference counting. ``MI[0]`` is the number of tables; table ``k``'s header is
``MI[1 + 6k : 7 + 6k]`` = (offset into MI or MF, up to five dimensions). ``vN`` / ``fN``
return table ``k`` as an N-dimensional int / float view (no copy)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils, config
from numba.extending import intrinsic

HEAD = 6


def _one_signature_per_function() -> None:
    """Compile each engine function once, for plain argument types (issue 21, cold compile).

    numba types a constant argument (``group_on_column(Y, M, y, 0, d, D)``, ``psr_phase(...,
    True, D)``) as a literal and compiles the callee once per constant: 2-4 specialisations
    of the largest functions (``roll_location`` three times, 6 s of a 60 s cold compile).
    For the functions of :mod:`sim.classic.engine` only, calls from compiled code are typed
    with the literals widened (``types.unliteral``); a literal still converts to the one
    plain signature, so every call site compiles unchanged and computes the same."""
    from numba.core.registry import CPUDispatcher

    if getattr(CPUDispatcher, "_btsim_unliteral", False):
        return
    base = CPUDispatcher.get_call_template

    def get_call_template(self: Any, args: Any, kws: Any) -> Any:
        if self.py_func.__module__.startswith("sim.classic.engine."):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return base(self, args, kws)

    setattr(CPUDispatcher, "get_call_template", get_call_template)  # noqa: B010
    setattr(CPUDispatcher, "_btsim_unliteral", True)  # noqa: B010


_one_signature_per_function()


def _alias(typingctx: Any, arr: Any) -> Any:
    """numba typing and code of :data:`unmanaged`."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        out.parent = cgutils.get_null_value(out.parent.type)
        out.nitems = src.nitems
        out.itemsize = src.itemsize
        out.data = src.data
        out.shape = src.shape
        out.strides = src.strides
        return out._getvalue()

    return arr(arr), codegen


def _same(arr: Any) -> Any:
    return arr


#: ``unmanaged(arr)`` (compiled code only): an alias of ``arr`` (same data, shape and
#: strides) without its reference count (a null meminfo), so the views and calls made from it
#: do no atomic increments: measured, those took about two thirds of the turn loop's time
#: (issue 21). The alias is valid only while ``arr`` itself is alive:
#: :func:`sim.classic.engine.turn.run_list` keeps the owners until its loop is done. Same
#: numba type, so no new specialisation. With ``NUMBA_DISABLE_JIT`` the array itself.
unmanaged: Any = _same if getattr(config, "DISABLE_JIT", 0) else intrinsic(_alias)


@njit(cache=True)
def v1(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    return MI[o:o + MI[h + 1]]


@njit(cache=True)
def v2(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b = MI[h + 1], MI[h + 2]
    return MI[o:o + a * b].reshape((a, b))


@njit(cache=True)
def v3(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c = MI[h + 1], MI[h + 2], MI[h + 3]
    return MI[o:o + a * b * c].reshape((a, b, c))


@njit(cache=True)
def v4(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c, d = MI[h + 1], MI[h + 2], MI[h + 3], MI[h + 4]
    return MI[o:o + a * b * c * d].reshape((a, b, c, d))


@njit(cache=True)
def v5(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c, d, e = MI[h + 1], MI[h + 2], MI[h + 3], MI[h + 4], MI[h + 5]
    return MI[o:o + a * b * c * d * e].reshape((a, b, c, d, e))


@njit(cache=True)
def f1(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    return M[1][o:o + MI[h + 1]]


@njit(cache=True)
def f2(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b = MI[h + 1], MI[h + 2]
    return M[1][o:o + a * b].reshape((a, b))


@njit(cache=True)
def f3(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c = MI[h + 1], MI[h + 2], MI[h + 3]
    return M[1][o:o + a * b * c].reshape((a, b, c))


def pack(parts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``(MI, MF)`` holding ``parts`` (int64 or float64 arrays of at most 5 dimensions)."""
    head = 1 + HEAD * len(parts)
    ints: list[np.ndarray] = [np.zeros(head, np.int64)]
    floats: list[np.ndarray] = [np.zeros(1)]
    io, fo = head, 1
    for k, p in enumerate(parts):
        h = 1 + HEAD * k
        shape = list(p.shape) + [1] * (5 - p.ndim)
        ints[0][h + 1:h + 6] = shape
        if p.dtype.kind == "f":
            ints[0][h] = fo
            floats.append(np.ascontiguousarray(p, np.float64).ravel())
            fo += p.size
        else:
            ints[0][h] = io
            ints.append(np.ascontiguousarray(p, np.int64).ravel())
            io += p.size
    ints[0][0] = len(parts)
    return np.concatenate(ints), np.concatenate(floats)


# -- scalar accessors (no view made): table k's element -------------------------------------

@njit(cache=True)
def dim(M: tuple, k: int, d: int) -> int:
    """Dimension ``d`` of table ``k``."""
    return M[0][2 + HEAD * k + d]


@njit(cache=True)
def a1(M: tuple, k: int, i: int) -> int:
    MI = M[0]
    return MI[MI[1 + HEAD * k] + i]


@njit(cache=True)
def a2(M: tuple, k: int, i: int, j: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + i * MI[h + 2] + j]


@njit(cache=True)
def a3(M: tuple, k: int, i: int, j: int, m: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + (i * MI[h + 2] + j) * MI[h + 3] + m]


@njit(cache=True)
def a4(M: tuple, k: int, i: int, j: int, m: int, n: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + ((i * MI[h + 2] + j) * MI[h + 3] + m) * MI[h + 4] + n]


@njit(cache=True)
def a5(M: tuple, k: int, i: int, j: int, m: int, n: int, o: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + (((i * MI[h + 2] + j) * MI[h + 3] + m) * MI[h + 4] + n) * MI[h + 5]
              + o]


@njit(cache=True)
def b1(M: tuple, k: int, i: int) -> float:
    return M[1][M[0][1 + HEAD * k] + i]


@njit(cache=True)
def b2(M: tuple, k: int, i: int, j: int) -> float:
    MI = M[0]
    h = 1 + HEAD * k
    return M[1][MI[h] + i * MI[h + 2] + j]


@njit(cache=True)
def b3(M: tuple, k: int, i: int, j: int, m: int) -> float:
    MI = M[0]
    h = 1 + HEAD * k
    return M[1][MI[h] + (i * MI[h + 2] + j) * MI[h + 3] + m]
