// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// The loop's data, from idl/loop.json (see codegen/loop_data.py).

/** How deep a document may nest. */
export const MAX_DEPTH = 100;
