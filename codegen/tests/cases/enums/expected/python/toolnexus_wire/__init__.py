# Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The enums wire types (schema 1.2.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, JsonNumber, WireModel, dumps
from ._errors import ToolnexusError, WireError, json_path
from ._links import check_mime_type, check_url, displayable
from .models import (
    Light,
)

SCHEMA_VERSION = "1.2.0"

__all__ = [
    "JsonNumber",
    "Light",
    "MAX_DEPTH",
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
