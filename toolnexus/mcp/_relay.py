"""The relay of a server's elicitations (how a pre-2026 server asks for input in the middle of a
call) to the calls of `mcp_tools_from`'s tools: `ElicitationRelay`."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.client.session import ClientRequestContext

from toolnexus._result import Request
from toolnexus._tool import ToolContext

__all__ = ["ElicitationRelay"]

#: The key under which a relayed elicitation sits in the `input_required` shape the adapters read.
_ELICITATION_KEY = "elicitation"


@dataclass(eq=False)
class _Flight:
    """A call in flight over a session with an `ElicitationRelay`, and the elicitation it waits on."""

    task: asyncio.Task[Any] | None = None
    asked: asyncio.Future[types.ElicitRequestParams] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    reply: asyncio.Future[types.ElicitResult] | None = None
    request: Request | None = None
    ctx: ToolContext | None = None
    timer: asyncio.TimerHandle | None = None
    #: Seconds left of the call's timeout, spent only while the server is waited on (not
    #: while a person answers its elicitation); None: no timeout.
    budget: float | None = None


class ElicitationRelay:
    """The `elicitation_callback` of a `ClientSession` whose tools `mcp_tools_from` wraps: a
    server's elicitation (how a pre-2026 server asks for input in the middle of a call)
    becomes a suspension of the tool call that is waiting, and the toolkit's answer goes
    back as the elicitation's result when the tool runs again.

    The MCP call stays open meanwhile, so the answer must come to this process (through
    `Toolkit.run_calls(wait_for=...)`, or `resume` here) within `wait` seconds, after which
    the elicitation is cancelled (a refusal never reaches the tool, so it ends this way too).
    An elicitation does not say which call it belongs to, so the relay lets one call at a time
    be the one that may ask: a call is sent once every other call of the session has asked
    (and waits on its answer) or ended, and an answer goes back to the server once no other
    call may ask. Calls that never ask so run one after another; every elicitation reaches its
    own call. One outside any call is declined.

        relay = ElicitationRelay()
        async with ClientSession(read, write, elicitation_callback=relay) as session:
            await session.initialize()
            tools = await mcp_tools_from(session, elicitations=relay)
    """

    def __init__(self, *, wait: float = 600.0) -> None:
        self.wait = wait
        self._parked: dict[str, _Flight] = {}
        #: The call that may ask now (sent, or answered, and not asking), and the event set
        #: whenever no call may.
        self._speaker: _Flight | None = None
        self._quiet = asyncio.Event()
        self._quiet.set()

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        flight = self._speaker
        if flight is None or flight.asked.done():
            return types.ElicitResult(action="decline")
        flight.reply = asyncio.get_running_loop().create_future()
        flight.asked.set_result(params)
        self._hush(flight)
        return await flight.reply

    async def _speak(self, flight: _Flight) -> None:
        """Waits until no other call may ask, then makes `flight` the one that may."""
        while self._speaker is not None and self._speaker is not flight:
            await self._quiet.wait()
        self._speaker = flight
        self._quiet.clear()

    def _hush(self, flight: _Flight) -> None:
        """`flight` asks, or ended: another call may ask now."""
        if self._speaker is flight:
            self._speaker = None
            self._quiet.set()

    async def _reply(self, flight: _Flight, result: types.ElicitResult) -> None:
        """Answers the elicitation `flight` waits on, once it may ask again (the server goes on
        with the call, which may ask again)."""
        reply, flight.reply = flight.reply, None
        flight.asked = asyncio.get_running_loop().create_future()
        if reply is not None and not reply.done():
            await self._speak(flight)
            if not reply.done():
                reply.set_result(result)

    def _open(self) -> _Flight:
        return _Flight()

    def _close(self, flight: _Flight) -> None:
        self._hush(flight)
        if flight.request is not None:
            self._parked.pop(flight.request.id, None)
        if flight.timer is not None:
            flight.timer.cancel()
        if flight.reply is not None and not flight.reply.done():
            # The call ended while its elicitation waited: no one needs the answer now.
            flight.reply.set_result(types.ElicitResult(action="cancel"))

    def _park(self, flight: _Flight, request: Request) -> None:
        flight.request = request
        self._parked[request.id] = flight
        flight.timer = asyncio.get_running_loop().call_later(self.wait, self._expire, flight)
        if flight.task is not None:
            flight.task.add_done_callback(lambda _: self._ended_parked(flight, request))

    def _ended_parked(self, flight: _Flight, request: Request) -> None:
        """A parked call ended while its elicitation waited (the server gave up on it): the
        elicitation is cancelled; an answer to it then just returns the call's result."""
        if self._parked.get(request.id) is flight and flight.reply is not None and not flight.reply.done():
            flight.reply.set_result(types.ElicitResult(action="cancel"))
            flight.reply = None

    def _take(self, request_id: str) -> _Flight | None:
        flight = self._parked.pop(request_id, None)
        if flight is not None and flight.timer is not None:
            flight.timer.cancel()
            flight.timer = None
        return flight

    def _expire(self, flight: _Flight) -> None:
        """No answer came in time: cancel the elicitation, and drop the call's result."""
        if flight.request is not None:
            self._parked.pop(flight.request.id, None)
        if flight.task is not None:
            flight.task.add_done_callback(lambda t: self._close(flight))
        if flight.reply is not None and not flight.reply.done():
            cancelling = asyncio.ensure_future(self._reply(flight, types.ElicitResult(action="cancel")))
            cancelling.add_done_callback(_retrieved)


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()
