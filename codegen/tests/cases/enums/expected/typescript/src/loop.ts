// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// The loop's data, from idl/loop.json (see codegen/loop_data.py).

/** How deep a document may nest. */
export const MAX_DEPTH = 100;
