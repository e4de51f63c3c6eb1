# Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The mini wire types (schema 0.1.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, JsonNumber, WireModel, dumps
from ._errors import ToolnexusError, WireError, json_path
from ._links import check_mime_type, check_url, displayable
from .models import (
    Note,
)

SCHEMA_VERSION = "0.1.0"

__all__ = [
    "JsonNumber",
    "MAX_DEPTH",
    "Note",
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
