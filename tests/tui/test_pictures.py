"""Image blocks drawn in the detail pane: half blocks, bounded, decoded off the UI thread, and
off with ``--no-images`` or the palette."""

from __future__ import annotations

import base64
import io
import re

import pytest

from msgviewer import Conversation, ImageBlock, Message, TextBlock
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.model.pictures import MAX_PIXELS, MAX_ROWS, cells, decode
from msgviewer.tui.model.rows import BLOCK

from .conftest import DEMO, SIZE, make_app, settle

pytestmark = pytest.mark.anyio

Image = pytest.importorskip("PIL.Image")


def _png(width: int, height: int) -> str:
    image = Image.new("RGB", (width, height), (200, 40, 40))
    for x in range(width // 2):  # a left half of another colour: something to see
        for y in range(0, height, max(1, height // 50)):
            image.putpixel((x, y), (20, 60, 220))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode()


def _with_image(data: str) -> Conversation:
    block = ImageBlock(data=data, mime_type="image/png")
    return Conversation(
        (Message.user((TextBlock("What is this?"), block)), Message.assistant("A square.")),
        format="msgviewer",
    )


def _drawn_rows(plain: str) -> list[str]:
    return [line for line in plain.splitlines() if "▀" in line]


async def test_the_demo_screenshot_is_drawn_in_the_pane() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.tree.go_to(BLOCK, 0, 1, 1)  # the user's screenshot
        await settle(pilot)
        detail = screen.detail
        assert [p.kind for p in detail.parts].count("image") == 1
        rows = _drawn_rows(detail.plain)
        assert 1 <= len(rows) <= MAX_ROWS
        assert "dimensions 160 x 96 px" in detail.plain  # the facts stay


async def test_a_huge_image_is_shrunk_and_bounded() -> None:
    app = MsgViewerApp(conversations=[_with_image(_png(2000, 4000))])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.tree.go_to(BLOCK, 0, 0, 1)
        await settle(pilot)
        detail = screen.detail
        rows = _drawn_rows(detail.plain)
        assert len(rows) == MAX_ROWS  # tall: as many rows as allowed, no more
        assert {len(r.strip()) for r in rows} == {MAX_ROWS}  # and the aspect kept
        picture = detail.picture_of(app.session.convs[0].messages[0].blocks[1])
        assert picture is not None and max(picture.image.size) == MAX_PIXELS


async def test_no_images_shows_only_the_facts() -> None:
    app = make_app(DEMO, images=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.tree.go_to(BLOCK, 0, 1, 1)
        await settle(pilot)
        assert "image" not in [p.kind for p in screen.detail.parts]
        assert "dimensions 160 x 96 px" in screen.detail.plain
        app.action_toggle_images()  # the palette's "Images: draw"
        await settle(pilot)
        assert _drawn_rows(screen.detail.plain)


async def test_an_image_that_does_not_decode_says_why() -> None:
    app = MsgViewerApp(conversations=[_with_image(base64.b64encode(b"not a png").decode())])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.tree.go_to(BLOCK, 0, 0, 1)
        await settle(pilot)
        assert "(not drawn: the image does not decode" in app.main_screen.detail.plain


def test_cells_keep_the_aspect_and_the_bounds() -> None:
    assert cells(160, 96, 40) == (40, 12)  # two pixel rows a cell row
    assert cells(100, 1000, 80) == (4, MAX_ROWS)  # tall: the rows bound it
    assert cells(10, 10, 80) == (10, 5)  # never bigger than the image
    assert cells(0, 10, 80) == (0, 0)


def test_decoding_shrinks_in_place_of_the_ui() -> None:
    picture = decode(ImageBlock(data=_png(1200, 300), mime_type="image/png"))
    assert picture.image.size == (MAX_PIXELS, 100)
    assert decode(ImageBlock(data="@@@", mime_type="image/png")).error


def test_no_images_on_the_command_line_reaches_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import msgviewer.tui
    from msgviewer.cli import main

    seen: dict[str, object] = {}

    def run(files, **options):  # type: ignore[no-untyped-def]
        seen.update(options, files=files)
        return 0

    monkeypatch.setattr(msgviewer.tui, "run", run)
    assert main([str(DEMO), "--no-images"]) == 0
    assert seen["images"] is False and seen["files"] == [str(DEMO)]
    assert main([str(DEMO)]) == 0
    assert seen["images"] is True


async def test_a_kitty_terminal_is_sent_the_picture_once_and_shown_placeholders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from msgviewer.tui.model import kitty

    monkeypatch.setenv("MSGVIEWER_IMAGES", "kitty")
    monkeypatch.delenv("TMUX", raising=False)
    sent: list[str] = []
    app = make_app(DEMO)
    assert app.graphics == "kitty"
    monkeypatch.setattr(app, "write_to_terminal", sent.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.tree.go_to(BLOCK, 0, 1, 1)  # the user's screenshot
        await settle(pilot)
        detail = screen.detail
        assert len(sent) == 1 and sent[0].startswith("\x1b_Ga=T,U=1,f=100")
        image_id = int(sent[0].split(",i=")[1].split(",")[0])
        colour = kitty.id_colour(image_id)
        cells = [  # the pane's own lines, as drawn
            seg for line in detail._lines for seg in line if kitty.PLACEHOLDER in seg.text
        ]
        rows = [line for line in detail.plain.splitlines() if kitty.PLACEHOLDER in line]
        assert 1 <= len(rows) <= MAX_ROWS and "▀" not in detail.plain
        assert all(seg.style.color.triplet == colour for seg in cells) and cells
        # drawn again (moving away and back): not sent again
        screen.tree.go_to(BLOCK, 0, 1, 0)
        await settle(pilot)
        screen.tree.go_to(BLOCK, 0, 1, 1)
        await settle(pilot)
        assert len(sent) == 1
    assert sent[-1] == kitty.delete(image_id)  # freed when the app ends


def test_kitty_placements_are_freed_when_resized_and_past_the_ones_kept() -> None:
    from msgviewer.tui.model import kitty
    from msgviewer.tui.widgets.picture import Placements

    sent: list[str] = []
    placements = Placements(sent.append)
    image = Image.new("RGB", (40, 40))
    first = placements.place(image, 10, 5)
    assert placements.place(image, 10, 5) == first and len(sent) == 1  # sent once
    wider = placements.place(image, 20, 10)  # the pane widened: sent again, the old freed
    assert sent[1] == kitty.delete(first) and sent[2].startswith("\x1b_Ga=T") and len(sent) == 3
    others = [Image.new("RGB", (8, 8)) for _ in range(Placements.KEPT)]
    ids = [placements.place(o, 4, 2) for o in others]
    assert sent[-1] == kitty.delete(wider)  # the least recently drawn went
    placements.place(others[0], 4, 2)  # drawn again: now the most recent, kept
    placements.place(image, 20, 10)
    assert sent[-1] == kitty.delete(ids[1])
    deletes = {x for x in sent if x.startswith("\x1b_Ga=d")}
    placements.clear()
    freed = [x for x in sent if x.startswith("\x1b_Ga=d") and x not in deletes]
    assert len(freed) == Placements.KEPT and kitty.delete(ids[0]) in freed


_SIXEL = re.compile(r"\x1b7\x1b\[(\d+);(\d+)H(\x1bP[^\x1b]*\x1b\\)\x1b8")


def _sixels(sent: list[str]) -> list[tuple[int, int, int, int]]:
    """Each Sixel written: the cell of its top left corner (from 0) and its size in pixels;
    nothing else written."""
    return [where for where, _ in _pictures(sent)]


def _pictures(sent: list[str]) -> list[tuple[tuple[int, int, int, int], dict]]:
    """Each Sixel written, where (as ``_sixels``) and its pixels."""
    from .model.test_sixel import _decode

    written = "".join(sent)
    found = list(_SIXEL.finditer(written))
    assert "".join(m[0] for m in found) == written
    out = []
    for match in found:
        width, height, pixels = _decode(match[3])
        assert len(pixels) == width * height
        out.append(((int(match[2]) - 1, int(match[1]) - 1, width, height), pixels))
    return out


async def _written(pilot, sent: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Settle until something was written (a picture decodes, then encodes, in workers)."""
    for _ in range(50):
        await settle(pilot)
        if sent:
            return


def _stripes(width: int, height: int) -> str:
    """A PNG of horizontal stripes, eight pixels each, of colours all different."""
    image = Image.new("RGB", (width, height))
    for y in range(height):
        n = y // 8
        for x in range(width):
            image.putpixel((x, y), (n * 20 % 256, 255 - n * 20 % 256, n * 90 % 256))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode()


def _with_image_and_text() -> Conversation:
    block = ImageBlock(data=_stripes(160, 96), mime_type="image/png")
    text = TextBlock("\n\n".join(f"line {n}" for n in range(40)))
    return Conversation(
        (Message.user((TextBlock("What is this?"), block, text)), Message.assistant("A square.")),
        format="msgviewer",
    )


async def test_a_sixel_terminal_is_written_the_picture_over_its_blank_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from msgviewer.tui.model import sixel
    from msgviewer.tui.model.rows import MSG

    monkeypatch.setenv("MSGVIEWER_IMAGES", "sixel")
    monkeypatch.setattr(sixel, "cell_size", lambda fds=None: (8, 16))
    sent: list[str] = []
    app = MsgViewerApp(conversations=[_with_image_and_text()])
    assert app.graphics == "sixel"
    monkeypatch.setattr(app, "write_to_terminal", sent.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        detail = screen.detail
        screen.tree.go_to(MSG, 0, 0, 0)  # the text, the picture and more text
        await _written(pilot, sent)  # (decoded, laid out, then encoded)
        region = detail.scrollable_content_region
        lines = detail.plain.splitlines()
        first = lines.index("image") + 1  # under its heading
        columns, rows = cells(160, 96, region.width - 1)
        assert all(not line.strip() for line in lines[first : first + rows])  # kept blank
        assert "▀" not in detail.plain
        # one picture, at the top left of its cells, as big as they are
        assert set(_sixels(sent)) == {(region.x + 1, region.y + first, columns * 8, rows * 16)}
        whole = _pictures(sent)[-1][1]
        # a frame that writes elsewhere (the tree) leaves the picture where it is
        sent.clear()
        screen.tree.refresh()
        await settle(pilot)
        assert sent == []
        # one that writes over the pane's cells (blank, in the terminal) writes it again
        detail.refresh()
        await _written(pilot, sent)
        assert set(_sixels(sent)) == {(region.x + 1, region.y + first, columns * 8, rows * 16)}

        # scrolled three rows out: the rows that show, at the top of the pane
        sent.clear()
        detail.scroll_to(0, first + 3, animate=False, immediate=True)
        await _written(pilot, sent)
        assert set(_sixels(sent)) == {(region.x + 1, region.y, columns * 8, (rows - 3) * 16)}
        cropped = _pictures(sent)[-1][1]  # the picture's lower rows (each crop quantised anew)
        assert all(
            max(abs(a - b) for a, b in zip(colour, whole[x, y + 3 * 16], strict=True)) <= 2
            for (x, y), colour in cropped.items()
        )

        # nothing written under a dialog; written again when it goes
        sent.clear()
        await pilot.press("question_mark")
        await settle(pilot)
        assert app.screen is not screen and sent == []
        await pilot.press("escape")
        await _written(pilot, sent)
        assert app.screen is screen  # (each frame that wrote over the cells writes it again)
        assert set(_sixels(sent)) == {(region.x + 1, region.y, columns * 8, (rows - 3) * 16)}

        # images off: blank cells no more, nothing written
        sent.clear()
        app.action_toggle_images()
        await settle(pilot)
        await settle(pilot)
        assert sent == [] and not detail.sixel_places()
        app.action_toggle_images()  # and on again: at the top, whole
        await _written(pilot, sent)
        assert set(_sixels(sent)) == {(region.x + 1, region.y + first, columns * 8, rows * 16)}


async def test_no_images_writes_no_sixel(monkeypatch: pytest.MonkeyPatch) -> None:
    from msgviewer.tui.model.rows import MSG

    monkeypatch.setenv("MSGVIEWER_IMAGES", "sixel")
    sent: list[str] = []
    app = MsgViewerApp(conversations=[_with_image_and_text()], images=False)
    monkeypatch.setattr(app, "write_to_terminal", sent.append)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.tree.go_to(MSG, 0, 0, 0)
        await settle(pilot)
        await settle(pilot)
        assert "dimensions 160 x 96 px" in app.main_screen.detail.plain
        assert sent == []
