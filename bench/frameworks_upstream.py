"""The upstream toolnexus Python port's loop (PyPI `toolnexus` 0.21.0), for `bench/frameworks.py`:
run in its own virtualenv (the same import name as this package, and `mcp<2`), as a child that
reads `<n> <turns>` lines and answers each with a JSON list of the turns' times: from the moment
its `http_transport` (the mock) returns a recorded completion of `n` calls of `add` to the
moment `Client.run` posts the next request, whose messages it checks.
"""

import asyncio
import json
import sys
import time

from toolnexus import Client, create_toolkit, define_tool


async def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


def completion(n):
    calls = [
        {"id": f"c{i}", "type": "function", "function": {"name": "add", "arguments": json.dumps({"a": i, "b": 2})}}
        for i in range(n)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": calls}
    return json.dumps({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1764590000, "model": "mock",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    })


DONE = {
    "id": "chatcmpl-2", "object": "chat.completion", "created": 1764590001, "model": "mock",
    "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "done"}}],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}


class Recorded:
    """The transport: the recorded calls, then "done" when asked again."""

    def __init__(self):
        self.recorded, self.n, self.asked, self.t1, self.t2 = {}, 0, 0, 0.0, 0.0

    def post(self, url, headers, payload, timeout):
        self.asked += 1
        if self.asked == 1:
            text = self.recorded.setdefault(self.n, completion(self.n))
            response = json.loads(text)  # as a client hands the body back
            self.t1 = time.perf_counter()
            return response
        self.t2 = time.perf_counter()
        got = [m["content"] for m in payload["messages"] if m.get("role") == "tool"]
        assert got == [str(i + 2) for i in range(self.n)], got[:3]
        return DONE

    def open(self, url, headers, payload, timeout):
        raise NotImplementedError


async def main():
    kit = await create_toolkit(extra_tools=[define_tool(add, name="add")], builtins=False)
    transport = Recorded()
    client = Client(base_url="http://mock", style="openai", model="mock", api_key="mock", http_transport=transport)
    for line in sys.stdin:
        n, count = map(int, line.split())
        times = []
        for _ in range(count):
            transport.n, transport.asked = n, 0
            await client.run("go", kit)
            times.append(transport.t2 - transport.t1)
        print(json.dumps(times), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
