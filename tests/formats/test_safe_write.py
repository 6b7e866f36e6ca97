"""Writing a file (``dump``, a document's save, ``-o``): what each kind of target becomes.

A FIFO or a device is written through, as the shell's ``>`` does, and stays what it is; a
symlink keeps pointing at its file, which gets the new data; an existing file keeps its owner
and mode, a new one gets the umask's; a read-only file is refused. Temporary files a killed
process left beside the target are removed at the next write, and only those.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer.core.errors import WriteError
from msgviewer.document import Document
from msgviewer.formats.io import atomic_write
from msgviewer.formats.safe_write import TEMP_TAG, write_file
from tests.unprivileged import NOBODY, as_ordinary_user, ordinary_tmp  # noqa: F401

CONV = mv.Conversation((mv.Message.user("What is 2+2?"), mv.Message.assistant("4")))
DATA = mv.dumps(CONV)


def test_the_old_name_still_writes() -> None:
    assert atomic_write is write_file


def test_a_fifo_is_written_through_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    mv.dump(CONV, fifo)
    reader.join(10)
    if reader.is_alive():  # nothing came through the FIFO: let the reader go, then fail
        with open(os.open(fifo, os.O_RDWR | os.O_NONBLOCK), "wb"):
            pass
        reader.join(10)
    assert got == [DATA]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]


def test_a_character_device_is_written_through_and_stays_one(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # a /dev/null of our own: never risk the real one
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = Path("/dev/null")
    write_file(device, DATA)
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert os.stat(device).st_rdev == os.makedev(1, 3)


def test_dev_stdout_is_written_through(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from msgviewer.formats import dump, load; "
            "dump(load(sys.argv[1]), '/dev/stdout')",
            str(_sample(tmp_path)),
        ],
        capture_output=True,
        env=_env(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == DATA


def test_a_symlink_is_kept_and_its_target_saved(tmp_path: Path) -> None:
    real = _sample(tmp_path / "data")
    link = tmp_path / "link.json"
    link.symlink_to(os.path.relpath(real, tmp_path))
    (doc,) = Document.load(link)
    doc.edit(lambda ms: [*ms, mv.Message.user("more")], "more")
    doc.save()
    assert link.is_symlink() and os.readlink(link) == "data/run.json"
    assert [m.text for m in mv.load(real)[0].messages][-1] == "more"
    assert sorted(os.listdir(tmp_path)) == ["data", "link.json"]
    assert os.listdir(tmp_path / "data") == ["run.json"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    mv.dump(CONV, link)
    assert link.is_symlink() and (tmp_path / "made.json").read_bytes() == DATA


def test_an_existing_files_mode_is_kept(tmp_path: Path) -> None:
    path = _sample(tmp_path)
    os.chmod(path, 0o640)
    mv.dump(CONV, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_an_existing_files_owner_is_kept(tmp_path: Path) -> None:
    path = _sample(tmp_path)
    os.chown(path, NOBODY, NOBODY)
    os.chmod(path, 0o604)
    mv.dump(CONV, path)
    info = os.stat(path)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (NOBODY, NOBODY, 0o604)


def test_someone_elses_file_is_written_in_place_keeping_its_owner(ordinary_tmp: Path) -> None:  # noqa: F811
    if os.geteuid() != 0:
        pytest.skip("needs a file owned by another user that this one may write")
    path = ordinary_tmp / "theirs.json"
    path.write_bytes(b"{}")
    os.chmod(path, 0o666)  # root's file, writable by anyone: an ordinary user cannot chown
    inode = os.stat(path).st_ino
    assert as_ordinary_user(lambda: mv.dump(CONV, path)) == "ok"
    info = os.stat(path)
    assert (info.st_uid, info.st_ino, path.read_bytes()) == (0, inode, DATA)


def test_a_new_file_honours_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        mv.dump(CONV, tmp_path / "new.json")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o600


def test_a_read_only_file_is_refused(ordinary_tmp: Path) -> None:  # noqa: F811
    path = ordinary_tmp / "run.json"
    path.write_bytes(b"{}")
    if os.geteuid() == 0:
        os.chown(path, NOBODY, NOBODY)
    os.chmod(path, 0o444)
    outcome = as_ordinary_user(lambda: mv.dump(CONV, path))
    assert outcome == f"WriteError: {path}: cannot write: the file is read-only (permission denied)"
    assert path.read_bytes() == b"{}"
    assert os.listdir(ordinary_tmp) == ["run.json"]


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="is a directory"):
        mv.dump(CONV, tmp_path)


# -- temporary files left behind ----------------------------------------------------------------


def test_stale_temporary_files_are_removed_at_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "run.json"
    gone = _dead_pid()
    mine = os.getpid()
    names = {
        "dead": f".run.json.{TEMP_TAG}-{gone}-0123abcd",  # its process is gone
        "old": f".run.json.{TEMP_TAG}-{mine}-89abcdef",  # alive, but not written for hours
        "busy": f".run.json.{TEMP_TAG}-{mine}-00ff00ff",  # alive and fresh: a save under way
        "other target": f".other.json.{TEMP_TAG}-{gone}-0123abcd",
        "not ours": ".run.json.abc123xy.tmp",
        "not quite ours": f".run.json.{TEMP_TAG}-{gone}-notours",
    }
    for name in names.values():
        (tmp_path / name).write_bytes(b"partial")
    hours_ago = time.time() - 3 * 3600
    os.utime(tmp_path / names["old"], (hours_ago, hours_ago))
    mv.dump(CONV, target)
    kept = set(os.listdir(tmp_path))
    assert kept == {"run.json"} | {names[k] for k in names if k not in ("dead", "old")}


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    path = _sample(tmp_path)
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(WriteError, match=r"run.json: cannot write: no space left on device"):
        mv.dump(mv.Conversation((mv.Message.user("x"),)), path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["run.json"]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _sample(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "run.json"
    mv.dump(CONV, path)
    return path


def _env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parents[2])
    return {**os.environ, "PYTHONPATH": root}


def test_pieces_are_written_one_after_the_other(tmp_path: Path) -> None:
    path = tmp_path / "spliced.json"
    path.write_bytes(b"old")
    kept = memoryview(b'{"kept": 1, "edited": 2}')
    write_file(path, [kept[:22], b"3", kept[23:]])
    assert path.read_bytes() == b'{"kept": 1, "edited": 3}'
    assert os.listdir(tmp_path) == ["spliced.json"]
