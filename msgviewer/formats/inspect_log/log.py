"""The Inspect log around the messages: recognising a log, its usage (``model_usage`` and the
sample's model events), reading its samples into conversations and writing them back into the
same log, or into a new small log for conversations from other formats.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

import orjson

from ...core.errors import FormatError
from ...core.serialize import usage_to_dict
from ...core.usage import Usage
from ..base import Context, Conversation
from ..io import json_bytes
from . import eval_zip
from .read_messages import Reader
from .write_messages import Writer

FORMAT_NAME = "inspect"
_USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "input_tokens_cache_write",
    "input_tokens_cache_read",
    "reasoning_tokens",
)


def sniff(value: Any) -> bool:
    """An object whose ``eval`` is an object, beside ``samples`` or ``version``."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("eval"), dict)
        and ("samples" in value or "version" in value)
    )


# -- usage --------------------------------------------------------------------------------


def usage_from_inspect(raw: dict[str, Any]) -> Usage:
    """Inspect ``ModelUsage`` -> normalised ``Usage`` (the raw dict kept in ``extra``).

    Providers fill Inspect's fields with their own conventions: Anthropic's ``input_tokens``
    leaves the cache out, Gemini's ``output_tokens`` leaves reasoning out. ``total_tokens``
    tells which convention was used, so the sums are added back only where it says so.
    """
    n = {k: raw.get(k) if isinstance(raw.get(k), int) else 0 for k in _USAGE_KEYS}
    inp, out, total = n["input_tokens"], n["output_tokens"], n["total_tokens"]
    cache_read, cache_write = n["input_tokens_cache_read"], n["input_tokens_cache_write"]
    reasoning = n["reasoning_tokens"]
    cache = cache_read + cache_write
    if cache and total in (inp + cache + out, inp + cache + out + reasoning):
        inp += cache
    if reasoning and total == inp + out + reasoning:
        out += reasoning
    return Usage(
        input_tokens=inp,
        output_tokens=out,
        total_tokens=total or inp + out,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        reasoning_tokens=reasoning,
        extra=dict(raw),
    )


def usage_to_inspect(usage: Usage) -> dict[str, Any]:
    """Normalised usage -> Inspect ``ModelUsage`` (input counts the cache, as for OpenAI)."""
    out: dict[str, Any] = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
    }
    if usage.cache_write_tokens:
        out["input_tokens_cache_write"] = usage.cache_write_tokens
    if usage.cache_read_tokens:
        out["input_tokens_cache_read"] = usage.cache_read_tokens
    if usage.reasoning_tokens:
        out["reasoning_tokens"] = usage.reasoning_tokens
    return out


def _model_usage(value: Any, ctx: Context, path: str) -> dict[str, Usage]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ctx.error("model_usage must be an object of model -> usage", path)
    out = {}
    for model, raw in value.items():
        if not isinstance(raw, dict):
            raise ctx.error("model usage must be an object", f"{path}[{_key(model)}]")
        for key in _USAGE_KEYS:
            v = raw.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise ctx.error(f"{key} must be a whole number", f"{path}[{_key(model)}].{key}")
        out[model] = usage_from_inspect(raw)
    return out


def _key(name: str) -> str:
    return orjson.dumps(name).decode()


def _event_usage(events: Any) -> dict[str, Usage]:
    """Usage of each generated message, by message id, from the sample's model events."""
    out: dict[str, Usage] = {}
    if not isinstance(events, list):
        return out
    for event in events:
        if not isinstance(event, dict) or event.get("event") != "model":
            continue
        output = event.get("output")
        if not isinstance(output, dict) or not isinstance(output.get("usage"), dict):
            continue
        choices = output.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            continue
        message = choices[0].get("message")
        if isinstance(message, dict) and isinstance(message.get("id"), str):
            out[message["id"]] = usage_from_inspect(output["usage"])
    return out


def read(value: Any, ctx: Context, *, quick_path: bool = True) -> list[Conversation]:
    """The samples of an eval log, one conversation each (a log without samples gives none).

    ``quick_path=False`` reads every message carefully (the quick path's tests compare the two).
    """
    if not sniff(value):
        raise ctx.error('not an Inspect eval log: expected an object with an "eval" object')
    samples = value.get("samples")
    if samples is None:
        samples = []
    if not isinstance(samples, list):
        raise ctx.error("samples must be an array", "$.samples")
    keys = list(value)
    log = {k: v for k, v in value.items() if k != "samples"}
    where = {"samples_at": keys.index("samples") if "samples" in value else len(keys)}
    log_usage = _log_usage(log, ctx)
    return [
        _read_sample(s, f"$.samples[{i}]", log, where, log_usage, ctx, quick_path)
        for i, s in enumerate(samples)
    ]


def _log_usage(log: dict[str, Any], ctx: Context) -> dict[str, Usage]:
    stats = log.get("stats")
    return _model_usage(
        stats.get("model_usage") if isinstance(stats, dict) else None, ctx, "$.stats.model_usage"
    )


def read_eval(data: bytes, ctx: Context, *, quick_path: bool = True) -> list[Conversation]:
    """The samples of a zipped ``.eval`` log, as the JSON reader gives them for the same log."""
    log, samples, kept = eval_zip.read_archive(data, ctx)
    head = kept["head"]
    try:
        log_usage = _log_usage(log, ctx)
    except FormatError as exc:
        raise eval_zip.located(exc, head) from None
    out = []
    for member, sample in samples:
        try:
            conv = _read_sample(sample, "$", log, {}, log_usage, ctx, quick_path)
        except FormatError as exc:
            raise eval_zip.located(exc, member) from None
        conv.metadata[FORMAT_NAME].update(eval=kept, member=member)
        out.append(conv)
    return out


def _read_sample(
    sample: Any,
    path: str,
    log: dict[str, Any],
    where: dict[str, int],
    log_usage: dict[str, Usage],
    ctx: Context,
    quick_path: bool,
) -> Conversation:
    if not isinstance(sample, dict):
        raise ctx.error("a sample must be an object", path)
    raw_messages = sample.get("messages")
    if not isinstance(raw_messages, list):
        raise ctx.error("a sample needs a messages array", f"{path}.messages")
    reader = Reader(
        ctx, sample.get("attachments"), _event_usage(sample.get("events")), quick_path=quick_path
    )
    messages = reader.messages(raw_messages, f"{path}.messages")
    usage = _model_usage(sample.get("model_usage"), ctx, f"{path}.model_usage")
    scope = "sample"
    if not usage:
        usage, scope = log_usage, "log"
    metadata: dict[str, Any] = {}
    model = log["eval"].get("model")
    if isinstance(model, str):
        metadata["model"] = model
    if usage:
        metadata["usage"] = {m: usage_to_dict(u) for m, u in usage.items()}
        metadata["usage_scope"] = scope
    metadata[FORMAT_NAME] = {
        "log": log,
        "sample": {k: v for k, v in sample.items() if k != "messages"},
        "messages_at": list(sample).index("messages"),
        "references": list(reader.referenced),
        **where,
    }
    return Conversation(messages, FORMAT_NAME, metadata, _title(log["eval"], sample))


def _title(spec: dict[str, Any], sample: dict[str, Any]) -> str:
    task = spec.get("task") if isinstance(spec.get("task"), str) else "sample"
    title = f"{task} #{sample.get('id')}"
    epoch = sample.get("epoch")
    return f"{title} (epoch {epoch})" if isinstance(epoch, int) and epoch != 1 else title


def _insert(d: dict[str, Any], key: str, value: Any, at: Any) -> dict[str, Any]:
    """``d`` with ``key`` put back at position ``at`` (key order kept for readable diffs)."""
    items = [(k, v) for k, v in d.items() if k != key]
    at = at if isinstance(at, int) and 0 <= at <= len(items) else len(items)
    items.insert(at, (key, value))
    return dict(items)


def _origin(conv: Conversation) -> dict[str, Any] | None:
    found = conv.metadata.get(FORMAT_NAME)
    if (
        isinstance(found, dict)
        and isinstance(found.get("log"), dict)
        and isinstance(found.get("sample"), dict)
    ):
        return found
    return None


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One eval log holding every conversation as a sample: a zipped ``.eval`` log when the
    conversations were read from one, else a JSON log."""
    if all(_origin(c) is None and not c.messages for c in conversations):
        raise ctx.error(
            "nothing to write: no conversation has messages, and an Inspect log's header "
            "(eval spec, plan, results) travels with its samples' conversations, so a log "
            "without samples cannot be written back"
        )
    origins = [_origin(c) for c in conversations]
    first = next((o for o in origins if o is not None), None)
    samples: list[dict[str, Any]] = [{} for _ in conversations]
    foreign: list[tuple[int, Conversation]] = []
    for j, (conv, origin) in enumerate(zip(conversations, origins, strict=True)):
        if origin is None:
            foreign.append((j, conv))
            continue
        if (
            first is not None
            and origin["log"] is not first["log"]
            and origin["log"] != first["log"]
        ):
            ctx.lossy("the header of a second eval log (its samples are kept)", f"conversation {j}")
        writer = Writer(
            ctx,
            native=True,
            attachments=origin["sample"].get("attachments"),
            referenced=origin.get("references"),
        )
        messages = writer.messages(conv.messages)
        samples[j] = _insert(origin["sample"], "messages", messages, origin.get("messages_at"))
    taken = {s.get("id") for s in samples if s}
    next_id = 1
    for j, conv in foreign:
        while next_id in taken:
            next_id += 1
        samples[j] = _foreign_sample(conv, next_id, ctx)
        taken.add(next_id)
    if first is not None and isinstance(first.get("eval"), dict):
        kept = first["eval"]
        # (equal, not only the same object: conversations back from a native file or a copy)
        members = [
            o.get("member") if o is not None and _same(o.get("eval"), kept) else None
            for o in origins
        ]
        return eval_zip.write_archive(kept, list(zip(members, samples, strict=True)), ctx)
    if first is not None:
        log = _insert(first["log"], "samples", samples, first.get("samples_at"))
    else:
        log = _new_log([c for _, c in foreign], samples)
    return json_bytes(log, pretty=True)


def _same(a: Any, b: Any) -> bool:
    return a is b or a == b


def _conversation_model(conv: Conversation) -> str:
    model = conv.metadata.get("model")
    if isinstance(model, str):
        return model
    for msg in conv.messages:
        if msg.model:
            return msg.model
    return "unknown"


def _foreign_sample(conv: Conversation, sample_id: int, ctx: Context) -> dict[str, Any]:
    messages = Writer(ctx, native=False).messages(conv.messages)
    first_reply = next((k for k, m in enumerate(messages) if m["role"] == "assistant"), None)
    sample: dict[str, Any] = {
        "id": sample_id,
        "epoch": 1,
        "input": messages[:first_reply] if first_reply is not None else messages,
        "target": "",
        "messages": messages,
    }
    metadata = dict(conv.metadata)
    if conv.title is not None:
        metadata.setdefault("title", conv.title)
    if metadata:
        sample["metadata"] = metadata
    usage = _usage_by_model(conv)
    if usage:
        sample["model_usage"] = {m: usage_to_inspect(u) for m, u in usage.items()}
        where = next(k for k, m in enumerate(conv.messages) if m.usage is not None)
        ctx.lossy("per-message usage (kept as per-model totals)", f"message {where}")
    return sample


def _usage_by_model(conv: Conversation) -> dict[str, Usage]:
    default = _conversation_model(conv)
    out: dict[str, Usage] = {}
    for msg in conv.messages:
        if msg.usage is not None:
            model = msg.model or default
            out[model] = out[model] + msg.usage if model in out else msg.usage
    return out


def _new_log(convs: list[Conversation], samples: list[dict[str, Any]]) -> dict[str, Any]:
    """The smallest log Inspect reads: an eval spec, an empty plan, results and stats."""
    model = _conversation_model(convs[0]) if convs else "unknown"
    digest = hashlib.sha256(json_bytes(samples)).hexdigest()  # (an integer past 64 bits too)
    totals: dict[str, Usage] = {}
    for conv in convs:
        for m, u in _usage_by_model(conv).items():
            totals[m] = totals[m] + u if m in totals else u
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "eval_id": digest[:22],
            "run_id": digest[22:44],
            "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "task": "msgviewer",
            "task_id": digest[44:64],
            "task_version": 0,
            "dataset": {"samples": len(samples), "sample_ids": [s["id"] for s in samples]},
            "model": model,
            "config": {},
        },
        "plan": {"name": "plan", "steps": [], "config": {}},
        "results": {"total_samples": len(samples), "completed_samples": len(samples)},
        "stats": {
            "started_at": "",
            "completed_at": "",
            "model_usage": {m: usage_to_inspect(u) for m, u in totals.items()},
        },
        "samples": samples,
    }
