"""The headless layers never pull in the UI toolkit."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["msgviewer", "msgviewer.core", "msgviewer.formats"])
def test_core_does_not_import_textual_or_rich(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"importing {module} imported {out}"
