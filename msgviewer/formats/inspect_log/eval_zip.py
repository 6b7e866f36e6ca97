"""Inspect's zipped ``.eval`` logs: recognising one, reading its samples, writing it back.

An ``.eval`` file is a zip archive: ``header.json`` (the log without its samples; a log still
running has only ``_journal/start.json``), one ``samples/<id>_epoch_<epoch>.json`` per sample,
and summaries, reductions and journal members. Members are deflated, or compressed with zstd
(zip method 93), which Python's ``zipfile`` reads only from 3.14 on: before that the member's
raw bytes are decompressed here with ``backports.zstd``.

Reading gives the conversations the JSON reader gives for the same log, samples in the order
Inspect puts them in a JSON log (by epoch, then id). Every member but the samples is kept as
text in ``metadata["inspect"]["eval"]`` (one object shared by the conversations of a log), so
writing the conversations back makes the same archive with the samples rewritten and every
other member unchanged byte for byte.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Sequence
from typing import Any

import orjson

from ...core.errors import FormatError
from ..base import Context
from ..io import ZIP_MAGIC, json_bytes, loads_whole

HEADER = "header.json"
START = "_journal/start.json"
SAMPLES = "samples/"
_ZSTD = 93  # zip compression method number of zstd
_LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature ... name length, extra length
# Written members get this time when the log gives none (a fixed one: same input, same bytes).
_EPOCH = (1980, 1, 1, 0, 0, 0)


def sniff_binary(data: bytes) -> bool:
    """A zip archive holding ``header.json`` or ``_journal/start.json``, and samples.

    A damaged archive (cut short, its directory lost) is still recognised by the names in
    its members' local headers, so reading it says what is wrong rather than "not JSON".
    """
    if not data.startswith(ZIP_MAGIC):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        head = data[: 1 << 20]
        return (HEADER.encode() in head or START.encode() in head) and b"samples/" in data
    return (HEADER in names or START in names) and (
        any(n.startswith(SAMPLES) for n in names) or HEADER in names
    )


def _zstd_decompress(raw: bytes) -> bytes:
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef]
    return zstd.decompress(raw)


class Archive:
    """The members of an ``.eval`` file, read one at a time with errors naming the member."""

    def __init__(self, data: bytes, ctx: Context) -> None:
        self.data = data
        self.ctx = ctx
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            self.infos = self.zip.infolist()
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise ctx.error(f"not a readable .eval (zip) archive: {exc}") from None

    def bytes(self, info: zipfile.ZipInfo) -> bytes:
        name = info.filename
        try:
            if info.compress_type == _ZSTD:
                raw = self._raw(info)
                out = _zstd_decompress(raw)
                if zlib.crc32(out) != info.CRC:
                    raise ValueError("CRC check failed")
                return out
            return self.zip.read(info)
        except FormatError:
            raise
        except NotImplementedError as exc:
            raise self.error(f"cannot decompress it ({exc})", name) from None
        except Exception as exc:  # zlib.error, BadZipFile, zstd errors...
            raise self.error(f"damaged member ({type(exc).__name__}: {exc})", name) from None

    def _raw(self, info: zipfile.ZipInfo) -> bytes:
        at = info.header_offset
        head = self.data[at : at + _LOCAL_HEADER.size]
        if len(head) < _LOCAL_HEADER.size:
            raise self.error("its local header is cut short", info.filename)
        signature, name_len, extra_len = _LOCAL_HEADER.unpack(head)
        if signature != ZIP_MAGIC:
            raise self.error("its local header is damaged", info.filename)
        start = at + _LOCAL_HEADER.size + name_len + extra_len
        raw = self.data[start : start + info.compress_size]
        if len(raw) < info.compress_size:
            raise self.error("its data is cut short", info.filename)
        return raw

    def json(self, info: zipfile.ZipInfo) -> Any:
        raw = self.bytes(info)
        try:
            return loads_whole(raw)  # (integers past 64 bits exactly, as a .json log's)
        except orjson.JSONDecodeError as exc:
            line = getattr(exc, "lineno", None)
            where = f" (line {line})" if line else ""
            raise self.error(f"invalid JSON{where}: {exc}", info.filename) from None

    def error(self, what: str, member: str, path: str = "$") -> FormatError:
        return self.ctx.error(what, _member_path(member, path))


def _member_path(member: str, path: str = "$") -> str:
    return f"{member}: {path}"


def sample_order(sample: dict[str, Any]) -> tuple[int, str]:
    """Inspect's order of samples in a log: by epoch, then id (numbers before names)."""
    epoch = sample.get("epoch")
    sid = sample.get("id")
    return (
        epoch if isinstance(epoch, int) else 0,
        sid if isinstance(sid, str) else str(sid).zfill(20),
    )


def read_archive(data: bytes, ctx: Context) -> tuple[dict[str, Any], list[Any], dict[str, Any]]:
    """(the log without samples, [(member name, sample)] in log order, the kept members)."""
    archive = Archive(data, ctx)
    infos = {i.filename: i for i in archive.infos}
    head = HEADER if HEADER in infos else START if START in infos else None
    if head is None:
        raise ctx.error(f"an .eval archive needs {HEADER} or {START}; it has neither")
    log = archive.json(infos[head])
    if not isinstance(log, dict) or not isinstance(log.get("eval"), dict):
        raise archive.error('the log must be an object with an "eval" object', head)
    members: list[dict[str, Any]] = []
    samples: list[tuple[str, Any]] = []
    for info in archive.infos:
        entry: dict[str, Any] = {"name": info.filename, "date_time": list(info.date_time)}
        if _is_sample(info.filename):
            sample = archive.json(info)
            if not isinstance(sample, dict):
                raise archive.error("a sample must be an object", info.filename)
            samples.append((info.filename, sample))
            entry["sample"] = True
        else:
            entry.update(_as_text(archive.bytes(info)))
        members.append(entry)
    samples.sort(key=lambda pair: sample_order(pair[1]))
    return log, samples, {"head": head, "members": members}


def _is_sample(name: str) -> bool:
    return name.startswith(SAMPLES) and name.endswith(".json") and "/" not in name[len(SAMPLES) :]


def _as_text(raw: bytes) -> dict[str, str]:
    """A member's bytes as plain JSON data: its text (members are JSON), else base64."""
    try:
        return {"text": raw.decode("utf-8")}
    except UnicodeDecodeError:
        import base64

        return {"base64": base64.b64encode(raw).decode("ascii")}


def _from_text(entry: dict[str, Any]) -> bytes:
    if isinstance(entry.get("text"), str):
        return entry["text"].encode("utf-8", "surrogatepass")
    import base64

    return base64.b64decode(entry.get("base64") or "")


def located(exc: FormatError, member: str) -> FormatError:
    """An error met reading one sample, with the sample's member named before its path."""
    return exc.located(path_prefix=_member_path(member))


# -- writing ------------------------------------------------------------------------------


def write_archive(
    kept: dict[str, Any], samples: Sequence[tuple[str | None, dict[str, Any]]], ctx: Context
) -> bytes:
    """The archive ``kept`` describes, its sample members replaced by ``samples``.

    ``samples`` pairs each sample with the member it was read from (None for a new one).
    Members are kept in their order; a sample no longer there is left out, new ones follow.
    """
    members = [m for m in kept.get("members", []) if isinstance(m, dict) and "name" in m]
    by_name: dict[str, dict[str, Any]] = {}
    extra: list[tuple[str, dict[str, Any]]] = []
    used = {m["name"] for m in members}
    for member, sample in samples:
        if member is not None and member not in by_name and member in used:
            by_name[member] = sample
            continue
        name = _new_name(sample, used)
        used.add(name)
        extra.append((name, sample))
    stamp = next((tuple(m["date_time"]) for m in members if _valid_time(m)), _EPOCH)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=5) as archive:
        for m in members:
            name = m["name"]
            when = tuple(m["date_time"]) if _valid_time(m) else stamp
            if m.get("sample"):
                if name in by_name:
                    _put(archive, name, when, _sample_bytes(by_name[name]))
                continue
            _put(archive, name, when, _from_text(m))
        for name, sample in extra:
            _put(archive, name, stamp, _sample_bytes(sample))
    return out.getvalue()


def _valid_time(member: dict[str, Any]) -> bool:
    t = member.get("date_time")
    return isinstance(t, list) and len(t) == 6 and all(isinstance(x, int) for x in t)


def _put(archive: zipfile.ZipFile, name: str, when: Any, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=when)
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data, compresslevel=5)


def _sample_bytes(sample: dict[str, Any]) -> bytes:
    return json_bytes(sample, pretty=True).rstrip(b"\n")


def _new_name(sample: dict[str, Any], used: set[str]) -> str:
    base = f"{SAMPLES}{sample.get('id')}_epoch_{sample.get('epoch', 1)}"
    name, n = f"{base}.json", 1
    while name in used:
        n += 1
        name = f"{base}_{n}.json"
    return name
