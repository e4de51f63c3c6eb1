# Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Annotations": {
  "title": "Annotations",
  "description": "Hints about a content part for the host that shows it (MCP's `Annotations` of a content block): who it is for, how much it matters, and when it last changed. Advisory: a part is valid without them, and they never change what the part holds.",
  "type": "object",
  "properties": {
   "audience": {
    "description": "Who the part is meant for: `user` (the person using the host), `assistant` (the model), or both. Absent means both. Empty is omitted (and reads as absent). A provider adapter leaves a part whose audience is `user` alone out of the model's message.",
    "type": "array",
    "items": {
     "type": "string",
     "enum": [
      "user",
      "assistant"
     ]
    },
    "default": []
   },
   "priority": {
    "description": "How much the part matters, from 0 (entirely optional) to 1 (required), as MCP has it. The number keeps its text, as every JSON number here does: `1` is written back `1`, `1.0` as `1.0`.",
    "type": "number",
    "minimum": 0,
    "maximum": 1
   },
   "lastModified": {
    "description": "When the content last changed, as an ISO 8601 date-time; kept as sent, not checked (MCP does not check it either).",
    "type": "string"
   }
  },
  "additionalProperties": true
 },
 "ContentPart": {
  "title": "ContentPart",
  "description": "One part of a tool result beyond its `output`, as every upstream toolnexus port writes it: text, an image, audio or any other file, carried inline as base64 `data` or by reference as a `url`. A part is built to carry something: a `text` part its `text`, any other part its `data`, its `url` or both (then `data` is the content and `url` where it came from; adapters send `data`). A part that carries nothing (upstream's `ContentPart::text(\"\")` writes `{\"type\":\"text\"}`) is read and kept through a round trip, but never built here, and adapters send a note in its place. An empty string field is omitted from the wire, and an absent one reads as empty. `title`, `description` and `annotations` describe the part for the host and change nothing it carries.",
  "type": "object",
  "properties": {
   "type": {
    "description": "What the part holds: `text` (in `text`), `image`, `audio`, or `file` for anything else, video included. The APIs name this field `kind`.",
    "type": "string",
    "enum": [
     "text",
     "image",
     "audio",
     "file"
    ]
   },
   "text": {
    "description": "The text of a `text` part.",
    "type": "string",
    "default": ""
   },
   "mimeType": {
    "description": "The IANA media type of the content, such as `image/png` or `application/pdf`; a part with `data` needs one, and so does a part by `url` in the helpers.",
    "type": "string",
    "default": ""
   },
   "data": {
    "description": "The content's bytes, standard base64 (RFC 4648 section 4) with padding.",
    "type": "string",
    "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
    "default": ""
   },
   "url": {
    "description": "Where the content is, when it is carried by reference instead of as `data` (an MCP resource link).",
    "type": "string",
    "default": ""
   },
   "name": {
    "description": "A file name for the content, when it has one; never a path.",
    "type": "string",
    "default": ""
   },
   "title": {
    "description": "A name for people to read, which a host shows in place of `name` (MCP's `title` of a resource link); a provider adapter sends it only where the provider has a title field (an Anthropic document's).",
    "type": "string",
    "default": ""
   },
   "description": {
    "description": "What the content is, in a sentence (MCP's `description` of a resource link), for the host to show with the part; a provider adapter sends it only where the provider has a field for it (an Anthropic document's `context`).",
    "type": "string",
    "default": ""
   },
   "annotations": {
    "$ref": "#/$defs/Annotations"
   }
  },
  "required": [
   "type"
  ],
  "additionalProperties": true
 },
 "Request": {
  "title": "Request",
  "description": "What a suspended tool asks of the host before it can finish: an approval, an authorization, input or an answer to a question. It travels in `ToolResult.metadata[\"pending\"]`.",
  "type": "object",
  "properties": {
   "id": {
    "description": "Identifies the request; the `Answer` carries the same id. Generated as `pnd-` followed by random hex when a tool leaves it empty.",
    "type": "string"
   },
   "kind": {
    "description": "What is asked: `approval`, `authorization` (with a `url`; the only kind through which secrets may travel), `input` or `question`.",
    "type": "string",
    "minLength": 1
   },
   "prompt": {
    "description": "The text shown to the person who answers.",
    "type": "string"
   },
   "url": {
    "description": "Where the person goes to answer, such as a login page for an `authorization` request.",
    "type": "string"
   },
   "data": {
    "description": "Structured detail for the host, such as a JSON Schema for the input asked for.",
    "type": "object"
   },
   "expiresAt": {
    "description": "When the request stops being answerable, as an RFC 3339 date-time; an answer after it counts as `expired`. Any other string is kept as sent (upstream ports do not check it): the loop counts an unreadable time as already passed, and an empty string as no expiry.",
    "type": "string"
   }
  },
  "required": [
   "id",
   "kind",
   "prompt"
  ],
  "additionalProperties": true
 },
 "Answer": {
  "title": "Answer",
  "description": "The host's reply to a `Request`: the tool is run once more with it in its context.",
  "type": "object",
  "properties": {
   "id": {
    "description": "The id of the `Request` this answers.",
    "type": "string"
   },
   "ok": {
    "description": "True when the request was granted or answered; false when it was declined, cancelled or expired.",
    "type": "boolean"
   },
   "data": {
    "description": "What the person supplied, such as the input asked for.",
    "type": "object"
   },
   "reason": {
    "description": "Why the answer is not ok: `declined`, `cancelled` or `expired`. The upstream ports take any text here; this contract refuses any other value (send `declined`, and the text in `data`).",
    "type": "string",
    "enum": [
     "declined",
     "cancelled",
     "expired"
    ]
   },
   "message": {
    "description": "Why the answer refuses, in words for the model: the call's result then reads `declined: <message>` (its first 1,000 characters, then `…`, when it is longer). Ignored on an answer that is `ok`.",
    "type": "string",
    "minLength": 1
   },
   "scope": {
    "description": "How far the decision reaches: `once` (this call; the default), `turn` (every call to the same tool that waits on an approval in this turn), `session:<id>` (every call to the same tool in the host's session `<id>`), `principal` (every call to the same tool made for the same principal), `tool` (every call to the same tool). A decision beyond the turn is kept by the host as a policy, which expires, and which the host can list and revoke.",
    "type": "string",
    "pattern": "^(once|turn|tool|principal|session:\\S.*)$"
   }
  },
  "required": [
   "id",
   "ok"
  ],
  "additionalProperties": true
 },
 "ToolResult": {
  "title": "ToolResult",
  "description": "The envelope every tool returns: text for the model, an error flag, non-text parts, and host-only metadata that never reaches the model.",
  "type": "object",
  "properties": {
   "output": {
    "description": "The text the model reads; structured data goes in as JSON text.",
    "type": "string"
   },
   "isError": {
    "description": "True when the tool failed; the failure is a result the model can read, never an exception crossing the tool boundary.",
    "type": "boolean",
    "default": false
   },
   "parts": {
    "description": "Output beyond `output`, such as images, files, text and links, in order; omitted from the wire when empty.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/ContentPart"
    },
    "default": []
   },
   "structuredContent": {
    "description": "The result as structured data (an object, array, string, number or boolean), matching the tool's `outputSchema` when it declares one; `output` then carries the same value as JSON text, for models that read only text. Named as MCP's `CallToolResult` names it.",
    "anyOf": [
     {
      "type": "object"
     },
     {
      "type": "array"
     },
     {
      "type": "string"
     },
     {
      "type": "number"
     },
     {
      "type": "boolean"
     }
    ]
   },
   "metadata": {
    "description": "Free-form JSON for the host only (exit codes, diffs, timings); never sent to a model. The key `pending` is reserved: it holds a `Request` when the result is a suspension. The key `declined` is reserved too: on the error result the loop writes for a request that was refused or expired (an approval asked before a tool runs, or a tool's own question), it holds `{\"request\": <that request's id>, \"reason\": \"declined\" | \"cancelled\" | \"expired\"}`, so a host tells a denial from a tool failure; such a result's `output` starts with `declined`.",
    "type": "object"
   }
  },
  "required": [
   "output"
  ],
  "additionalProperties": true
 },
 "ToolIcon": {
  "title": "ToolIcon",
  "description": "An icon a host may show for a tool (MCP's `Icon`); never sent to a model.",
  "type": "object",
  "properties": {
   "src": {
    "description": "Where the icon is: an `https` URL or a `data:` URI.",
    "type": "string",
    "minLength": 1
   },
   "mimeType": {
    "description": "The icon's media type, when the URL does not say it.",
    "type": "string"
   },
   "sizes": {
    "description": "The sizes it comes in, as HTML writes them (`48x48`, `any`). Empty is omitted.",
    "type": "array",
    "items": {
     "type": "string"
    },
    "default": []
   },
   "theme": {
    "description": "The background it is drawn for.",
    "type": "string",
    "enum": [
     "light",
     "dark"
    ]
   }
  },
  "required": [
   "src"
  ],
  "additionalProperties": true
 },
 "ToolHints": {
  "title": "ToolHints",
  "description": "Advisory hints about how a tool behaves, for the host (an approval policy, MCP tool annotations, whether an MCP server runs its calls as tasks); never sent to a model. Upstream toolnexus 0.22 writes the first three.",
  "type": "object",
  "properties": {
   "readOnly": {
    "description": "The tool does not change its environment.",
    "type": "boolean"
   },
   "destructive": {
    "description": "The tool may delete or overwrite; meaningful only when it is not read-only.",
    "type": "boolean"
   },
   "openWorld": {
    "description": "The tool reaches entities outside a closed domain, such as the web.",
    "type": "boolean"
   },
   "idempotent": {
    "description": "Calling the tool again with the same arguments has no further effect; meaningful only when it is not read-only (MCP's `idempotentHint`).",
    "type": "boolean"
   },
   "title": {
    "description": "A name for people to read (MCP's `title` of a tool); the model still sees the tool's `name`.",
    "type": "string"
   },
   "longRunning": {
    "description": "A call may take long (minutes, or a person's answer): an MCP server runs it as a task (the `io.modelcontextprotocol/tasks` extension) for a client that supports tasks.",
    "type": "boolean"
   },
   "icons": {
    "description": "Icons a host may show for the tool (MCP's `icons`). Empty is omitted.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/ToolIcon"
    },
    "default": []
   }
  },
  "required": [
   "readOnly",
   "destructive",
   "openWorld"
  ],
  "additionalProperties": true
 },
 "ToolSpec": {
  "title": "ToolSpec",
  "description": "How a tool is declared to a model: its name, what it does, and the JSON Schemas of its arguments and, when it has one, of its structured output.",
  "type": "object",
  "properties": {
   "name": {
    "description": "The tool's name, made of ASCII letters, digits, `_` and `-`.",
    "type": "string",
    "pattern": "^[A-Za-z0-9_-]+$"
   },
   "description": {
    "description": "What the tool does, written for the model.",
    "type": "string"
   },
   "inputSchema": {
    "description": "The JSON Schema that the tool's arguments satisfy; an object schema.",
    "type": "object"
   },
   "source": {
    "description": "Where the tool comes from, such as `python:package.module.function` or `mcp:server-name`.",
    "type": "string"
   },
   "hints": {
    "$ref": "#/$defs/ToolHints"
   },
   "outputSchema": {
    "description": "The JSON Schema that the tool's `structuredContent` satisfies, when the tool returns structured data; an object schema. Named as MCP names it.",
    "type": "object"
   }
  },
  "required": [
   "name",
   "description",
   "inputSchema"
  ],
  "additionalProperties": true
 },
 "ToolCall": {
  "title": "ToolCall",
  "description": "One tool call that a model asked for in a turn.",
  "type": "object",
  "properties": {
   "id": {
    "description": "The provider's id for the call; the result goes back under the same id.",
    "type": "string"
   },
   "name": {
    "description": "The name of the tool to call.",
    "type": "string"
   },
   "arguments": {
    "description": "The arguments, already parsed from the model's JSON text.",
    "type": "object"
   }
  },
  "required": [
   "id",
   "name",
   "arguments"
  ],
  "additionalProperties": true
 },
 "ToolCallResult": {
  "title": "ToolCallResult",
  "description": "The result of one `ToolCall`, under the call's id and tool name.",
  "type": "object",
  "properties": {
   "id": {
    "description": "The id of the `ToolCall` this answers.",
    "type": "string"
   },
   "name": {
    "description": "The name of the tool that ran.",
    "type": "string"
   },
   "result": {
    "$ref": "#/$defs/ToolResult"
   }
  },
  "required": [
   "id",
   "name",
   "result"
  ],
  "additionalProperties": true
 },
 "RunResult": {
  "title": "RunResult",
  "description": "The outcome of running one turn of tool calls: every result, or a stop on a suspension that a host can store and resume from later, in another process.",
  "type": "object",
  "properties": {
   "status": {
    "description": "`done` when every call has its result; `pending` when the run stopped on a suspension and waits for an `Answer`.",
    "type": "string",
    "enum": [
     "done",
     "pending"
    ]
   },
   "results": {
    "description": "The finished results, in call order.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/ToolCallResult"
    }
   },
   "pending": {
    "$ref": "#/$defs/Request"
   },
   "calls": {
    "description": "The calls that have no result yet, in call order; the first is the one whose suspension is `pending`. Omitted when empty.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/ToolCall"
    },
    "default": []
   },
   "requests": {
    "description": "The suspensions of the calls in `calls`: one `Request` per call, in the same order, the first being `pending`. `resume` asks each waiting call's own request in turn rather than running the call again. Omitted when empty.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/Request"
    },
    "default": []
   },
   "order": {
    "description": "The ids of the turn's calls, in call order, kept by a `pending` run so that the results come back in call order after a `resume`. Omitted when empty.",
    "type": "array",
    "items": {
     "type": "string"
    },
    "default": []
   },
   "turn": {
    "description": "Identifies the turn, together with `order`: a random id `run_calls` writes on a pending run (or the host's own `turn_id`), so that calls of two turns that reuse an id (`call_0`) get different idempotency keys and answers. Omitted when empty.",
    "type": "string",
    "default": ""
   },
   "seal": {
    "description": "A tamper-evident seal over `results`, `pending`, `calls`, `requests`, `order` and `turn`, present when the host runs with a secret; `resume` rejects a run whose seal does not match.",
    "type": "string"
   }
  },
  "required": [
   "status",
   "results"
  ],
  "additionalProperties": true
 },
 "ToolEvent": {
  "title": "ToolEvent",
  "description": "What a running call reports before its result: how far it has got, in words, and a partial result. A host relays it (to a UI, as MCP progress, as Temporal heartbeat details); it never reaches the model, and the call's result replaces every partial.",
  "type": "object",
  "properties": {
   "callId": {
    "description": "The id of the `ToolCall` that is running.",
    "type": "string"
   },
   "percent": {
    "description": "How far the call has got, in whole percent (0 to 100; a tool reports a fraction, which is rounded).",
    "type": "integer"
   },
   "message": {
    "description": "What the call is doing, in a few words.",
    "type": "string"
   },
   "partial": {
    "$ref": "#/$defs/ToolResult"
   }
  },
  "required": [
   "callId"
  ],
  "additionalProperties": true
 }
}""")

install_schemas(
    {
        models.Annotations: "Annotations",
        models.ContentPart: "ContentPart",
        models.Request: "Request",
        models.Answer: "Answer",
        models.ToolResult: "ToolResult",
        models.ToolIcon: "ToolIcon",
        models.ToolHints: "ToolHints",
        models.ToolSpec: "ToolSpec",
        models.ToolCall: "ToolCall",
        models.ToolCallResult: "ToolCallResult",
        models.RunResult: "RunResult",
        models.ToolEvent: "ToolEvent",
    },
    _SCHEMAS,
)
