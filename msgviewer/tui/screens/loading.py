"""``LoadingScreen``: the files behind the main screen: opening, analysing and following them.

Loading, analysis and following run in thread workers (the headless ``model.loader`` does the
reading); they touch the UI only through ``call_from_thread``. A file that cannot be read
replaces the panes with what went wrong.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.widgets import Static
from textual.worker import get_current_worker

from ...core.errors import MsgviewerError
from ..model import fmt
from ..model.loader import Cancelled, Follower, in_daemon_thread, load_session
from ..model.placement import Placement, placement
from ..model.progressive import ProgressiveLoad, Step, progressive
from ..model.result_nesting import ResultNesting, nest_results
from ..model.safe import printable
from ..model.search import SearchIndex
from ..model.session import Session
from ..model.timeline import cost_label
from ..model.tree_model import TreeModel
from ..widgets.problems_panel import ProblemsPanel
from .editing import EditingScreen


class LoadingScreen(EditingScreen):
    """Open the screen's files (or show why not), analyse them, follow one as it grows."""

    BINDINGS: list[BindingType] = [
        # (not in the help: ctrl+c copies, as it does on every Textual screen, once loaded)
        Binding("ctrl+c,super+c", "interrupt", "Copy text or stop loading", show=False),
    ]

    paths: list[str]
    format: str | None
    follow_on_load: bool
    error: str | None
    _follow_timer: Any
    _analysis_due: bool
    _progress: str
    prices: dict[str, Any] | None
    _read_percent: int = 0
    """How far into the file the status last said a progressive load was."""
    _placing: Placement | None = None
    """Results being placed under their calls, a slice at a time (a long history's)."""
    _waiting: dict[int, ResultNesting] | None = None
    """Places of results linked while others were being placed: placed next."""

    # -- loading ------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.tree.focus()
        if self.session is not None:
            self._loaded(self.session)
        else:
            self._set_progress("Opening…")
            self._load()

    def _set_progress(self, text: str) -> None:
        # A still line, not a spinner: an animation would take the interpreter from the
        # parser sixty times a second and make a big file slower to open.
        text = printable(text)  # (it names the file, which may hold anything)
        self._progress = text
        self.tree.placeholder = text
        self.update_status()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        cancel = WorkerCancelled(get_current_worker())
        self._read_percent = 0

        def progress(text: str) -> None:
            self.app.call_from_thread(self._set_progress, text)

        def load() -> Session:
            return load_session(self.paths, format=self.format, progress=progress, cancel=cancel)

        shown = False
        try:
            path = progressive(self.paths)  # (a regular file only: its reads never block)
            if path is not None:  # a long log: its first screen while the rest is read
                for step in ProgressiveLoad(path, self.format).steps(cancel, self._reading):
                    self.app.call_from_thread(self._stepped, step)
                    shown = True
                return
            # (in a thread of its own that the app can leave behind: a FIFO with no writer
            # blocks its open for ever, and the worker's thread must end for the app to)
            session = in_daemon_thread(load, cancel)
        except Cancelled:
            return
        except MsgviewerError as exc:
            # (the start of a log stays on screen, to look at, if the whole cannot be read)
            if shown:
                self.app.call_from_thread(self._partial, str(exc), getattr(exc, "what", ""))
            else:
                self.app.call_from_thread(self._failed, str(exc))
            return
        except Exception as exc:  # the app shows any failure to read rather than dying
            self.app.call_from_thread(self._failed, f"{type(exc).__name__}: {exc}")
            return
        self.app.call_from_thread(self._loaded, session)

    def _reading(self, read: int, size: int) -> None:
        """The whole read of a progressive load got further (in the worker's thread): say so
        once it passes the percent shown (the start it re-reads was shown already); at 100 the
        file is parsed and its messages are being built."""
        percent = read * 100 // size if size else 100
        if percent > self._read_percent:
            self._read_percent = percent
            self.app.call_from_thread(self._show_reading, percent)

    def _show_reading(self, percent: int) -> None:
        if self.loading_more and self.session is not None:
            self._set_progress(self._reading_text(self.session, percent))

    @staticmethod
    def _reading_text(session: Session, percent: int) -> str:
        name = os.path.basename(session.path or "")
        count = fmt.plural(session.message_count, "message")
        done = "all read, building the messages" if percent >= 100 else f"{percent}%"
        return f"Reading {name}: {done} · {count} so far, more coming…"

    def action_interrupt(self) -> None:
        """Ctrl+C: while the files are still being read, quit (nothing can be lost yet, and a
        slow or stuck read must not hold the terminal); once they are, copy as usual."""
        if self.loading:
            self.app.exit(return_code=130)  # (what an interrupted command returns)
        else:
            self.action_copy_text()

    @property
    def loading(self) -> bool:
        """Whether the files are still being read (no session yet, and no error; or only the
        start of a long log, which cannot be edited yet)."""
        return (self.session is None and self.error is None) or self.loading_more

    def _failed(self, error: str) -> None:
        self.error = error
        self._progress = ""
        self.loading_more = False
        panes = self.query_one("#panes")
        panes.remove_children()
        text = Text()
        text.append("Could not open the file\n\n", style="bold")
        text.append(printable(error))
        text.append("\n\nmsgviewer reads these formats (JSON, JSONL, Inspect .eval): ", style="dim")
        from ...formats import FORMATS

        text.append(", ".join(name for name, (r, _, _) in FORMATS.items() if r), style="dim")
        text.append("\nUse --format NAME to choose one when detection fails. q quits.", style="dim")
        panes.mount(Static(text, id="load-error"))
        self.sub_title = "load error"
        self.update_status()

    def _partial(self, error: str, what: str) -> None:
        """The whole file could not be read after its start was shown: keep that, say why
        (``what``: the error without the file's name, for the status line)."""
        count = fmt.plural(self.session.message_count if self.session else 0, "message")
        self._set_progress(f"Only the first {count} shown: {what or error}")
        self.notify(printable(error), severity="error", timeout=10)

    def _loaded(self, session: Session, provisional: bool = False) -> None:
        session.prices = self.prices
        self.session = session
        self.model = TreeModel(session)
        self.search_index = SearchIndex(session)
        self._progress = ""
        self.tree.set_model(self.model)
        self.tree.focus()
        # Linking, linting and totals start once the first rows and details are on screen
        # (see _show_pending): started earlier, they hold the interpreter while those paint.
        # The start of a file still being read waits for the whole.
        self._analysis_due = not provisional
        self.sub_title = self._title()
        if self.follow_on_load and not provisional:
            self.follow_on_load = False
            self.action_follow()
        self.update_status()

    def _stepped(self, step: Step) -> None:
        """A progressive load went one step further: show what it has read so far."""
        if self.error is not None:
            return
        self.loading_more = not step.done
        if self.session is None:
            self._loaded(step.session, provisional=not step.done)
        else:
            self._swap_in(step.session)
            if step.done:
                self.session.load_warnings = step.session.load_warnings
                self.session.format = step.session.format
                self.session.analysed = False
                self.sub_title = self._title()
                self._analyse()
        if step.done:
            self._set_progress("")
            if self.follow_on_load:
                self.follow_on_load = False
                self.action_follow()
        else:
            self._read_percent = step.percent
            self._set_progress(self._reading_text(step.session, step.percent))
        if self.query_text:  # a search made meanwhile: its hits in what is read now
            self._run_search(self.query_text, jump=False)

    def _title(self) -> str:
        session = self.session
        if session is None:
            return ""
        sources = list(dict.fromkeys(c.source for c in session.convs if c.source))
        if len(sources) > 1:  # several files: their names (already made visible)
            more = f" +{len(sources) - 3} more" if len(sources) > 3 else ""
            name = ", ".join(sources[:3]) + more
        elif session.path is None:
            name = "bundled sample"
        else:
            name = os.path.basename(session.path)
        title = session.convs[0].conversation.title if len(session.convs) == 1 else None
        cost = cost_label(session.convs) if session.analysed else ""
        return printable(" · ".join(part for part in (name, cost, title) if part))

    def _analyse(self) -> None:
        if self.session is not None:
            self._analyse_worker(self.session)

    @work(thread=True, exclusive=True, group="analyse")
    def _analyse_worker(self, session: Session) -> None:
        # Computed here, stored on the UI thread: an edit meanwhile makes these stale.
        def links_made(c: int, messages: Any, links: Any) -> None:
            nest = nest_results(messages, links)  # (where the view will show each result)
            model = self.model
            if model is not None and model.session is session:
                model.compare_nesting(c, nest)
            self.app.call_from_thread(self.links_ready, session, c, messages, links, nest)

        results = session.analysis(links_made)
        self.app.call_from_thread(self._analysed, session, results)

    def _analysed(self, session: Session, results: list[Any]) -> None:
        if session is not self.session:
            return
        session.store(results)
        self.place_results()
        self.edits_changed()  # the header shows the cost now
        self.tree.data_changed()
        self.query_one(ProblemsPanel).set_problems(session)
        self.detail.refresh_content()
        self.update_status()
        from .timeline import TimelineScreen
        from .usage import UsageScreen

        for screen in self.app.screen_stack:
            if isinstance(
                screen, (UsageScreen, TimelineScreen)
            ):  # opened while the totals were being added up
                self.app.call_later(screen.refresh_totals)

    def place_results(self, made: dict[int, ResultNesting] | None = None) -> None:
        """Tool links were made: put results under their calls (the view's default for agent
        runs), the cursor staying on its node; ``made``: where, for some conversations. A long
        history's rows are made a slice at a time (``Placement``), the view usable meanwhile."""
        model = self.model
        if model is None:
            return
        if self._placing is not None:
            # Placed once the running placement is done (starting over would throw its slices
            # away: a file of many conversations would make every row once per conversation).
            if made:
                self._waiting = {**(self._waiting or {}), **made}
            return
        self._placing = placement(model, made) if made else None
        if self._placing is not None:
            self._place_slices()
            self.update_status()
        elif model.nesting_stale():
            self.tree.keep_place_through(lambda: model.refresh_nesting(made))
            self.update_status()

    @property
    def placing_results(self) -> bool:
        """Whether a long history's results are still being placed under their calls."""
        return self._placing is not None

    @work(exclusive=True, group="place")
    async def _place_slices(self) -> None:
        """Make the placed rows a slice at a time, the keys and the drawing let in between
        (callbacks queued one after another would keep them waiting for the last slice)."""
        while self._place_slice():
            await asyncio.sleep(0)

    def _place_slice(self) -> bool:
        """Make the rows of one more slice of messages, and show them all once made; False
        when no more slices are due here."""
        placing = self._placing
        if placing is None:
            return False
        fits = placing.model is self.model and placing.fits()  # (not a model since replaced)
        if fits and not placing.step():
            return True
        self._placing = None
        again = self._taken_waiting()
        if fits and self.tree.keep_place_through(placing.take):
            self.update_status()
        else:  # an edit, a filter... changed the view: place them again, from it (links of
            # a model since replaced are left out: ``placement`` takes only the view's own)
            again = {**placing.nests, **again}
        if again:
            self.place_results(again)
        return False

    def _taken_waiting(self) -> dict[int, ResultNesting]:
        waiting, self._waiting = self._waiting or {}, None
        return waiting

    # -- follow -------------------------------------------------------------------------------

    def action_follow(self) -> None:
        """Start or stop following the file as it grows."""
        if self.still_loading():
            return
        if self.follower is None and self.has_unsaved():
            self.notify("Save or undo your edits before following the file", severity="warning")
            return
        if self.follower is not None:
            self.follower = None
            if self._follow_timer is not None:
                self._follow_timer.stop()
            self.update_status()
            return
        path = None if self.session is None else self.session.path
        if path is None or path == "-" or not os.path.isfile(path):
            # (a FIFO or device read again would block, or never end)
            self.notify("Only a file opened from disk can be followed", severity="warning")
            return
        self.follower = Follower(self.session.path, self.format)
        self._follow_timer = self.set_interval(0.5, self.poll_follow)
        self.update_status()

    def poll_follow(self) -> None:
        """Read the followed file again if it changed (the timer calls this twice a second)."""
        if self.follower is not None and self.follower.changed():
            self._follow_worker(self.follower)

    @work(thread=True, exclusive=True, group="follow")
    def _follow_worker(self, follower: Follower) -> None:
        conversations = follower.read()
        if conversations is None:
            return
        session = Session.from_conversations(conversations, path=follower.path)
        session.prices = self.prices
        session.analyse()
        self.app.call_from_thread(self._followed, session)

    def _followed(self, new: Session) -> None:
        """A followed file changed: show its messages, keeping the reader's place."""
        if self.session is None or self.model is None:
            return
        added = self._swap_in(new)
        self.session.analysed = True
        self.query_one(ProblemsPanel).set_problems(self.session)
        if added > 0:
            self.notify(f"{fmt.plural(added, 'new message')}", timeout=1.5)
        self.edits_changed()  # the header's cost too

    def _swap_in(self, new: Session) -> int:
        """Show ``new``'s conversations in place of the session's, keeping the reader's place
        (a cursor on the last row stays on the last row: it follows what arrives). Returns how
        many messages that added."""
        assert self.session is not None and self.model is not None
        tree = self.tree
        at_end = tree.cursor >= len(self.model.rows) - 1
        row = tree.current_row
        old_count = self.session.message_count
        self.session.convs = new.convs
        self.search_index = SearchIndex(self.session)
        self.model.messages_changed()
        tree.labels = None
        if at_end:
            tree.set_model(self.model, cursor=len(self.model.rows) - 1)
        else:
            pos = self.model.find(row, tree.cursor) if row else None
            tree.set_model(self.model, cursor=pos if pos is not None else tree.cursor)
        return self.session.message_count - old_count


class WorkerCancelled:
    """A worker's cancellation seen as the ``is_set()`` flag the headless code checks."""

    def __init__(self, worker: Any) -> None:
        self.worker = worker

    def is_set(self) -> bool:
        return bool(self.worker.is_cancelled)
