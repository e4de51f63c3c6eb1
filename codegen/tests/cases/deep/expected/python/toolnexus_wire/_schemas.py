# Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Span": {
  "title": "Span",
  "description": "A run of text in one style.",
  "type": "object",
  "properties": {
   "text": {
    "description": "The text.",
    "type": "string"
   },
   "style": {
    "description": "How it is set.",
    "type": "string",
    "enum": [
     "plain",
     "bold",
     "code"
    ]
   }
  },
  "required": [
   "text"
  ],
  "additionalProperties": true
 },
 "Para": {
  "title": "Para",
  "description": "A paragraph of spans.",
  "type": "object",
  "properties": {
   "spans": {
    "description": "The spans; always written.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/Span"
    }
   },
   "grid": {
    "description": "Rows of spans: an array of arrays of references.",
    "type": "array",
    "items": {
     "type": "array",
     "items": {
      "$ref": "#/$defs/Span"
     }
    }
   }
  },
  "required": [
   "spans"
  ],
  "additionalProperties": true
 },
 "Section": {
  "title": "Section",
  "description": "A section of paragraphs.",
  "type": "object",
  "properties": {
   "heading": {
    "description": "The section heading.",
    "type": "string"
   },
   "paras": {
    "description": "The paragraphs; always written.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/Para"
    }
   }
  },
  "required": [
   "heading",
   "paras"
  ],
  "additionalProperties": true
 },
 "Doc": {
  "title": "Doc",
  "description": "A document of sections.",
  "type": "object",
  "properties": {
   "title": {
    "description": "The document's title.",
    "type": "string"
   },
   "sections": {
    "description": "The sections, in order; omitted when empty.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/Section"
    },
    "default": []
   },
   "lead": {
    "$ref": "#/$defs/Section"
   }
  },
  "required": [
   "title"
  ],
  "additionalProperties": true
 }
}""")

install_schemas(
    {models.Span: "Span", models.Para: "Para", models.Section: "Section", models.Doc: "Doc"}, _SCHEMAS
)
