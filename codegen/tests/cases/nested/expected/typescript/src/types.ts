// Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

import type { JsonNumber, JsonValue } from "./json.js";

/** One item. */
export interface Item {
  /** Upper-case code. */
  code: string;
  /** How big. */
  size: "s" | "m" | "l";
  /** How many. */
  count?: number | JsonNumber;
  /** Kilograms. */
  weight?: number | JsonNumber;
  /** Its part of the box, 0 to 1. */
  share?: number | JsonNumber;
}

/** Items and labels. */
export interface Box {
  /** The main item. */
  main: Item;
  /**
   * More items; omitted when empty.
   *
   * @defaultValue `[]`
   */
  items?: Item[];
  /** Free labels. */
  tags: string[];
  /** Free-form JSON. */
  labels?: { [key: string]: JsonValue };
}

/**
 * A `Box` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedBox extends Box {
  items: Item[];
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Item: Item;
  Box: Box;
}
