"""The decisions a store keeps: policies (`store.policies`) and the decision log (`store.log`),
in the store's database, shared by the host's processes (the same rules for every `Backend`).

    toolkit = Toolkit(tools, secret=..., policy_store=store.policies, decision_log=store.log)

The log is hash-chained and anchored. Each entry holds the hash of the entry before it, and its
own hash is SHA-256 over its JSON with sorted keys (the link included). The store also keeps the
log's head: the last entry's `seq` and hash, with an HMAC-SHA256 of both under a key derived from
the writing toolkit's active key (`Toolkit(..., decision_log=store.log)` hands it over; a toolkit
without a key writes the head unkeyed). `verify()` then finds:

- an entry changed, removed from the middle, or put in out of order (the chain breaks there);
- entries removed from the end, or appended without the head (the head names another entry);
- with `verify(key)`: a log rewritten and rehashed whole, head included, by someone without the
  key (the head's MAC fails), and a head that is missing or unkeyed.

What it cannot find: a log put back whole to an earlier state, head and all (a copy of the file,
or an old head row with the entries after it removed): keep `head()` elsewhere (another host, a
ticket) and check against it with `verify(key, head=...)`. Anyone holding the key can write a log
that verifies. A log written before heads existed has none: without a key it is checked as a
chain only, and with one it is reported (its first entry) until a decision is logged again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import IO, Any

from .._engine import Decision, Policy
from ._backend import Backend

__all__ = ["DecisionLog", "Policies"]

#: The hash the first entry chains to.
_GENESIS = hashlib.sha256(b"toolnexus.decisions.v1").hexdigest()


class Policies:
    """The store's policies (a `PolicyStore`: `Toolkit(policy_store=store.policies)`)."""

    def __init__(self, db: Backend) -> None:
        self._db = db
        self._unit = db  # (one with the store's log: `Decisions.decide_all` writes both in one transaction)

    def policies(self, tool: str | None = None) -> list[Policy]:
        """The policies kept (of `tool`, when given), expired ones too, oldest first."""
        conn, order = self._db.connection(), self._db.policy_order
        if tool is None:
            rows = conn.execute(f"SELECT body FROM policies ORDER BY {order}").fetchall()
        else:
            rows = conn.execute(
                f"SELECT body FROM policies WHERE tool = ? ORDER BY {order}", (tool,)
            ).fetchall()
        return [Policy.from_wire(json.loads(body)) for (body,) in rows]

    def keep(self, policy: Policy) -> None:
        with self._db.transaction() as conn:  # a policy kept again moves to the end, as a new one
            conn.execute("DELETE FROM policies WHERE id = ?", (policy.id,))
            conn.execute(
                "INSERT INTO policies (id, tool, body, expires_at) VALUES (?, ?, ?, ?)",
                (policy.id, policy.tool, json.dumps(policy.to_wire()), policy.expires_at.isoformat()),
            )

    def revoke(self, policy_id: str) -> bool:
        """Remove a policy; False when there is none by that id."""
        with self._db.transaction() as conn:
            return conn.execute("DELETE FROM policies WHERE id = ?", (policy_id,)).rowcount == 1


class DecisionLog:
    """The store's decision log (a `DecisionLog`: `Toolkit(decision_log=store.log)`)."""

    def __init__(self, db: Backend) -> None:
        self._db = db
        self._unit = db
        self._key: tuple[str, bytes] | None = None

    def use_key(self, key_id: str, secret: bytes) -> None:
        """MAC the log's head under `secret` (the toolkit's active key, id `key_id`) from now on:
        `Toolkit(decision_log=store.log, secret=...)` calls it."""
        self._key = (key_id, _head_key(secret))

    def record(self, decision: Decision, *, principal: str | None, at: datetime) -> None:
        """Append `decision`, made by `principal` at `at`, chained to the entry before it."""
        self.record_many([decision], principal=principal, at=at)

    def record_many(self, decisions: Sequence[Decision], *, principal: str | None, at: datetime) -> None:
        """Append every one of `decisions` in one transaction: all of them, or none."""
        self.record_entries([d.to_wire() for d in decisions], principal=principal, at=at)

    def record_entries(
        self, decisions: Sequence[Mapping[str, Any]], *, principal: str | None, at: datetime
    ) -> None:
        """Append decisions in their JSON form (a `Decision.to_wire()`, or what a store decides
        itself: a call in doubt retried or settled), in one transaction."""
        with self._db.transaction() as conn:
            self._db.lock_log(conn)
            last = conn.execute("SELECT seq, hash FROM decisions ORDER BY seq DESC LIMIT 1").fetchone()
            seq, previous = (0, _GENESIS) if last is None else (last[0], last[1])
            for decision in decisions:
                seq += 1
                entry = {
                    "seq": seq,
                    "at": at.isoformat(),
                    "by": principal,
                    **decision,
                    "previous": previous,
                }
                previous = _link(entry)
                conn.execute(
                    "INSERT INTO decisions (seq, entry, hash) VALUES (?, ?, ?)",
                    (seq, json.dumps(entry, ensure_ascii=False), previous),
                )
            key_id, mac = (
                (None, None) if self._key is None else (self._key[0], _head_mac(self._key[1], seq, previous))
            )
            conn.execute(
                "INSERT INTO decisions_head (one, seq, hash, key_id, mac) VALUES (1, ?, ?, ?, ?)"
                " ON CONFLICT (one) DO UPDATE SET seq = excluded.seq, hash = excluded.hash,"
                " key_id = excluded.key_id, mac = excluded.mac",
                (seq, previous, key_id, mac),
            )

    def head(self) -> dict[str, Any] | None:
        """The log's head as the store keeps it: `seq` and `hash` of the last entry, the `key` id
        and `mac` it was made under (None when unkeyed); None before the first entry. Keep it
        elsewhere to check the log against later (`verify(key, head=...)`)."""
        try:
            row = (
                self._db.connection()
                .execute("SELECT seq, hash, key_id, mac FROM decisions_head WHERE one = 1")
                .fetchone()
            )
        except self._db.errors:  # a store made before heads existed, never written since
            return None
        if row is None:
            return None
        return {"seq": row[0], "hash": row[1], "key": row[2], "mac": row[3]}

    def entries(self) -> Iterator[dict[str, Any]]:
        """Every entry, oldest first: the decision's fields (`Decision.to_wire`), `seq`, `at`
        (when), `by` (the principal who decided), `previous` (the hash of the entry before)."""
        for (text,) in self._db.connection().execute("SELECT entry FROM decisions ORDER BY seq"):
            yield json.loads(text)

    def verify(
        self, key: bytes | Mapping[str, bytes] | None = None, *, head: Mapping[str, Any] | None = None
    ) -> int | None:
        """The `seq` of the first entry that cannot be trusted, or None when the log holds.

        The chain is checked entry by entry (an entry changed, removed before another, or out
        of order), then its end against the head (`head`, one kept elsewhere, else the store's):
        entries removed from the end give the first one missing, entries past the head the first
        of them. With `key` (the toolkit's secret, or its `secrets` by id) the head's MAC must
        hold too: a head that is missing, unkeyed, under an unknown key id or forged gives 1
        (where the log went wrong cannot be known). See the module's text for what it cannot find.
        """
        previous, expected = _GENESIS, 1
        for seq, text, stored in self._db.connection().execute(
            "SELECT seq, entry, hash FROM decisions ORDER BY seq"
        ):
            try:
                entry = _KEEP_FLOATS.decode(text)  # hashed as its writer wrote its numbers (`_written`)
            except ValueError:
                return int(seq)
            if not isinstance(entry, dict):
                return int(seq)
            if seq != expected or entry.get("seq") != seq or entry.get("previous") != previous:
                return int(seq)
            if _digest(_written(entry)) != stored:
                return int(seq)
            previous, expected = stored, expected + 1
        last = expected - 1
        anchor = head if head is not None else self.head()
        if anchor is None:
            return 1 if key is not None and last > 0 else None
        seq = anchor.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            return 1
        if seq > last:
            return last + 1  # entries removed from the end
        if seq < last:
            return seq + 1  # entries put in after the head
        if anchor.get("hash") != previous:
            return seq
        if key is None:
            return None
        secret = key if isinstance(key, bytes) else key.get(str(anchor.get("key")))
        mac = anchor.get("mac")
        if secret is None or not isinstance(mac, str):
            return 1
        if not hmac.compare_digest(mac, _head_mac(_head_key(secret), seq, previous)):
            return 1
        return None

    def export(self, out: IO[str]) -> int:
        """Write every entry to `out` as JSON lines (each with its `hash`); returns how many."""
        count = 0
        for text, stored in self._db.connection().execute("SELECT entry, hash FROM decisions ORDER BY seq"):
            entry = json.loads(text)
            entry["hash"] = stored
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
            count += 1
        return count


def _link(entry: dict[str, Any]) -> str:
    """The hash of a log entry: SHA-256 of its JSON with sorted keys, compact (it holds `previous`)."""
    return _digest(json.dumps(entry, sort_keys=True, ensure_ascii=False, separators=(",", ":")))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _written(value: Any) -> str:
    """`value` (an entry read with its numbers' text kept) as `_link` hashes it: sorted keys,
    compact, each number as its writer wrote it. TypeScript writes `1e-7` and `1` where Python
    writes `1e-07` and `1.0`; re-spelling a read number in Python's way would fail the other
    language's entries."""
    if isinstance(value, dict):
        items = sorted(value.items())
        return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{_written(v)}" for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_written(v) for v in value) + "]"
    if type(value) is _Float:
        return str(value)
    return json.dumps(value, ensure_ascii=False)


class _Float(str):
    """A fraction or exponent number of an entry, as the text it was written with."""


_KEEP_FLOATS = json.JSONDecoder(parse_float=_Float)


def _head_key(secret: bytes) -> bytes:
    """The key of the log's head MAC, derived from a toolkit key (apart from its seal's keys)."""
    return hmac.new(secret, b"toolnexus.decisions.head.v1", "sha256").digest()


def _head_mac(key: bytes, seq: int, last: str) -> str:
    """The head's MAC: HMAC-SHA256 over its `seq` and the last entry's hash."""
    return hmac.new(key, f"{seq}\n{last}".encode(), "sha256").hexdigest()
