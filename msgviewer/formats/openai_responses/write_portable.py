"""Items of a Codex rollout made into Responses API input items: only the fields the Responses
input types define (openai SDK 3.54, ``ResponseInputItemParam``), each loss reported.

Codex writes Responses items with fields and item types of its own (a ``status`` on custom tool
calls, ``ghost_snapshot`` items, a ``local_shell_call`` without the item id the API gives it).
Writing a Codex conversation back as Codex keeps them all; a Responses request cannot hold them.
"""

from __future__ import annotations

from typing import Any

from ..io import json_bytes
from ..shared.openai import Drops

# Per input item type: the fields the SDK's TypedDict defines, and those it requires.
_MESSAGE = frozenset({"type", "id", "role", "content", "status", "phase"})
INPUT_ITEMS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "message": (_MESSAGE, frozenset({"role", "content"})),
    "file_search_call": (
        frozenset({"type", "id", "queries", "results", "status"}),
        frozenset({"id", "queries", "status"}),
    ),
    "computer_call": (
        frozenset(
            {"type", "id", "call_id", "action", "actions", "pending_safety_checks", "status"}
        ),
        frozenset({"id", "call_id", "pending_safety_checks", "status"}),
    ),
    "computer_call_output": (
        frozenset({"type", "id", "call_id", "output", "acknowledged_safety_checks", "status"}),
        frozenset({"call_id", "output"}),
    ),
    "web_search_call": (
        frozenset({"type", "id", "action", "status"}),
        frozenset({"id", "action", "status"}),
    ),
    "function_call": (
        frozenset(
            {"type", "id", "call_id", "name", "arguments", "namespace", "caller", "async", "status"}
        ),
        frozenset({"call_id", "name", "arguments"}),
    ),
    "function_call_output": (
        frozenset({"type", "id", "call_id", "output", "name", "namespace", "caller", "status"}),
        frozenset({"output"}),
    ),
    "tool_search_call": (
        frozenset({"type", "id", "call_id", "arguments", "execution", "status"}),
        frozenset({"arguments"}),
    ),
    "tool_search_output": (
        frozenset({"type", "id", "call_id", "tools", "execution", "status"}),
        frozenset({"tools"}),
    ),
    "reasoning": (
        frozenset({"type", "id", "summary", "content", "encrypted_content", "status"}),
        frozenset({"id", "summary"}),
    ),
    "compaction": (
        frozenset({"type", "id", "encrypted_content"}),
        frozenset({"encrypted_content"}),
    ),
    "image_generation_call": (
        frozenset(
            {
                "type",
                "id",
                "action",
                "background",
                "error",
                "output_format",
                "quality",
                "result",
                "revised_prompt",
                "size",
                "status",
                "svg_usage",
            }
        ),
        frozenset({"id", "result", "status"}),
    ),
    "code_interpreter_call": (
        frozenset({"type", "id", "code", "container_id", "outputs", "status"}),
        frozenset({"id", "code", "container_id", "outputs", "status"}),
    ),
    "local_shell_call": (
        frozenset({"type", "id", "call_id", "action", "status"}),
        frozenset({"id", "call_id", "action", "status"}),
    ),
    "local_shell_call_output": (
        frozenset({"type", "id", "output", "status"}),
        frozenset({"id", "output"}),
    ),
    "shell_call": (
        frozenset({"type", "id", "call_id", "action", "caller", "environment", "status"}),
        frozenset({"call_id", "action"}),
    ),
    "shell_call_output": (
        frozenset({"type", "id", "call_id", "output", "caller", "max_output_length", "status"}),
        frozenset({"call_id", "output"}),
    ),
    "apply_patch_call": (
        frozenset({"type", "id", "call_id", "operation", "caller", "status"}),
        frozenset({"call_id", "operation", "status"}),
    ),
    "apply_patch_call_output": (
        frozenset({"type", "id", "call_id", "output", "caller", "status"}),
        frozenset({"call_id", "status"}),
    ),
    "mcp_list_tools": (
        frozenset({"type", "id", "server_label", "tools", "error"}),
        frozenset({"id", "server_label", "tools"}),
    ),
    "mcp_approval_request": (
        frozenset({"type", "id", "name", "arguments", "server_label"}),
        frozenset({"id", "name", "arguments", "server_label"}),
    ),
    "mcp_approval_response": (
        frozenset({"type", "id", "approval_request_id", "approve", "reason"}),
        frozenset({"approval_request_id", "approve"}),
    ),
    "mcp_call": (
        frozenset(
            {
                "type",
                "id",
                "name",
                "arguments",
                "server_label",
                "output",
                "error",
                "approval_request_id",
                "status",
            }
        ),
        frozenset({"id", "name", "arguments", "server_label"}),
    ),
    "custom_tool_call": (
        frozenset({"type", "id", "call_id", "name", "input", "namespace", "caller", "async"}),
        frozenset({"call_id", "name", "input"}),
    ),
    "custom_tool_call_output": (
        frozenset({"type", "id", "call_id", "output", "caller"}),
        frozenset({"call_id", "output"}),
    ),
    "compaction_trigger": (frozenset({"type", "id"}), frozenset()),
    "item_reference": (frozenset({"type", "id"}), frozenset({"id"})),
    "program": (
        frozenset({"type", "id", "call_id", "code", "fingerprint"}),
        frozenset({"id", "call_id", "code", "fingerprint"}),
    ),
    "program_output": (
        frozenset({"type", "id", "call_id", "result", "status"}),
        frozenset({"id", "call_id", "result", "status"}),
    ),
}


def portable_item(item: dict[str, Any], drops: Drops, where: str) -> dict[str, Any] | None:
    """``item`` as a Responses input item (None when there is none for it), losses reported.

    A ``local_shell_call`` without its item id (Codex records none, and answers the call with a
    ``function_call_output`` by ``call_id``, where a ``local_shell_call_output`` refers to the
    call by that id) becomes a function call named ``local_shell`` whose arguments are the
    action, so the call and its output stay a pair the API takes.
    """
    kind = item.get("type", "message")
    if kind == "local_shell_call" and not isinstance(item.get("id"), str):
        what = "the local_shell_call type (no item id: written as function calls, local_shell)"
        drops.add(what, where)
        call = {"type": "function_call", "call_id": item.get("call_id", ""), "name": "local_shell"}
        call["arguments"] = json_bytes(item.get("action", {})).decode()
        return call
    spec = INPUT_ITEMS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        drops.add(f"{kind} items (the Responses input types have none)", where)
        return None
    fields, required = spec
    missing = sorted(required - item.keys())
    if missing:
        drops.add(
            f"{kind} items without {', '.join(missing)} (the Responses input types require it)",
            where,
        )
        return None
    extra = sorted(k for k in item if k not in fields)
    if extra:
        drops.add(f"{kind} fields {', '.join(extra)} (the Responses input types lack them)", where)
        item = {k: v for k, v in item.items() if k in fields}
    return item
