// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// One interface per wire type. Property names are the wire keys; an optional property is
// absent from the wire when it is absent here. The interfaces have no index signature, so a
// misspelled key in an object literal is a compile error. In a type open to unknown keys, keys
// a newer schema adds are still kept on the parsed object itself and written back by the
// emitter, so a parse/emit round trip loses nothing; they are untyped: `extraKeys` reads them.

/** A run of text in one style. */
export interface Span {
  /** The text. */
  text: string;
  /** How it is set. */
  style?: "plain" | "bold" | "code";
}

/** A paragraph of spans. */
export interface Para {
  /** The spans; always written. */
  spans: Span[];
  /** Rows of spans: an array of arrays of references. */
  grid?: Span[][];
}

/** A section of paragraphs. */
export interface Section {
  /** The section heading. */
  heading: string;
  /** The paragraphs; always written. */
  paras: Para[];
}

/** A document of sections. */
export interface Doc {
  /** The document's title. */
  title: string;
  /**
   * The sections, in order; omitted when empty.
   *
   * @defaultValue `[]`
   */
  sections?: Section[];
  /** An optional first section. */
  lead?: Section;
}

/**
 * A `Doc` as the parsers return it: every field the parser fills in
 * (a field with a default) is present, so strict code reads it without a check.
 */
export interface ParsedDoc extends Doc {
  sections: Section[];
}

/** Every wire type by its name, as `extraKeys` takes them. */
export interface WireTypes {
  Span: Span;
  Para: Para;
  Section: Section;
  Doc: Doc;
}
