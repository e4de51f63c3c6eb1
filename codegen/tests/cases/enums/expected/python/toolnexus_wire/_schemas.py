# Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Light": {
  "title": "Light",
  "description": "A traffic light.",
  "type": "object",
  "properties": {
   "color": {
    "description": "What it shows now.",
    "type": "string",
    "enum": [
     "red",
     "amber",
     "green"
    ]
   },
   "mode": {
    "description": "How it runs, when set.",
    "type": "string",
    "enum": [
     "auto",
     "manual",
     "off-line"
    ]
   },
   "cycle": {
    "description": "The colours it steps through.",
    "type": "array",
    "items": {
     "type": "string",
     "enum": [
      "red",
      "amber",
      "green"
     ]
    }
   }
  },
  "required": [
   "color"
  ],
  "additionalProperties": true
 }
}""")

install_schemas({models.Light: "Light"}, _SCHEMAS)
