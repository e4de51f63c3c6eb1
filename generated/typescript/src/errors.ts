// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/typescript/src/errors.ts (hand-written, copied verbatim).
// codegen: copy

/**
 * The one error that reading, parsing and emitting wire values throws.
 *
 * You get it when JSON text is not JSON (`path` is `$`), when a value does not have the shape
 * the schema requires (a wrong type, a missing required key, an enum value outside the set, a
 * `pattern` or `minLength` violation), or when a value handed to an emitter is not JSON (such
 * as `NaN` or a `Date`). It is never thrown for a tool's own failure: that is a `ToolResult`
 * with `isError: true`, which parses without error.
 */
export class WireError extends Error {
  /** The JSON path of the offending value: `$`, then `.key` and `[index]` steps. */
  readonly path: string;
  /** What the schema wants at `path`, such as `a string` or `one of "done", "pending"`. */
  readonly expected: string;

  constructor(path: string, expected: string, got: string) {
    super(`${path}: expected ${expected}, got ${got}`);
    this.name = "WireError";
    this.path = path;
    this.expected = expected;
  }
}
