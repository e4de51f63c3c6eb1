// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

/** A traffic light. */
export interface Light {
  /** What it shows now. */
  color: "red" | "amber" | "green";
  /** How it runs, when set. */
  mode?: "auto" | "manual" | "off-line";
  /** The colours it steps through. */
  cycle?: ("red" | "amber" | "green")[];
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Light: Light;
}
