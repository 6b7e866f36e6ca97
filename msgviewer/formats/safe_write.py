"""Writing a file so that no failure, signal or kill leaves it half written.

A regular file is written to a temporary file beside it, flushed to disk and renamed over it:
the target is always either its old self or entirely the new data. The temporary file gets the
target's owner and mode (a new file: the umask's); a symlink's target is replaced and the link
kept. A target that is not a regular file (a FIFO, a terminal, ``/dev/null``, ``/dev/stdout``),
and anything under ``/dev`` or ``/proc``, is written through, as the shell's ``>`` does: no
rename could keep it what it is. A read-only file is refused, as ``>`` refuses it.

Temporary files are named ``.NAME.msgviewer-tmp-PID-RANDOM``. SIGTERM and SIGHUP remove the
ones being written, then end the process as the signal asks; a killed process's ones (kill -9,
a crash, a power cut) are removed at the next write to the same target: those whose process is
gone, or that nothing has written to for an hour (a save in progress in another process writes
to its file until its rename, and its process is alive).

Every failure is a ``WriteError`` saying what and where, never a bare ``OSError``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator, Sequence

from ..core.errors import WriteError

__all__ = [
    "TEMP_TAG",
    "Data",
    "WriteError",
    "clean_up_on_signals",
    "remove_stale_temps",
    "write_file",
]

TEMP_TAG = "msgviewer-tmp"
"""What marks a temporary file as msgviewer's: ``.NAME.msgviewer-tmp-PID-RANDOM``."""

STALE_AFTER = 3600.0
"""Seconds without a write after which a temporary file of a live process is stale too (its
process id may have been reused by an unrelated process)."""

_CHUNK = 1 << 23  # written in pieces: a signal's handler runs between them
_RANDOM = re.compile(r"([0-9]+)-[0-9a-f]{8}")
_NEVER_REPLACED = ("/dev/", "/proc/")

Data = bytes | Sequence[bytes | memoryview]
"""What is written: bytes, or pieces written one after the other (a file spliced from the
bytes it held and a few new ones is written without first being joined into one copy)."""

Check = Callable[[], None]
"""Called once the new data is on disk, just before it replaces the target: raises to keep
the target as it is (a document's "changed on disk since it was read")."""


def write_file(path: str | os.PathLike[str], data: Data, *, check: Check | None = None) -> None:
    """Write ``data`` to ``path`` as described in the module doc; ``check`` runs just before
    the rename (or before writing, for a target written through)."""
    name = os.fspath(path)
    if not name:
        raise WriteError("cannot write: no file name")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _error(exc, name) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise WriteError("cannot write: is a directory", file=name)
    real = _replaceable(name, info)
    if real is None:
        _write_through(name, data, check)
        return
    if info is not None and not os.access(real, os.W_OK):
        raise WriteError("cannot write: the file is read-only (permission denied)", file=name)
    try:
        _replace(real, data, info, check)
    except OSError as exc:
        raise _error(exc, name) from None


def _replaceable(name: str, info: os.stat_result | None) -> str | None:
    """The path of the regular file to replace (a symlink's target), or None: write through."""
    if info is not None and not stat.S_ISREG(info.st_mode):
        return None  # a FIFO, a device, a socket
    real = os.path.realpath(name)
    absolute = os.path.abspath(name)
    if any(p.startswith(_NEVER_REPLACED) for p in (absolute, real)):
        return None  # /dev/stdout of a redirected process, /proc/self/fd/N...
    if info is not None:
        try:
            same = os.path.samestat(os.stat(real), info)
        except OSError:
            same = False
        if not same:
            return None  # a link the kernel resolves its own way: only writing through is safe
    return real


def _write_through(name: str, data: Data, check: Check | None) -> None:
    """Open, truncate and write, as ``>`` does (a FIFO waits here for its reader)."""
    if check is not None:
        check()
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise _error(exc, name) from None
    try:
        _write_all(fd, data)
    except BrokenPipeError:
        raise  # the reader went away: as for standard output, not an error of the data
    except OSError as exc:
        raise _error(exc, name) from None
    finally:
        os.close(fd)


def _replace(real: str, data: Data, info: os.stat_result | None, check: Check | None) -> None:
    directory, base = os.path.split(real)
    directory = directory or "."
    remove_stale_temps(real)
    tmp = os.path.join(directory, f".{base}.{TEMP_TAG}-{os.getpid()}-{secrets.token_hex(4)}")
    with _signals_clean_up():
        _pending.add(tmp)  # before it exists: no moment when a signal would leave it behind
        try:
            # A new file gets 0o666 less the umask, as from ``>``; a replacement gets the
            # mode of the file it replaces, set below once its owner is.
            fd = os.open(
                tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600 if info else 0o666
            )
            try:
                if info is not None and not _keep_owner_and_mode(fd, info):
                    os.close(fd)
                    fd = -1
                    _discard(tmp)
                    # Only the owner's own process (or root) gives a new file its owner: the
                    # file is written in place instead, as ``>`` would, keeping whose it is.
                    _write_through(real, data, check)
                    return
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                if fd >= 0:
                    os.close(fd)
            if check is not None:
                check()
            os.replace(tmp, real)
            _pending.discard(tmp)
        except BaseException:
            _discard(tmp)
            raise
    _sync_directory(directory)


def _keep_owner_and_mode(fd: int, info: os.stat_result) -> bool:
    """Give the new file the old one's owner, group and mode; False if the owner cannot be."""
    try:
        if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            os.fchown(fd, info.st_uid, info.st_gid)  # (before the mode: it clears set-id bits)
    except PermissionError:
        return False
    os.fchmod(fd, stat.S_IMODE(info.st_mode))
    return True


def _write_all(fd: int, data: Data) -> None:
    for piece in (data,) if isinstance(data, bytes) else data:
        with memoryview(piece) as view:
            done = 0
            while done < len(view):
                done += os.write(fd, view[done : done + _CHUNK])


def _sync_directory(directory: str) -> None:
    """The rename on disk too (best effort: some file systems cannot open a directory)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _discard(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    _pending.discard(tmp)


def _error(exc: OSError, name: str) -> WriteError:
    """An OSError said in one line, naming the file (or the directory) it concerns."""
    if isinstance(exc, WriteError):
        return exc
    directory = os.path.dirname(os.path.abspath(name))
    code = exc.errno
    if code == errno.ENOENT:
        what = f"no such directory: {os.path.dirname(name) or '.'}"
    elif code == errno.ENOTDIR:
        what = "a part of the path is not a directory"
    elif code in (errno.EACCES, errno.EPERM) and exc.filename != name:
        what = f"permission denied in the directory {directory}"
    else:
        what = (exc.strerror or str(exc)).lower()
    return WriteError(f"cannot write: {what}", file=name)


# -- temporary files left by a process that was killed --------------------------------------


def remove_stale_temps(target: str | os.PathLike[str]) -> list[str]:
    """Remove the temporary files msgviewer left beside ``target`` (by their name) whose
    process is gone or that were not written for ``STALE_AFTER``; the paths removed."""
    real = os.fspath(target)
    directory, base = os.path.split(real)
    prefix = f".{base}.{TEMP_TAG}-"
    removed = []
    try:
        entries = [e for e in os.scandir(directory or ".") if e.name.startswith(prefix)]
    except OSError:
        return removed  # the write that follows says what is wrong with the directory
    now = time.time()
    for entry in entries:
        match = _RANDOM.fullmatch(entry.name[len(prefix) :])
        if match is None or entry.path in _pending:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if _alive(int(match[1])) and now - info.st_mtime < STALE_AFTER:
            continue  # another save, in progress
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(entry.path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process: alive
    return True


# -- signals -------------------------------------------------------------------------------

_pending: set[str] = set()
"""Temporary files being written, in any thread. (No lock: a signal's handler runs in the main
thread, maybe while it holds one; a set's add, discard and copy are atomic.)"""

_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))
_previous: dict[int, object] = {}


def clean_up_on_signals() -> None:
    """From now on, SIGTERM and SIGHUP remove the temporary files being written before the
    process ends as they ask. For a program that writes from other threads (the app): a write
    in the main thread sets this up for its own duration. An ignored signal stays ignored."""
    for sig in _SIGNALS:
        current = signal.getsignal(sig)
        if current in (_on_signal, signal.SIG_IGN, None):
            continue
        _previous[sig] = current
        signal.signal(sig, _on_signal)


@contextlib.contextmanager
def _signals_clean_up() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread sets handlers: the program did (clean_up_on_signals)
        return
    installed = {s: signal.getsignal(s) for s in _SIGNALS}
    clean_up_on_signals()
    try:
        yield
    finally:
        for sig, handler in installed.items():
            if signal.getsignal(sig) is _on_signal and handler is not _on_signal:
                signal.signal(sig, handler)  # type: ignore[arg-type]
                _previous.pop(sig, None)


def _on_signal(signum: int, frame: object) -> None:
    for tmp in list(_pending):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
        return
    # The signal's own action now: the process ends as it would have without this handler.
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
