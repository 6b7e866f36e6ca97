"""Sixel pictures: the encoder read back by a small decoder, pixel by pixel; the cell size."""

from __future__ import annotations

import os
import random
import re
import struct

import pytest

from msgviewer.tui.model import sixel

Image = pytest.importorskip("PIL.Image")


def _decode(sequence: str) -> tuple[int, int, dict[tuple[int, int], tuple[int, int, int]]]:
    """Width, height and the colour (in percent) of every pixel a Sixel sequence paints."""
    assert sequence.startswith("\x1bP") and sequence.endswith("\x1b\\")
    body = sequence[sequence.index("q") + 1 : -2]
    raster = re.match(r'"1;1;(\d+);(\d+)', body)
    assert raster is not None
    width, height = int(raster[1]), int(raster[2])
    registers: dict[int, tuple[int, int, int]] = {}
    pixels: dict[tuple[int, int], tuple[int, int, int]] = {}
    tokens = re.finditer(
        r"#(\d+)(?:;2;(\d+);(\d+);(\d+))?|!(\d+)([?-~])|([?-~])|([$-])|(.)", body[raster.end() :]
    )
    x = top = 0
    colour = None
    for token in tokens:
        register, r, g, b, count, repeated, single, move, other = token.groups()
        assert other is None, f"unexpected {other!r}"
        if register is not None:
            colour = int(register)
            if r is not None:
                registers[colour] = (int(r), int(g), int(b))
            continue
        if move is not None:
            x = 0
            top += 6 if move == "-" else 0
            continue
        char, times = (repeated, int(count)) if repeated else (single, 1)
        bits = ord(char) - 63
        for _ in range(times):
            for k in range(6):
                if bits >> k & 1:
                    assert (x, top + k) not in pixels and top + k < height and x < width
                    pixels[x, top + k] = registers[colour]
            x += 1
    return width, height, pixels


def _percent(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(round(c * 100 / 255) for c in rgb)  # type: ignore[return-value]


def _check(image, background=(0, 0, 0)) -> str:  # type: ignore[no-untyped-def]
    sequence = sixel.encode(image, background)
    width, height, pixels = _decode(sequence)
    assert (width, height) == image.size
    expected = sixel.quantise(image, background).convert("RGB")
    assert len(pixels) == width * height  # every pixel painted, once
    for (x, y), colour in pixels.items():
        assert colour == _percent(expected.getpixel((x, y))), (x, y)
    return sequence


def test_every_pixel_is_painted_in_its_quantised_colour() -> None:
    rng = random.Random(7)
    colours = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(5)]
    image = Image.new("RGB", (7, 13))  # odd width, a height that is not six's multiple
    for x in range(7):
        for y in range(13):
            image.putpixel((x, y), rng.choice(colours))
    _check(image)


def test_one_colour_is_one_register_and_runs() -> None:
    sequence = _check(Image.new("RGB", (50, 4), (10, 200, 30)))
    assert sequence.count("#0;2;") == 1
    assert "!50" in sequence and len(sequence) < 60  # run-length: not fifty characters
    _check(Image.new("RGB", (1, 1), (255, 255, 255)))


def test_more_than_256_colours_are_quantised_to_256() -> None:
    image = Image.new("RGB", (40, 31))
    for x in range(40):
        for y in range(31):
            image.putpixel((x, y), (x * 6, y * 8, (x * y) % 256))  # 1,240 colours
    sequence = _check(image)
    assert 1 < len(re.findall(r"#\d+;2;", sequence)) <= 256


def test_transparency_is_flattened_on_the_background() -> None:
    image = Image.new("RGBA", (9, 8), (0, 0, 0, 0))
    for x in range(4):
        for y in range(8):
            image.putpixel((x, y), (250, 0, 0, 255))
    _check(image, background=(0, 0, 255))
    _, _, pixels = _decode(sixel.encode(image, background=(0, 0, 255)))
    assert pixels[8, 7] == (0, 0, 100) and pixels[0, 0] == _percent((250, 0, 0))


def test_only_the_formats_own_bytes_are_written() -> None:
    sequence = sixel.encode(Image.new("RGB", (20, 20), (1, 2, 3)))
    inside = sequence[len(sixel.START) : -len(sixel.END)]
    assert re.fullmatch(r'[0-9;"#!$\-?-~]*', inside)
    assert sixel.at(4, 2, "X") == "\x1b7\x1b[3;5HX\x1b8"


def test_the_cell_size_is_the_ttys_pixels_over_its_cells(tmp_path) -> None:  # type: ignore[no-untyped-def]
    fcntl = pytest.importorskip("fcntl")
    termios = pytest.importorskip("termios")
    main, tty = os.openpty()
    try:
        # 100 columns, 30 rows in 900 x 540 pixels: cells of 9 x 18
        fcntl.ioctl(tty, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 900, 540))
        assert sixel.cell_size([tty]) == (9, 18)
        fcntl.ioctl(tty, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        assert sixel.cell_size([tty]) == sixel.CELL  # the terminal does not tell: assumed
    finally:
        os.close(main)
        os.close(tty)
    with open(tmp_path / "not-a-tty", "w") as file:
        assert sixel.cell_size([file.fileno()]) == sixel.CELL
