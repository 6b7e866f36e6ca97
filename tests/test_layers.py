"""The package's layers, proven from its source: imports point one way.

``tui``, ``cli`` -> ``document`` -> ``formats`` -> ``core`` (and in the app, screens and widgets
-> ``tui.model``). Every import statement of every
module is read (lazy ones inside functions and type-only ones included) and its target's layer
compared with its own.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "msgviewer"

# Lower numbers stand lower: a module may import its own layer and the ones below it.
LAYERS = {
    "msgviewer.core": 0,
    "msgviewer.formats": 1,
    "msgviewer.document": 2,
    "msgviewer.sessions": 2,  # finds and summarises session files: above formats, below the app
    "msgviewer": 2,  # the package's front re-exports core, formats and document
    "msgviewer.tui.model": 3,  # the app's headless view models: no screen, no widget
    "msgviewer.tui": 4,
    "msgviewer.cli": 5,  # the command line opens the app; the app never runs the command line
    "msgviewer.__main__": 6,
}

# The deliberate exceptions: names that moved up out of the core in a later release and are
# still found at their old place (``msgviewer.core.document``, ``msgviewer.core.Document``) for
# code written against the first one. Nothing in the package imports either alias.
COMPATIBILITY_ALIASES = {
    ("msgviewer.core.document", "msgviewer.document"),
    ("msgviewer.core", "msgviewer.document"),  # core.__getattr__ imports it when asked
    # ``msgviewer.view(objects)`` opens the app: the front's __getattr__ imports it when asked
    # (importing msgviewer still imports no textual: tests/test_import_hygiene.py)
    ("msgviewer", "msgviewer.tui"),
}

FILE_IO_MODULES = {"os", "io", "pathlib", "mmap", "shutil", "tempfile", "glob"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, tuple[Path, str]]:
    """Every module of the package: its path and its text, by module name."""
    return {
        module_name(p): (p, p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))
    }


def imports(name: str, path: Path, text: str) -> Iterator[tuple[str, int]]:
    """Every module the module imports, absolute, with the line of the import: for
    ``from package import name``, the submodule where ``name`` is one, else the package."""
    tree = ast.parse(text, str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                yield (submodule if _is_module(submodule) else target), node.lineno


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def layer(name: str) -> int | None:
    """The layer of a msgviewer module (the longest prefix listed), None outside the package."""
    if name != "msgviewer" and not name.startswith("msgviewer."):
        return None
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in LAYERS:
            return LAYERS[prefix]
    return None


def package_of(name: str) -> str:
    """The layer a module belongs to, by name (its longest prefix in ``LAYERS``)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in LAYERS:
            return ".".join(parts[:i])
    raise AssertionError(f"{name} is in no layer")


def reversed_arrows(modules: dict[str, tuple[Path, str]]) -> list[str]:
    found = []
    for name, (path, text) in modules.items():
        own = layer(name)
        assert own is not None, f"{name} belongs to no layer: add it to LAYERS"
        for target, line in imports(name, path, text):
            theirs = layer(target)
            if theirs is None or theirs <= own:
                continue
            if (name, package_of(target)) in COMPATIBILITY_ALIASES:
                continue
            found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name} imports {target}")
    return found


def test_imports_point_down_the_layers() -> None:
    assert reversed_arrows(sources()) == []


@pytest.mark.parametrize(
    ("importer", "source", "imported"),
    [
        ("core/trim.py", "from ..formats import load\n", "msgviewer.formats"),
        ("formats/io.py", "from ..document import Document\n", "msgviewer.document"),
        ("document/editing.py", "from ..tui.app import MsgViewerApp\n", "msgviewer.tui.app"),
        ("tui/app.py", "import msgviewer.cli\n", "msgviewer.cli"),
        ("tui/model/search.py", "from ..widgets import styles\n", "msgviewer.tui.widgets"),
        ("core/message.py", "def f():\n    from msgviewer import formats\n", "msgviewer"),
    ],
)
def test_a_reversed_arrow_is_found(importer: str, source: str, imported: str) -> None:
    """The check above fails for any arrow pointing up, lazy imports included."""
    modules = sources()
    name = module_name(PACKAGE / importer)
    path, text = modules[name]
    modules[name] = (path, text + "\n" + source)
    found = reversed_arrows(modules)
    assert len(found) == 1 and imported in found[0], found


def test_the_core_does_no_file_io() -> None:
    """Values and operations only: files are opened by the formats and the documents."""
    found = []
    for name, (path, text) in sources().items():
        if layer(name) != 0 or (name, "msgviewer.document") in COMPATIBILITY_ALIASES:
            continue
        for target, line in imports(name, path, text):
            if target.split(".")[0] in FILE_IO_MODULES:
                found.append(f"{name}:{line} imports {target}")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
                found.append(f"{name}:{node.lineno} calls open()")
    assert found == []


def test_every_module_says_what_it_provides_and_stays_short() -> None:
    too_long, undocumented = [], []
    for name, (_path, text) in sources().items():
        if text.count("\n") > 500:
            too_long.append(f"{name}: {text.count(chr(10))} lines")
        if text.strip() and ast.get_docstring(ast.parse(text)) is None:
            undocumented.append(name)
    assert too_long == []
    assert undocumented == []
