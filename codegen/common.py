"""Pieces every target shares: the DO NOT EDIT header and the jinja2 environment."""

from __future__ import annotations

from pathlib import Path

import jinja2

from .idl import Idl

__all__ = ["TEMPLATES", "environment", "header_lines"]

TEMPLATES = Path(__file__).parent / "templates"


def header_lines(idl: Idl) -> list[str]:
    """The fixed header of every generated file, without comment markers."""
    return [
        f"Generated from idl/ ({idl.name} schema {idl.version}, sha256 {idl.sha256}).",
        "Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.",
    ]


def environment(target: str) -> jinja2.Environment:
    """A strict jinja2 environment over `templates/<target>/`."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES / target),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    return env
