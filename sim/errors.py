"""Error types. A :class:`UserError` is bad input: the CLI prints its message on one line
of stderr and exits with status 2, without a traceback. So does any :class:`OSError` (a
read-only or full disk, a file where a folder should be, an unreadable file): the CLI prints
:func:`os_error_message` for it, naming the path and the reason."""

from __future__ import annotations

import errno
import os
from typing import Any

#: at most this many characters of a bad value are echoed in a message
ECHO_LIMIT = 100


def shown(value: Any, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters (``...`` marks the cut), on one line:
    what an error message quotes of a value."""
    text = repr(value)
    if len(text) <= limit:
        return text
    close = text[-1] if text[-1] in "'\")]}" else ""  # keep a quote or bracket closed
    return text[: limit - 3 - len(close)] + "..." + close


def path_text(path: Any) -> str:
    """A path as an error message shows it: quoted, bytes that are not UTF-8 as ``\\xff``,
    control characters escaped, cut to :data:`ECHO_LIMIT` characters."""
    try:
        raw = os.fsencode(path) if isinstance(path, str | bytes | os.PathLike) else None
    except (TypeError, ValueError):
        raw = None
    text = (str(path) if raw is None else raw.decode("utf-8", "backslashreplace"))
    text = "".join(c if c.isprintable() or c == "\\" else repr(c)[1:-1] for c in text)
    return f"'{text}'" if len(text) <= ECHO_LIMIT - 2 else f"'{text[: ECHO_LIMIT - 5]}...'"


def some(names: Any, limit: int = 12) -> str:
    """``a, b, c`` for a list of allowed names, or its first ones and the count when long."""
    names = [str(n) for n in names]
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[: limit - 2]) + f", ... ({len(names)} in all)"


#: errno -> a plainer reason than strerror's, where one helps
_REASONS = {
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on the device (disk full)",
    errno.EDQUOT: "disk quota exceeded",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOTDIR: "a path component is not a folder",
    errno.EISDIR: "is a folder, not a file",
    errno.ENAMETOOLONG: "path or file name too long",
    errno.ENOENT: "no such file or folder",
    errno.EEXIST: "already exists",
    errno.ENOTEMPTY: "folder not empty",
}


def os_error_message(exc: OSError) -> str:
    """One line for an operating-system error: the path(s) it concerns and the reason, e.g.
    ``'results/x': read-only file system [Errno 30]``."""
    reason = _REASONS.get(exc.errno or -1) or exc.strerror or str(exc) or type(exc).__name__
    if exc.errno == errno.EEXIST and exc.filename is not None \
            and not os.path.isdir(exc.filename):  # a folder was wanted where a file is
        reason = "exists and is not a folder"
    if exc.errno:
        reason += f" [Errno {exc.errno}]"
    paths = [p for p in (exc.filename, getattr(exc, "filename2", None)) if p is not None]
    where = " -> ".join(path_text(p) for p in paths)
    return f"{where}: {reason}" if where else f"{reason}"


class UserError(Exception):
    """Bad input from a user (an option, an experiment file, a unit file)."""

    exit_code = 2


class ConfigError(UserError, ValueError):
    """A parameter outside its allowed values.

    The message always names the field, the bad value and what is allowed, in the
    scikit-learn style: ``The 'tons' parameter must be a multiple of 5 in [20, 100]; got 73.``
    """

    def __init__(self, field: str, value: Any, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"The {field!r} parameter must be {allowed}; got {shown(value)}.")


def check_int(field: str, value: Any, lo: int | None = None, hi: int | None = None,
              multiple: int | None = None) -> int:
    """Validate an integer parameter, returning it as ``int``; raise :class:`ConfigError`."""
    rng = ""
    if lo is not None and hi is not None:
        rng = f" in [{lo}, {hi}]"
    elif lo is not None:
        rng = f" >= {lo}"
    elif hi is not None:
        rng = f" <= {hi}"
    allowed = (f"a multiple of {multiple}{rng}" if multiple else f"an integer{rng}")
    if isinstance(value, bool):
        raise ConfigError(field, value, allowed)
    try:
        iv = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: inf
        raise ConfigError(field, value, allowed) from None
    if isinstance(value, float) and iv != value:
        raise ConfigError(field, value, allowed)
    if isinstance(value, str) and value.strip() != str(iv):
        raise ConfigError(field, value, allowed)
    if (lo is not None and iv < lo) or (hi is not None and iv > hi) or (multiple and iv % multiple):
        raise ConfigError(field, value, allowed)
    return iv


def check_choice(field: str, value: Any, choices: tuple[str, ...] | list[str]) -> str:
    """Validate a string parameter against a fixed set of choices."""
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(field, value, "one of " + ", ".join(repr(c) for c in choices))
    return value


def check_bool(field: str, value: Any) -> bool:
    """Validate a boolean parameter (TOML/JSON booleans only)."""
    if not isinstance(value, bool | int) or value not in (0, 1):
        raise ConfigError(field, value, "true or false")
    return bool(value)
