# Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The wire2 wire types (schema 1.0.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, JsonNumber, WireModel, dumps
from ._errors import ToolnexusError, WireError, json_path
from ._links import check_mime_type, check_url, displayable
from .models import (
    Outcome,
    Piece,
)

SCHEMA_VERSION = "1.0.0"

__all__ = [
    "JsonNumber",
    "MAX_DEPTH",
    "Outcome",
    "Piece",
    "SCHEMA_VERSION",
    "ToolnexusError",
    "WireError",
    "WireModel",
    "check_mime_type",
    "check_url",
    "displayable",
    "dumps",
    "json_path",
]
