"""Views of the compiled scenario's tables (numba).

The scenario travels as two flat arrays ``M = (MI, MF)`` (ints, floats): a 2-array tuple is
cheap to pass between compiled functions, where a tuple of ~70 arrays costs ~1 us per call in
reference counting. ``MI[0]`` is the number of tables; table ``k``'s header is
``MI[1 + 6k : 7 + 6k]`` = (offset into MI or MF, up to five dimensions). ``vN`` / ``fN``
return table ``k`` as an N-dimensional int / float view (no copy)."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

HEAD = 6


@intrinsic
def unmanaged(typingctx: object, arr: types.Type) -> object:
    """An alias of ``arr`` (same data, shape and strides) without its reference count (a
    null meminfo), so the views and calls made from it do no atomic increments: measured,
    those took about two thirds of the turn loop's time (issue 21). The alias is valid
    only while ``arr`` itself is alive: :func:`sim.classic.engine.turn.run_list` keeps the
    owners until its loop is done. Same numba type, so no new specialisation."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context: object, builder: object, signature: object, args: object) -> object:
        src = context.make_array(arr)(context, builder, value=args[0])  # type: ignore[attr-defined]
        out = context.make_array(arr)(context, builder)  # type: ignore[attr-defined]
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        out.parent = cgutils.get_null_value(out.parent.type)
        out.nitems = src.nitems
        out.itemsize = src.itemsize
        out.data = src.data
        out.shape = src.shape
        out.strides = src.strides
        return out._getvalue()

    return arr(arr), codegen


@njit(cache=True, inline="always")
def v1(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    return MI[o:o + MI[h + 1]]


@njit(cache=True, inline="always")
def v2(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b = MI[h + 1], MI[h + 2]
    return MI[o:o + a * b].reshape((a, b))


@njit(cache=True, inline="always")
def v3(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c = MI[h + 1], MI[h + 2], MI[h + 3]
    return MI[o:o + a * b * c].reshape((a, b, c))


@njit(cache=True, inline="always")
def v4(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c, d = MI[h + 1], MI[h + 2], MI[h + 3], MI[h + 4]
    return MI[o:o + a * b * c * d].reshape((a, b, c, d))


@njit(cache=True, inline="always")
def v5(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b, c, d, e = MI[h + 1], MI[h + 2], MI[h + 3], MI[h + 4], MI[h + 5]
    return MI[o:o + a * b * c * d * e].reshape((a, b, c, d, e))


@njit(cache=True, inline="always")
def f1(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    return M[1][o:o + MI[h + 1]]


@njit(cache=True, inline="always")
def f2(M: tuple, k: int) -> np.ndarray:
    MI = M[0]
    h = 1 + HEAD * k
    o = MI[h]
    a, b = MI[h + 1], MI[h + 2]
    return M[1][o:o + a * b].reshape((a, b))


@njit(cache=True, inline="always")
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

@njit(cache=True, inline="always")
def dim(M: tuple, k: int, d: int) -> int:
    """Dimension ``d`` of table ``k``."""
    return M[0][2 + HEAD * k + d]


@njit(cache=True, inline="always")
def a1(M: tuple, k: int, i: int) -> int:
    MI = M[0]
    return MI[MI[1 + HEAD * k] + i]


@njit(cache=True, inline="always")
def a2(M: tuple, k: int, i: int, j: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + i * MI[h + 2] + j]


@njit(cache=True, inline="always")
def a3(M: tuple, k: int, i: int, j: int, m: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + (i * MI[h + 2] + j) * MI[h + 3] + m]


@njit(cache=True, inline="always")
def a4(M: tuple, k: int, i: int, j: int, m: int, n: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + ((i * MI[h + 2] + j) * MI[h + 3] + m) * MI[h + 4] + n]


@njit(cache=True, inline="always")
def a5(M: tuple, k: int, i: int, j: int, m: int, n: int, o: int) -> int:
    MI = M[0]
    h = 1 + HEAD * k
    return MI[MI[h] + (((i * MI[h + 2] + j) * MI[h + 3] + m) * MI[h + 4] + n) * MI[h + 5]
              + o]


@njit(cache=True, inline="always")
def b1(M: tuple, k: int, i: int) -> float:
    return M[1][M[0][1 + HEAD * k] + i]


@njit(cache=True, inline="always")
def b2(M: tuple, k: int, i: int, j: int) -> float:
    MI = M[0]
    h = 1 + HEAD * k
    return M[1][MI[h] + i * MI[h + 2] + j]


@njit(cache=True, inline="always")
def b3(M: tuple, k: int, i: int, j: int, m: int) -> float:
    MI = M[0]
    h = 1 + HEAD * k
    return M[1][MI[h] + (i * MI[h + 2] + j) * MI[h + 3] + m]
