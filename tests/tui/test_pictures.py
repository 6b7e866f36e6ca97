"""Image blocks drawn in the detail pane: half blocks, bounded, decoded off the UI thread, and
off with ``--no-images`` or the palette."""

from __future__ import annotations

import base64
import io

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
