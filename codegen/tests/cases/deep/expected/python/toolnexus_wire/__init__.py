# Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
# Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

"""The deep wire types (schema 0.3.0) as pydantic v2 models.

Every model has `to_wire`, `to_json`, `from_wire` and `from_json`. Most users
want the `toolnexus` package, which builds on these.
"""

from . import _fast, _schemas, _serde  # noqa: F401  (they install the fast paths, schemas, encoders)
from ._base import MAX_DEPTH, JsonNumber, WireModel, dumps
from ._errors import ToolnexusError, WireError, json_path
from ._links import check_mime_type, check_url, displayable
from .models import (
    Doc,
    Para,
    Section,
    Span,
)

SCHEMA_VERSION = "0.3.0"

__all__ = [
    "Doc",
    "JsonNumber",
    "MAX_DEPTH",
    "Para",
    "SCHEMA_VERSION",
    "Section",
    "Span",
    "ToolnexusError",
    "WireError",
    "WireModel",
    "check_mime_type",
    "check_url",
    "displayable",
    "dumps",
    "json_path",
]
