# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Note": {
  "title": "Note",
  "description": "A note.",
  "type": "object",
  "properties": {
   "text": {
    "description": "What it says.",
    "type": "string"
   },
   "isPinned": {
    "description": "Pinned to the top.",
    "type": "boolean",
    "default": false
   },
   "author": {
    "description": "Who wrote it.",
    "type": "string",
    "minLength": 1
   }
  },
  "required": [
   "text"
  ],
  "additionalProperties": true
 }
}""")

install_schemas({models.Note: "Note"}, _SCHEMAS)
