"""Write ``msgviewer/samples/diff-fixture.json`` and ``diff-new-run.json``: a replay fixture and
a new run of the same task, for ``msgviewer diff``.

The new run differs in one tool result (Lisbon's weather), the answer built on it, its usage,
and one extra turn at the end. Run it again after changing it; the JSON is committed.
"""

from __future__ import annotations

import json
from pathlib import Path

from msgviewer import Conversation, Message, ToolCall, Usage, dumps

SAMPLES = Path(__file__).resolve().parents[1] / "msgviewer" / "samples"
MODEL = {"model": "gpt-4.1-mini"}


def run(new: bool) -> Conversation:
    """The fixture, or (``new``) the new run."""
    temp = 21 if new else 19
    sky = "sunny, light wind" if new else "sunny"
    msgs = [
        Message.system("You are a travel assistant. Use the tools for live data; answer briefly."),
        Message.user(
            "I'm taking the train from Lisbon to Porto on Friday. What's the weather in Lisbon, "
            "and do I need an umbrella in Porto?",
            id="u1",
        ),
        Message.assistant(
            "Let me check both cities.",
            id="a1",
            tool_calls=[
                ToolCall("call_w1", "get_weather", {"city": "Lisbon", "day": "friday"}),
                ToolCall("call_w2", "get_weather", {"city": "Porto", "day": "friday"}),
            ],
            usage=Usage(input_tokens=412, output_tokens=58),
            response_metadata={"model": "gpt-4.1-mini", "finish_reason": "tool_calls"},
        ),
        Message.tool(
            json.dumps({"city": "Lisbon", "temp_c": temp, "sky": sky, "rain_mm": 0}),
            tool_call_id="call_w1",
            name="get_weather",
        ),
        Message.tool(
            json.dumps({"city": "Porto", "temp_c": 15, "sky": "rain until noon", "rain_mm": 6}),
            tool_call_id="call_w2",
            name="get_weather",
        ),
        Message.assistant(
            f"Lisbon will be {sky} at {temp}°C on Friday. Porto has rain until noon (about 6 mm), "
            "so yes: pack an umbrella for the morning.",
            id="a2",
            usage=Usage(input_tokens=530, output_tokens=41 if not new else 44),
            response_metadata={"model": "gpt-4.1-mini", "finish_reason": "stop"},
        ),
    ]
    if new:
        msgs += [
            Message.user("And is the 9:00 train on time?", id="u2"),
            Message.assistant(
                "I can't see live train status; check the CP app or cp.pt on the morning of "
                "travel.",
                id="a3",
                usage=Usage(input_tokens=590, output_tokens=27),
                response_metadata={"model": "gpt-4.1-mini", "finish_reason": "stop"},
            ),
        ]
    return Conversation(
        tuple(msgs),
        format="msgviewer",
        title="Weather for a Lisbon-Porto train trip" + (" (new run)" if new else ""),
        metadata={"model": "gpt-4.1-mini"},
    )


def main() -> None:
    (SAMPLES / "diff-fixture.json").write_bytes(dumps(run(False)))
    (SAMPLES / "diff-new-run.json").write_bytes(dumps(run(True)))


if __name__ == "__main__":
    main()
