// Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. In a type open to unknown keys, keys a newer
// schema adds are kept on the object itself (the index signature), so a parse/emit round trip
// loses nothing.

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
  /** Keys this version of the schema does not name, kept through a parse/emit round trip. */
  [key: string]: unknown;
}
