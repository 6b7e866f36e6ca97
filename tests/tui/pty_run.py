"""The real ``msgviewer`` command in a pseudo-terminal: keys typed, output read, exit awaited.

What headless tests cannot see: the process ending (no thread left holding it), the terminal
put back (the alternate screen left, the cursor shown) and where the keys come from.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEAVE_ALT_SCREEN = b"\x1b[?1049l"
SHOW_CURSOR = b"\x1b[?25h"
ENTER_ALT_SCREEN = b"\x1b[?1049h"


class PtyRun:
    """``msgviewer ARGS`` in a new pseudo-terminal (its controlling terminal), standard input
    from ``stdin_fd`` if given (a pipe's end), else the terminal. Paths in ``args`` must be
    absolute: it runs in ``root``."""

    def __init__(
        self, *args: str, stdin_fd: int | None = None, env: dict | None = None, root: Path = ROOT
    ) -> None:
        self.output = bytearray()
        self.status: int | None = None
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its terminal; exec at once
            try:
                if stdin_fd is not None:
                    os.dup2(stdin_fd, 0)
                os.environ.update(env or {})
                os.environ["PYTHONPATH"] = str(root)  # (the checkout whose msgviewer runs)
                os.chdir(root)  # (``-m`` imports from the working directory first)
                os.environ["TERM"] = "xterm-256color"
                os.environ.pop("TEXTUAL", None)
                os.execv(sys.executable, [sys.executable, "-m", "msgviewer", *args])
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))

    def read_for(self, seconds: float) -> None:
        """Collect the output for ``seconds`` (or until the terminal closes)."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed its side
                return
            if not chunk:
                return
            self.output += chunk

    def wait_for(self, text: bytes, seconds: float) -> bool:
        """Whether ``text`` appeared in the output within ``seconds``."""
        end = time.monotonic() + seconds
        while text not in self.output and time.monotonic() < end:
            self.read_for(0.1)
        return text in self.output

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exited(self, seconds: float) -> bool:
        """Whether the process ended within ``seconds`` (its output read meanwhile)."""
        if self.status is not None:
            return True
        end = time.monotonic() + seconds
        while True:  # (looked at once at least, even for no time at all)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.status = os.waitstatus_to_exitcode(status)
                self.read_for(0.2)
                return True
            if time.monotonic() >= end:
                return False
            self.read_for(0.1)

    def restored(self) -> bool:
        """Whether the terminal was put back: the alternate screen left and the cursor shown
        after the last time the app entered it."""
        tail = self.output[self.output.rfind(ENTER_ALT_SCREEN) :]
        return LEAVE_ALT_SCREEN in tail and SHOW_CURSOR in tail

    def close(self) -> None:
        """End the process if it is still there (a test that failed), and the terminal."""
        if self.status is None:
            # (a process that ended but was not waited for is reaped here too)
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)
