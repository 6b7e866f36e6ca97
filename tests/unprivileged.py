"""Running a piece of a test as an ordinary user: a read-only file or directory refuses an
ordinary user's write, not root's, and the suite may run as root (in a container)."""

from __future__ import annotations

import os
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

NOBODY = 65534


def as_ordinary_user(fn: Callable[[], object]) -> str:
    """``fn()`` run as an ordinary user: what it returned as text (``"ok"`` for None), or the
    type and text of what it raised.

    As root, in a forked child that gives up root first (the interpreter's modules are already
    loaded: nothing under root's own directories need be read again)."""
    if os.geteuid() != 0:
        return _outcome(fn)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test
        os.close(read)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            text = _outcome(fn)
        except BaseException:
            text = traceback.format_exc()
        os.write(write, text.encode("utf-8", "replace"))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        text = fh.read().decode()
    os.waitpid(pid, 0)
    return text


def _outcome(fn: Callable[[], object]) -> str:
    try:
        result = fn()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok" if result is None else str(result)


@pytest.fixture
def ordinary_tmp() -> Iterator[Path]:
    """A directory an ordinary user owns and can reach (pytest's own are root's, mode 0700,
    when the suite runs as root), removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="msgviewer-test-", dir="/tmp"))
    if os.geteuid() == 0:
        os.chown(directory, NOBODY, NOBODY)
    try:
        yield directory
    finally:
        os.chmod(directory, 0o700)
        shutil.rmtree(directory, ignore_errors=True)
