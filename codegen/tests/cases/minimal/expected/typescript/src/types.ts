// Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

/** A note. */
export interface Note {
  /** What it says. */
  text: string;
  /**
   * Pinned to the top.
   *
   * @defaultValue `false`
   */
  isPinned?: boolean;
  /** Who wrote it. */
  author?: string;
}

/**
 * A `Note` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedNote extends Note {
  isPinned: boolean;
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Note: Note;
}
