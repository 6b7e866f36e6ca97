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


def test_a_native_file_imports_no_other_format() -> None:
    # each format's module is imported when first needed: opening a native file (what the
    # app's cold start does) never pays for the other eleven (its typed decoding is its own)
    code = (
        "import sys, msgviewer\n"
        "before = {m for m in sys.modules if m.startswith('msgviewer.formats.')}\n"
        "conv = msgviewer.Conversation((msgviewer.Message.user('hi'),))\n"
        "msgviewer.loads(msgviewer.dumps(conv))\n"
        "after = {m for m in sys.modules if m.startswith('msgviewer.formats.')}\n"
        "print(','.join(sorted(after - before)))\n"
        "print(len(msgviewer.FORMATS))\n"
    )
    imported, listed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert imported == "msgviewer.formats.native,msgviewer.formats.native.typed"
    assert listed == "14"  # listing the formats makes every one


def test_every_format_is_listed_under_its_own_name() -> None:
    from msgviewer.formats import FORMATS, all_formats

    assert [fmt.name for fmt in all_formats()] == list(FORMATS)
    assert len(FORMATS) == 14
