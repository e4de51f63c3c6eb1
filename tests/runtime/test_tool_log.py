"""`ToolContext.log(level, message, **data)`: a tool's log line reaches Python's `logging`
(the `toolnexus.tools` logger), `Toolkit(on_log=...)` and a turn's `log=` hook, and over MCP
the client as `notifications/message`, at the level it set with `logging/setLevel` (handshake
versions) or asked for in the request's `_meta` (2026-07-28)."""

from __future__ import annotations

import logging
import warnings
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from toolnexus import ToolCall, ToolContext, Toolkit, define_tool, tool
from toolnexus.mcp import mcp_server


@tool
def migrate(table: str, ctx: ToolContext) -> str:
    """Migrate a table."""
    ctx.log("debug", "counting rows")
    ctx.log("info", f"migrating {table}", rows=3)
    ctx.log("warning", "one row skipped", row=2)
    return "migrated"


@tool
async def migrate_async(table: str, ctx: ToolContext) -> str:
    """Migrate a table, asynchronously."""
    ctx.log("notice", f"migrating {table}")
    return "migrated"


async def test_a_log_line_goes_to_python_logging(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="toolnexus.tools"):
        await migrate.call({"table": "orders"}, ToolContext(call_id="c1"))
    got = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    assert got == [
        ("toolnexus.tools", logging.DEBUG, "call c1: counting rows"),
        ("toolnexus.tools", logging.INFO, "call c1: migrating orders"),
        ("toolnexus.tools", logging.WARNING, "call c1: one row skipped"),
    ]
    assert [(r.toolnexus_call, r.toolnexus_data) for r in caplog.records][1] == ("c1", {"rows": 3})  # type: ignore[attr-defined]


def test_an_unknown_level_or_a_message_that_is_not_text_is_refused() -> None:
    with pytest.raises(ValueError, match="log takes a level of debug, info, notice, warning, error"):
        ToolContext().log("verbose", "x")
    with pytest.raises(TypeError, match="log takes a str message, got int"):
        ToolContext().log("info", 3)  # type: ignore[arg-type]


async def test_a_log_line_reaches_the_toolkit_and_the_turn() -> None:
    heard: list[tuple[Any, ...]] = []
    turn: list[tuple[Any, ...]] = []
    kit = Toolkit([migrate, migrate_async], on_log=lambda *line: heard.append(line))
    calls = [
        ToolCall("c1", "migrate", {"table": "orders"}),
        ToolCall("c2", "migrate_async", {"table": "users"}),
    ]
    run = await kit.run_calls(calls, log=lambda *line: turn.append(line))
    assert run.status == "done"
    assert (
        sorted(heard)
        == sorted(turn)
        == sorted(
            [
                ("c1", "debug", "counting rows", {}),
                ("c1", "info", "migrating orders", {"rows": 3}),
                ("c1", "warning", "one row skipped", {"row": 2}),
                ("c2", "notice", "migrating users", {}),
            ]
        )
    )


def _kit() -> Toolkit:
    return Toolkit([migrate, define_tool("quiet", "Says nothing", None, lambda args, ctx: "ok")])


async def test_over_mcp_a_handshake_client_gets_notifications_message_from_the_level_it_set() -> None:
    got: list[types.LoggingMessageNotificationParams] = []

    async def heard(params: types.LoggingMessageNotificationParams) -> None:
        got.append(params)

    async with Client(mcp_server(_kit()), mode="legacy", logging_callback=heard) as client:
        assert client.server_capabilities is not None and client.server_capabilities.logging is not None
        result = await client.call_tool("migrate", {"table": "orders"})
        assert not result.is_error
        assert [(p.level, p.logger, p.data) for p in got] == [
            ("debug", "migrate", "counting rows"),
            ("info", "migrate", {"message": "migrating orders", "data": {"rows": 3}}),
            ("warning", "migrate", {"message": "one row skipped", "data": {"row": 2}}),
        ]
        got.clear()
        with warnings.catch_warnings():  # the SDK deprecates logging/setLevel at 2026-07-28
            warnings.simplefilter("ignore")
            await client.set_logging_level("warning")
        await client.call_tool("migrate", {"table": "orders"})
        assert [(p.level, p.data) for p in got] == [
            ("warning", {"message": "one row skipped", "data": {"row": 2}})
        ]


@pytest.mark.parametrize("level", [None, "info"])
async def test_over_mcp_a_modern_client_gets_what_its_request_asks_for(level: str | None) -> None:
    got: list[types.LoggingMessageNotificationParams] = []

    async def heard(params: types.LoggingMessageNotificationParams) -> None:
        got.append(params)

    async with Client(mcp_server(_kit()), logging_callback=heard, log_level=level) as client:  # type: ignore[arg-type]
        assert client.protocol_version == "2026-07-28"
        assert not (await client.call_tool("migrate", {"table": "orders"})).is_error
    if level is None:  # no opt-in: nothing is sent
        assert got == []
    else:
        assert [p.level for p in got] == ["info", "warning"]
