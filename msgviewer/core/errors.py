"""The errors msgviewer raises: each says what went wrong and where."""

from __future__ import annotations


def number_text(value: int | float, kind: str) -> str:
    """A number as an error message names it when it is not what was wanted: a float by its
    value (``1.5``, ``1e+30``), an integer past 64 bits by its first digits (it may be
    thousands long), any other integer by ``kind`` ("an integer", "a number")."""
    if isinstance(value, float):
        return repr(value)
    if -(1 << 63) <= value < 1 << 64:
        return kind
    if value.bit_length() < 4000:
        return f"an integer past 64 bits: {str(value)[:12]}…"
    # (no conversion of thousands of digits, quadratic in their number)
    return f"an integer past 64 bits: about {int(value.bit_length() * 0.30103):,} digits"


class MsgviewerError(Exception):
    """Base class of every error msgviewer raises on purpose."""


class InvalidMessageError(MsgviewerError, ValueError):
    """A value cannot be a message or block (unknown role, wrong content type...)."""


class InvalidArgumentError(MsgviewerError, ValueError):
    """Arguments an operation cannot take together (``trim(strategy="first", start_on=...)``)."""


class FormatError(MsgviewerError, ValueError):
    """Input that cannot be read, with where: file, line and JSON path when known."""

    def __init__(
        self,
        what: str,
        *,
        file: str | None = None,
        line: int | None = None,
        path: str | None = None,
    ) -> None:
        self.what = what
        self.file = file
        self.line = line
        self.path = path
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.file:
            where.append(str(self.file))
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.path:
            where.append(self.path)
        return f"{': '.join(where)}: {self.what}" if where else self.what

    def located(
        self, *, file: str | None = None, line: int | None = None, path_prefix: str | None = None
    ) -> FormatError:
        """The same error with more of its location filled in."""
        path = self.path
        if path_prefix:
            path = path_prefix + (path[1:] if path and path.startswith("$") else (path or ""))
        return FormatError(
            self.what,
            file=self.file or file,
            line=self.line if self.line is not None else line,
            path=path,
        )

    def __reduce__(self):  # keep keyword-only fields through pickling
        return (_rebuild_format_error, (self.what, self.file, self.line, self.path))


def _rebuild_format_error(what, file, line, path):
    return FormatError(what, file=file, line=line, path=path)


class UnsupportedVersionError(FormatError):
    """A native file written by a version of msgviewer this one does not know."""


class WriteError(MsgviewerError, OSError):
    """A file (or standard output) that cannot be written, with why: ``FILE: what``.

    Also an ``OSError``, as the failure of a write always was."""

    def __init__(self, what: str, *, file: str | None = None) -> None:
        self.what = what
        self.file = file
        super().__init__(f"{file}: {what}" if file else what)

    def __str__(self) -> str:
        return f"{self.file}: {self.what}" if self.file else self.what

    def __reduce__(self):  # keep keyword-only fields through pickling
        return (_rebuild_write_error, (self.what, self.file))


def _rebuild_write_error(what, file):
    return WriteError(what, file=file)
