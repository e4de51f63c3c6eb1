# Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Item": {
  "title": "Item",
  "description": "One item.",
  "type": "object",
  "properties": {
   "code": {
    "description": "Upper-case code.",
    "type": "string",
    "pattern": "^[A-Z]+$"
   },
   "size": {
    "description": "How big.",
    "type": "string",
    "enum": [
     "s",
     "m",
     "l"
    ]
   },
   "count": {
    "description": "How many.",
    "type": "integer",
    "minimum": 0
   },
   "weight": {
    "description": "Kilograms.",
    "type": "number"
   },
   "share": {
    "description": "Its part of the box, 0 to 1.",
    "type": "number",
    "minimum": 0,
    "maximum": 1
   }
  },
  "required": [
   "code",
   "size"
  ],
  "additionalProperties": true
 },
 "Box": {
  "title": "Box",
  "description": "Items and labels.",
  "type": "object",
  "properties": {
   "main": {
    "$ref": "#/$defs/Item"
   },
   "items": {
    "description": "More items; omitted when empty.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/Item"
    },
    "default": []
   },
   "tags": {
    "description": "Free labels.",
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "labels": {
    "description": "Free-form JSON.",
    "type": "object"
   }
  },
  "required": [
   "main",
   "tags"
  ],
  "additionalProperties": true
 }
}""")

install_schemas({models.Item: "Item", models.Box: "Box"}, _SCHEMAS)
