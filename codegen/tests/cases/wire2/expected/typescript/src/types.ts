// Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

import type { JsonValue } from "./json.js";

/** One piece of an outcome. */
export interface Piece {
  /** What the piece is; `kind` in the APIs. */
  type: "text" | "blob";
  /**
   * A label; omitted when empty.
   *
   * @defaultValue `""`
   */
  label?: string;
  /** The piece itself: any JSON value but null. */
  body: JsonValue;
}

/** A summary, a value and pieces; no other keys. */
export interface Outcome {
  /** What happened. */
  summary: string;
  /** The value, when there is one: any JSON but null; `resultValue` in the APIs. */
  result?: JsonValue;
  /**
   * The pieces; omitted when empty.
   *
   * @defaultValue `[]`
   */
  pieces?: Piece[];
  /**
   * A note; omitted when empty.
   *
   * @defaultValue `""`
   */
  note?: string;
}

/**
 * An `Outcome` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedOutcome extends Outcome {
  pieces: Piece[];
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Piece: Piece;
  Outcome: Outcome;
}
