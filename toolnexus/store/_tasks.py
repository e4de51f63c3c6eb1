"""What an MCP server keeps in a store beyond runs (`store.tasks`): its tasks (MCP's
Tasks extension, `toolnexus.mcp`) and the `requestState`s already taken, shared by the server's
processes.

A task is one tool call run in the background. Its row says where it is (`working`,
`input_required`, `completed`, `failed`, `cancelled`); while it waits on a person its run is a
row of the `runs` table (`run_id`), resumed through the store's `resume` like any other, so
the loop's rules and the one-resumer-at-a-time claim are the store's. While it runs, its
runner holds a lease it renews; a task whose lease ran out had its process die under it, and
reads as `failed`. A cancellation asked in another process is a flag the runner reads when it
renews.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal

from .._result import ToolCall
from ._backend import Backend

__all__ = ["StoredTask", "TaskStatus", "Tasks"]

#: Where a task is (MCP's task status).
TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
#: The statuses a task does not leave.
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})

#: What the row of a task whose runner's lease ran out says.
DIED_MESSAGE = "the server stopped while the call ran; it did not finish"
DIED: dict[str, Any] = {"code": -32603, "message": DIED_MESSAGE}


@dataclass(frozen=True, slots=True)
class StoredTask:
    """A task as stored. `result` is the `CallToolResult` (wire form) of a `completed` or
    `cancelled` task, `error` the JSON-RPC error of a `failed` one, `run_id` the stored run an
    `input_required` task waits on (and the run it came from, after)."""

    id: str
    status: TaskStatus
    owner: str | None
    call: ToolCall
    turn: str
    run_id: int | None
    result: dict[str, Any] | None
    error: dict[str, Any] | None
    message: str | None
    ttl_ms: int | None
    poll_ms: int
    created_at: float
    updated_at: float
    lease_until: float | None
    cancel_asked: bool

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL


_COLUMNS = (
    "id, owner, status, call, turn, run_id, result, error, message, ttl_ms, poll_ms,"
    " created_at, updated_at, lease_until, cancel_asked"
)


def _task(row: tuple[Any, ...]) -> StoredTask:
    (
        tid,
        owner,
        status,
        call,
        turn,
        run_id,
        result,
        error,
        message,
        ttl,
        poll,
        created,
        updated,
        until,
        asked,
    ) = row
    return StoredTask(
        tid,
        status,
        owner,
        ToolCall.from_json(call),
        turn,
        run_id,
        None if result is None else json.loads(result),
        None if error is None else json.loads(error),
        message,
        ttl,
        poll,
        created,
        updated,
        until,
        bool(asked),
    )


class Tasks:
    """The tasks of an MCP server in the store's database (`store.tasks`)."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    def create(
        self,
        task_id: str,
        call: ToolCall,
        turn: str,
        *,
        owner: str | None,
        ttl_ms: int | None,
        poll_ms: int,
        lease: str,
        lease_for: float,
    ) -> StoredTask:
        """Store a new `working` task, held by its runner's `lease` for `lease_for` seconds, and
        return it (committed: a `get` in any process finds it)."""
        now = time.time()
        with self._db.transaction() as conn:
            conn.execute(
                "INSERT INTO tasks (id, owner, status, call, turn, ttl_ms, poll_ms, created_at, updated_at,"
                " lease, lease_until) VALUES (?, ?, 'working', ?, ?, ?, ?, ?, ?, ?, ?)",
                (task_id, owner, call.to_json(), turn, ttl_ms, poll_ms, now, now, lease, now + lease_for),
            )
        found = self.get(task_id)
        assert found is not None
        return found

    def get(self, task_id: str) -> StoredTask | None:
        """The task `task_id`, or None. A `working` task whose runner's lease ran out is
        `failed` (its process died while the call ran), and is stored so."""
        row = (
            self._db.connection().execute(f"SELECT {_COLUMNS} FROM tasks WHERE id = ?", (task_id,)).fetchone()
        )
        if row is None:
            return None
        task = _task(row)
        if task.status == "working" and task.lease_until is not None and task.lease_until < time.time():
            self.settle(task_id, "failed", error=DIED, message=DIED_MESSAGE, expect=("working",))
            again = self._db.connection().execute(f"SELECT {_COLUMNS} FROM tasks WHERE id = ?", (task_id,))
            return _task(again.fetchone())
        return task

    def settle(
        self,
        task_id: str,
        status: TaskStatus,
        *,
        expect: tuple[TaskStatus, ...],
        lease: str | None = None,
        result: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
        message: str | None = None,
        run_id: int | None = None,
        ttl_ms: int | None = None,
        lease_for: float | None = None,
    ) -> bool:
        """Move the task to `status` when it is in one of `expect` (and, with `lease`, still held
        by it); False, changing nothing, when it is not. `lease_for` holds it for the runner
        that takes it (`working`); any other status lets the lease go."""
        now = time.time()
        sets = ["status = ?", "updated_at = ?", "message = ?"]
        args: list[Any] = [status, now, message]
        if result is not None:
            sets.append("result = ?")
            args.append(json.dumps(result, ensure_ascii=False))
        if error is not None:
            sets.append("error = ?")
            args.append(json.dumps(error))
        if run_id is not None:
            sets.append("run_id = ?")
            args.append(run_id)
        if ttl_ms is not None:
            sets.append("ttl_ms = ?")
            args.append(ttl_ms)
        if lease_for is not None:
            sets += ["lease = ?", "lease_until = ?"]
            args += [lease, now + lease_for]
        else:
            sets += ["lease = NULL", "lease_until = NULL"]
        where = f"id = ? AND status IN ({', '.join('?' * len(expect))})"
        args += [task_id, *expect]
        if lease is not None and lease_for is None:
            where += " AND lease = ?"
            args.append(lease)
        with self._db.transaction() as conn:
            return conn.execute(f"UPDATE tasks SET {', '.join(sets)} WHERE {where}", args).rowcount == 1

    def note(self, task_id: str, message: str) -> None:
        """Set the status message of a task that is working (the call's last progress message)."""
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE tasks SET message = ?, updated_at = ? WHERE id = ? AND status = 'working'",
                (message, time.time(), task_id),
            )

    def renew(self, task_id: str, lease: str, lease_for: float) -> tuple[bool, bool]:
        """Extend the runner's lease; (still held, cancellation asked)."""
        now = time.time()
        with self._db.transaction() as conn:
            held = conn.execute(
                "UPDATE tasks SET lease_until = ? WHERE id = ? AND status = 'working' AND lease = ?",
                (now + lease_for, task_id, lease),
            ).rowcount
            row = conn.execute("SELECT cancel_asked FROM tasks WHERE id = ?", (task_id,)).fetchone()
        return held == 1, bool(row and row[0])

    def ask_cancel(self, task_id: str) -> None:
        """Mark the task's cancellation asked (its runner, in whichever process, reads it)."""
        with self._db.transaction() as conn:
            conn.execute("UPDATE tasks SET cancel_asked = 1 WHERE id = ?", (task_id,))

    def spend(self, digest: str, until: float) -> bool:
        """Take a single-use token (a `requestState`'s digest) until the Unix time `until`; False
        when it was taken before (a replay). Tokens past their time are forgotten."""
        now = time.time()
        with self._db.transaction() as conn:
            conn.execute("DELETE FROM spent_states WHERE until < ?", (now,))
            return (
                conn.execute(
                    "INSERT INTO spent_states (digest, until) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING",
                    (digest, until),
                ).rowcount
                == 1
            )
