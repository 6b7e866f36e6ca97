"""``MsgViewerApp``: the Textual app. It opens files (or the bundled sample) on ``MainScreen``.

Global keys (help, palette, quit, theme) live here; everything about a conversation lives in
the screen and its widgets.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ..core.safetext import visible
from ..formats import Conversation
from .keys import APP_BINDINGS, commands, key_groups
from .model.kitty import protocol
from .model.session import Session

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .widgets.picture import Place, SixelPainter


class MsgViewerApp(App[int]):
    """Look inside LLM conversations: tree, detail, tool links, usage, search, follow."""

    CSS_PATH = "app.tcss"
    TITLE = "msgviewer"

    BINDINGS: list[BindingType] = APP_BINDINGS
    """Help and quit; ctrl+p opens the command palette with every action."""

    def __init__(
        self,
        paths: Sequence[str] | None = None,
        *,
        follow: bool = False,
        format: str | None = None,
        conversations: Sequence[Conversation] | None = None,
        browse: Sequence[str] | None = None,
        prices: dict[str, Any] | None = None,
        compare: tuple[tuple[str, str], dict[str, bool]] | None = None,
        live: bool = False,
        images: bool = True,
    ) -> None:
        """Open ``paths`` (the bundled sample if none), or already-loaded ``conversations``;
        with ``browse``, the list of sessions under those folders (the standard places if
        empty) instead; ``compare`` (names, diff options): open on the diff of the first two
        conversations.

        ``prices``: price overrides for the cost figures (see ``formats.prices``). ``live``:
        the conversations are a program's objects (``msgviewer.view``): quitting hands the
        edits back instead of asking to save them. ``images``: draw image blocks in the
        detail pane.
        """
        super().__init__()
        self.browse = None if browse is None else list(browse)
        self.compare = compare
        self.paths = list(paths or [])
        self.follow = follow
        self.format = format
        self.conversations = conversations
        self.prices = prices
        self.live = live
        self.images = images
        """Draw image blocks in the detail pane (``--no-images``, or the palette, turn it off)."""
        if images:
            from .widgets.picture import prepare

            self.images = prepare()
        self.graphics = protocol(os.environ)
        """How pictures reach the terminal: ``"kitty"`` (its graphics protocol), ``"sixel"``
        or ``"blocks"`` (half blocks), told by the environment (``model.kitty.protocol``)."""
        self._sixels: SixelPainter | None = None
        self._frame: object = None
        """The frame being written, until its Sixel pictures are."""
        self.session: Session | None = None
        """The session the app opened on (its conversations carry the edits)."""

    def get_default_screen(self) -> Screen:
        from .screens.main import MainScreen

        if self.browse is not None:
            from .screens.sessions import SessionsScreen

            return SessionsScreen(self.browse)
        session = None
        if self.conversations is not None:
            session = Session.from_conversations(self.conversations)
            session.prices = self.prices
            self.session = session
        return MainScreen(
            self.paths, format=self.format, follow=self.follow, session=session, prices=self.prices
        )

    def on_mount(self) -> None:
        if self.compare is not None:
            self.call_after_refresh(self._open_compare)

    def _open_compare(self) -> None:
        from .screens.comparing import show_diff

        names, options = self.compare  # type: ignore[misc]
        main = self.main_screen
        b = main.session.convs[1].messages
        show_diff(main, 0, b, names, options, conv_b=1)

    def format_title(self, title: str, sub_title: str) -> Content:
        """``title — sub title``, the space before the dash kept with the title: a piece of
        text that starts with a space loses it in some SVG renderers ("msgviewer—")."""
        if not sub_title:
            return Content(title)
        return Content.assemble(title + " ", Content("— " + sub_title).stylize("dim"))

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Save an SVG of the screen beside the first file opened (else in the working
        directory) and say where; Textual's default, ~/Downloads, may not exist."""
        directory = path or self.screenshot_directory()
        try:
            saved = self.save_screenshot(filename, directory, time_format)
        except OSError as exc:
            self.notify(
                f"Could not save the screenshot in {directory}: {exc.strerror or exc}",
                title="Screenshot",
                severity="error",
            )
            return None
        self.notify(f"Saved screenshot to {saved}", title="Screenshot")
        return None

    def screenshot_directory(self) -> str:
        """Where a screenshot goes: the first opened file's folder if it can be written to,
        else the working directory."""
        if self.paths:
            folder = os.path.dirname(os.path.abspath(self.paths[0]))
            if os.path.isdir(folder) and os.access(folder, os.W_OK):
                return folder
        return os.getcwd()

    @property
    def main_screen(self):  # type: ignore[no-untyped-def]
        """The working screen (under any help or usage screen on top of it)."""
        from .screens.main import MainScreen

        return next(s for s in self.screen_stack if isinstance(s, MainScreen))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a notification as plain text, whatever ``markup`` says.

        Notifications quote file content and typed text (a search, a file name, a url): read
        as markup, ``[@click=app.quit]`` in them would become an action.
        """
        super().notify(
            visible(message), title=visible(title), severity=severity, timeout=timeout, markup=False
        )

    async def action_quit(self) -> None:
        """Quit; with unsaved edits, ask first (save, discard, or stay)."""
        try:
            main = self.main_screen
        except StopIteration:
            self.exit()
            return
        if self.live:  # the edits go back to the program that opened the app
            self.exit()
            return
        main.confirm_quit()

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(key_groups()))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Every key's action as a palette command, plus the filter presets and themes."""
        from .screens.filter import PRESETS

        yield from super().get_system_commands(screen)
        try:
            main = self.main_screen
        except StopIteration:
            return
        for group, binding in commands():
            if group.target == "app":
                continue
            target = main if group.target == "screen" else main.tree
            key = self.get_key_display(Binding(binding.key.split(",")[0], ""))
            yield SystemCommand(
                binding.description,
                f"{group.title} · key {key}",
                partial(self._run_on, target, binding.action),
            )
        for title, help_text, callback in main.edit_commands():
            yield SystemCommand(title, help_text, callback)
        from .screens.comparing import compare_with_file

        yield SystemCommand(
            "Compare with file…",
            "Diff the conversation in view (edits included) against a file",
            partial(compare_with_file, main),
        )
        yield SystemCommand(
            "Images: " + ("hide" if self.images else "draw"),
            "Draw image blocks in the detail pane, or show only their facts",
            self.action_toggle_images,
        )
        for name, flt in PRESETS.items():
            yield SystemCommand(
                f"Filter: {name}", "Show only these in the tree", partial(main.apply_filter, flt)
            )

    def write_to_terminal(self, sequence: str) -> None:
        """Send an escape sequence to the terminal between frames (a picture for Kitty's
        protocol, or in Sixel), through the driver Textual writes its frames with; nowhere
        when headless."""
        driver = getattr(self, "_driver", None)
        if driver is not None and not self.is_headless:
            driver.write(sequence)

    def _display(self, screen: Screen, renderable: RenderableType | None) -> None:
        """Write a frame; under Sixel, then the pictures it wrote over or that show anew:
        inside the frame's synchronized update when it is written (``_end_update``: the
        terminal shows the frame and its pictures at once, no blank between), else after."""
        if self.graphics != "sixel" or renderable is None or self._batch_count:
            super()._display(screen, renderable)
            return
        self._frame = renderable
        try:
            super()._display(screen, renderable)
        finally:
            frame, self._frame = self._frame, None
        if frame is not None:  # (not written: headless, say)
            self._paint_sixels(frame)

    def _end_update(self) -> None:
        frame, self._frame = self._frame, None
        if frame is not None:
            self._paint_sixels(frame)
        super()._end_update()

    def _paint_sixels(self, frame: object) -> None:
        if self._sixels is None:
            from .widgets.picture import SixelPainter

            self._sixels = SixelPainter(
                lambda sequence: self.write_to_terminal(sequence),
                self._sixel_places,
                self._encode_later,
            )
        self._sixels.paint(partial(_written_over, frame))

    def _sixel_places(self) -> list[Place]:
        """Where the detail pane's Sixel pictures show: nowhere with images off, or with
        another screen (help, a dialog, the palette) on top of the working one."""
        if not self.images:
            return []
        try:
            main = self.main_screen
        except StopIteration:
            return []
        return main.detail.sixel_places() if self.screen is main else []

    def _encode_later(self, job: Any, done: Any) -> None:
        """Run ``job`` in a worker thread, then ``done`` with its result on the UI thread (a
        picture that does not encode is written as nothing)."""

        def run() -> None:
            try:
                result = job()
            except Exception:  # (Pillow raises many kinds)
                result = ""
            with contextlib.suppress(RuntimeError):  # (the app has ended meanwhile)
                self.call_from_thread(done, result)

        self.run_worker(run, thread=True, group="sixel", exit_on_error=False)

    def action_toggle_images(self) -> None:
        """Draw image blocks in the detail pane, or show only their facts."""
        from .widgets.picture import prepare

        self.images = not self.images and prepare()
        with contextlib.suppress(StopIteration):  # (no working screen: the setting alone)
            self.main_screen.detail.refresh_content()
        self.notify("Images drawn" if self.images else "Images not drawn", timeout=2)

    def _run_on(self, target, action: str) -> None:  # type: ignore[no-untyped-def]
        self.call_later(target.run_action, action)


def _written_over(update: object, place: Place) -> bool:
    """Whether a frame's ``update`` wrote cells of ``place``: a partial update names the
    spans of the rows it wrote; any other kind is the whole screen."""
    spans = getattr(update, "spans", None)
    if spans is None:
        return True
    return any(place.under(y, x1, x2) for y, x1, x2 in spans)
