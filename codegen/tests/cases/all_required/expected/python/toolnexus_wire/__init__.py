# Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The strict wire types (schema 1.0.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, JsonNumber, WireModel, dumps
from ._errors import ToolnexusError, WireError, json_path
from ._links import check_mime_type, check_url, displayable
from .models import (
    Point,
)

SCHEMA_VERSION = "1.0.0"

__all__ = [
    "JsonNumber",
    "MAX_DEPTH",
    "Point",
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
