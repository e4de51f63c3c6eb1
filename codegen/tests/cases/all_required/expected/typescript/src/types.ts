// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

import type { JsonNumber, JsonValue } from "./json.js";

/** A labelled point. */
export interface Point {
  /** Across. */
  x: number | JsonNumber;
  /** Down. */
  y: number | JsonNumber;
  /** Its name. */
  label: string;
  /** Labels, written even when empty. */
  tags: string[];
  /** Shown or not. */
  visible: boolean;
  /** Free-form JSON. */
  attrs: { [key: string]: JsonValue };
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Point: Point;
}
