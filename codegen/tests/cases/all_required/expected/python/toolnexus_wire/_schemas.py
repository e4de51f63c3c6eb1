# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Point": {
  "title": "Point",
  "description": "A labelled point.",
  "type": "object",
  "properties": {
   "x": {
    "description": "Across.",
    "type": "number"
   },
   "y": {
    "description": "Down.",
    "type": "number"
   },
   "label": {
    "description": "Its name.",
    "type": "string",
    "minLength": 1
   },
   "tags": {
    "description": "Labels, written even when empty.",
    "type": "array",
    "items": {
     "type": "string"
    }
   },
   "visible": {
    "description": "Shown or not.",
    "type": "boolean"
   },
   "attrs": {
    "description": "Free-form JSON.",
    "type": "object"
   }
  },
  "required": [
   "x",
   "y",
   "label",
   "tags",
   "visible",
   "attrs"
  ],
  "additionalProperties": false
 }
}""")

install_schemas({models.Point: "Point"}, _SCHEMAS)
