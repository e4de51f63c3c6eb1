// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. In a type open to unknown keys, keys a newer
// schema adds are kept on the object itself (the index signature), so a parse/emit round trip
// loses nothing.

/** A traffic light. */
export interface Light {
  /** What it shows now. */
  color: "red" | "amber" | "green";
  /** How it runs, when set. */
  mode?: "auto" | "manual" | "off-line";
  /** The colours it steps through. */
  cycle?: ("red" | "amber" | "green")[];
  /** Keys this version of the schema does not name, kept through a parse/emit round trip. */
  [key: string]: unknown;
}
