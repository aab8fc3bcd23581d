"""Reading the files a user names (experiments, ``--state``, unit files) safely.

Every reader of a user's file goes through :func:`read_regular_bytes` or
:func:`read_regular_text`: the path is opened without blocking and refused unless it is a
regular file (a FIFO or a device would block forever or never end; a folder is not a file),
no larger than a limit, and, for text, valid UTF-8 without NUL bytes. Each refusal is a
:class:`sim.errors.UserError` naming the option and the path; an operating-system error
(missing, unreadable) stays an :class:`OSError`, which the CLI reports with the path and the
reason (:func:`sim.errors.os_error_message`)."""

from __future__ import annotations

import os
import stat

from sim.errors import UserError, path_text

#: the largest file read as an experiment, a state or a unit file (bytes); real ones are a
#: few kB
MAX_FILE_BYTES = 16 * 2**20

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def check_regular(path: str | os.PathLike[str], option: str) -> None:
    """UserError unless ``path`` is a regular file (following links); OSError when it cannot
    be examined (e.g. missing). Does not open it, so it never blocks."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"{option} {path_text(path)}: {_kind(st.st_mode)}, not a regular file")


def read_regular_bytes(path: str | os.PathLike[str], option: str,
                       limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``. UserError naming ``option`` for anything that
    is not a regular file or is larger than ``limit`` bytes (checked on the opened file, so a
    FIFO swapped in between cannot block); OSError for a file that cannot be opened."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{option} {path_text(path)}: {_kind(st.st_mode)}, not a "
                            "regular file")
        if st.st_size > limit:
            raise UserError(f"{option} {path_text(path)}: {st.st_size:,} bytes, more than "
                            f"the {limit:,} a file btsim reads may have")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:  # grew while read
        raise UserError(f"{option} {path_text(path)}: more than {limit:,} bytes")
    return data


def read_regular_text(path: str | os.PathLike[str], option: str, *,
                      what: str = "text", limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (a leading byte-order mark is dropped).
    UserError naming ``option`` for a file that is not regular, too large, binary (NUL bytes)
    or not UTF-8 (saying where the first bad byte is); ``what`` names the expected content
    in the message (``"TOML"``)."""
    data = read_regular_bytes(path, option, limit)
    if b"\0" in data:
        raise UserError(f"{option} {path_text(path)}: a binary file (NUL bytes), not {what}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 1].hex()
        line = data.count(b"\n", 0, exc.start) + 1
        raise UserError(f"{option} {path_text(path)}: not UTF-8 {what} (byte 0x{bad} on line "
                        f"{line}); save it as UTF-8") from None
    return text.removeprefix("\ufeff")

