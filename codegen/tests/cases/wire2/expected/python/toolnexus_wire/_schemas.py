# Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
"""Each wire type's JSON Schema from the IDL: what pydantic gives on every path."""

from __future__ import annotations

import json
from typing import Any

from . import models
from ._base import install_schemas

__all__: list[str] = []

_SCHEMAS: dict[str, Any] = json.loads(r"""{
 "Piece": {
  "title": "Piece",
  "description": "One piece of an outcome.",
  "type": "object",
  "properties": {
   "type": {
    "description": "What the piece is; `kind` in the APIs.",
    "type": "string",
    "enum": [
     "text",
     "blob"
    ]
   },
   "label": {
    "description": "A label; omitted when empty.",
    "type": "string",
    "default": ""
   },
   "body": {
    "description": "The piece itself: any JSON value but null.",
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
   }
  },
  "required": [
   "type",
   "body"
  ],
  "additionalProperties": true,
  "dependentSchemas": {
   "type": {
    "allOf": [
     {
      "description": "A blob is labelled.",
      "if": {
       "properties": {
        "type": {
         "enum": [
          "blob"
         ]
        }
       }
      },
      "then": {
       "required": [
        "label"
       ],
       "properties": {
        "label": {
         "type": "string",
         "minLength": 1
        }
       }
      }
     }
    ]
   }
  }
 },
 "Outcome": {
  "title": "Outcome",
  "description": "A summary, a value and pieces; no other keys.",
  "type": "object",
  "properties": {
   "summary": {
    "description": "What happened.",
    "type": "string"
   },
   "result": {
    "description": "The value, when there is one: any JSON but null; `resultValue` in the APIs.",
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
   "pieces": {
    "description": "The pieces; omitted when empty.",
    "type": "array",
    "items": {
     "$ref": "#/$defs/Piece"
    },
    "default": []
   },
   "note": {
    "description": "A note; omitted when empty.",
    "type": "string",
    "default": ""
   }
  },
  "required": [
   "summary"
  ],
  "additionalProperties": false
 }
}""")

install_schemas({models.Piece: "Piece", models.Outcome: "Outcome"}, _SCHEMAS)
