"""Kitty's graphics protocol by Unicode placeholders: the terminals that get it, the escape
sequences that send a picture, and the cells that draw it."""

from __future__ import annotations

import base64
import re
import unicodedata

from rich.cells import cell_len

from msgviewer.tui.model import kitty
from msgviewer.tui.model.pictures import MAX_ROWS


def test_the_row_marks_are_the_protocols_first_ones() -> None:
    # the protocol's rule: combining class 230 marks without a decomposition, minus those a
    # normalisation may fuse with a letter; in U+0300-U+036F, as its table begins
    fused = {0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30A}
    fused |= {0x30B, 0x30C, 0x30F, 0x311, 0x313, 0x314, 0x342}
    derived = [
        chr(c)
        for c in range(0x300, 0x370)
        if unicodedata.category(chr(c)) == "Mn"
        and unicodedata.combining(chr(c)) == 230
        and not unicodedata.decomposition(chr(c))
        and c not in fused
    ]
    assert tuple(derived) == kitty.DIACRITICS
    assert len(kitty.DIACRITICS) >= MAX_ROWS  # a mark for every row a picture may take


def test_the_environment_tells_the_protocol() -> None:
    assert kitty.protocol({"TERM": "xterm-kitty"}) == "kitty"
    assert kitty.protocol({"TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"}) == "kitty"
    assert kitty.protocol({"TERM_PROGRAM": "ghostty"}) == "kitty"
    assert kitty.protocol({"TERM": "xterm-256color"}) == "blocks"
    assert kitty.protocol({}) == "blocks"
    # inside tmux, only when asked (tmux must pass the pictures on)
    assert kitty.protocol({"TERM": "xterm-kitty", "TMUX": "/tmp/t,1,0"}) == "blocks"
    assert kitty.protocol({"TMUX": "/tmp/t,1,0", "MSGVIEWER_IMAGES": "kitty"}) == "kitty"
    assert kitty.protocol({"TERM": "xterm-kitty", "MSGVIEWER_IMAGES": "Blocks"}) == "blocks"


def test_terminals_known_to_draw_sixel_get_it() -> None:
    for env in (
        {"TERM": "foot"},
        {"TERM": "foot-extra"},
        {"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"},
        {"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"},
        {"TERM": "xterm", "MLTERM": "3.9.3"},
        {"TERM": "xterm-256color", "KONSOLE_VERSION": "230804"},
        {"TERM": "xterm-256color", "WT_SESSION": "0b1c-22"},
    ):
        assert kitty.protocol(env) == "sixel", env
    # not known to: an older Konsole, xterm (a VT340 only when started so), VS Code
    assert kitty.protocol({"KONSOLE_VERSION": "211200"}) == "blocks"
    assert kitty.protocol({"TERM": "xterm", "XTERM_VERSION": "XTerm(390)"}) == "blocks"
    assert kitty.protocol({"TERM_PROGRAM": "vscode"}) == "blocks"
    # asked for: the variable decides, inside a multiplexer too; without it, half blocks there
    assert kitty.protocol({"TERM": "xterm", "MSGVIEWER_IMAGES": "sixel"}) == "sixel"
    assert kitty.protocol({"TERM": "foot", "TMUX": "/tmp/t,1,0"}) == "blocks"
    assert kitty.protocol({"TERM": "foot", "STY": "12.pts-0"}) == "blocks"
    assert kitty.protocol({"TERM_PROGRAM": "WezTerm", "ZELLIJ": "0"}) == "blocks"
    assert kitty.protocol({"TMUX": "/tmp/t,1,0", "MSGVIEWER_IMAGES": "Sixel"}) == "sixel"
    assert kitty.protocol({"TERM": "foot", "MSGVIEWER_IMAGES": "blocks"}) == "blocks"


def _commands(sent: str) -> list[tuple[dict[str, str], str]]:
    found = re.findall(r"\x1b_G([^;\x1b]*)(;?)([^\x1b]*)\x1b\\", sent)
    assert "".join(f"\x1b_G{k}{s}{p}\x1b\\" for k, s, p in found) == sent  # nothing else
    return [(dict(kv.split("=") for kv in keys.split(",")), p) for keys, _, p in found]


def test_a_picture_is_sent_in_chunks_as_a_virtual_placement() -> None:
    png = bytes(range(256)) * 40  # 10,240 bytes: 13,656 of base64, four chunks
    commands = _commands(kitty.transmit(4242, png, 30, 7))
    assert len(commands) == 4
    first, *rest = commands
    assert first[0] == {
        "a": "T", "U": "1", "f": "100", "t": "d", "q": "2", "i": "4242", "c": "30", "r": "7",
        "m": "1",
    }  # fmt: skip
    assert [keys["m"] for keys, _ in rest] == ["1", "1", "0"]
    assert all(keys == {"q": "2", "m": keys["m"]} for keys, _ in rest)
    assert all(len(payload) <= kitty.CHUNK for _, payload in commands)
    assert base64.b64decode("".join(payload for _, payload in commands)) == png
    assert _commands(kitty.delete(4242)) == [({"a": "d", "d": "I", "q": "2", "i": "4242"}, "")]


def test_inside_tmux_each_sequence_is_passed_on_in_its_envelope() -> None:
    plain = kitty.transmit(7, b"png", 2, 1)
    wrapped = kitty.transmit(7, b"png", 2, 1, tmux=True)
    assert wrapped == "\x1bPtmux;" + plain.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def test_placeholder_rows_name_row_and_first_column() -> None:
    rows = kitty.placeholder_rows(12, 5)
    assert len(rows) == 5
    for r, row in enumerate(rows):
        assert cell_len(row) == 12  # one cell each, the marks take none
        assert row.startswith(kitty.PLACEHOLDER + kitty.DIACRITICS[r] + kitty.DIACRITICS[0])
        assert row.count(kitty.PLACEHOLDER) == 12 and len(row) == 14
    assert kitty.id_colour(0x0A0B0C) == (10, 11, 12)
