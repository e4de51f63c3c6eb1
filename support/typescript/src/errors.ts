// codegen: package

/**
 * The errors toolnexus throws, one tree with one root:
 *
 * ```text
 * ToolnexusError        the root: ToolnexusError.isToolnexusError(e) for any error toolnexus throws
 * ├── WireError         a document is not valid wire data (parsing; .path, .expected)
 * └── ResumeError       (runtime) a well-formed run or answer cannot be resumed (.reason)
 * ```
 *
 * Each carries a marker that survives realms and duplicate copies of the package (a
 * `Symbol.for` key, which every realm shares), so test with the static guards
 * (`ToolnexusError.isToolnexusError`, `WireError.isWireError`, `ResumeError.isResumeError`)
 * rather than `instanceof`, which fails across an iframe, a worker or two installed copies.
 * A tool's own failure is never one of them: it is a `ToolResult` with `isError: true`.
 *
 * @module
 */

/** The marker: the class names of an error's place in the tree, root first. */
const BRAND = Symbol.for("toolnexus.error");

function brandOf(error: unknown): readonly string[] {
  if (typeof error !== "object" || error === null) {
    return [];
  }
  const names = (error as { [BRAND]?: unknown })[BRAND];
  return Array.isArray(names) ? (names as string[]) : [];
}

/** The root of every error toolnexus throws; `cause` is kept. */
export class ToolnexusError extends Error {
  declare readonly [BRAND]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolnexusError";
    const names: string[] = [];
    for (let proto: unknown = new.target.prototype; proto !== Error.prototype && proto !== null; proto = Object.getPrototypeOf(proto)) {
      const ctor = (proto as { constructor: { brand?: string } }).constructor;
      if (typeof ctor.brand === "string") {
        names.unshift(ctor.brand);
      }
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(names), enumerable: false });
  }

  /** The name this class is marked with (kept apart from `name`, which a minifier may change). */
  static readonly brand: string = "ToolnexusError";

  /** Whether `error` is any toolnexus error, from this copy of the package or any other. */
  static isToolnexusError(error: unknown): error is ToolnexusError {
    return brandOf(error).includes("ToolnexusError");
  }
}

/**
 * The one error that reading, parsing and emitting wire values throws.
 *
 * You get it when JSON text is not JSON (`path` is `$`), when a value does not have the shape
 * the schema requires (a wrong type, a missing required key, an enum value outside the set, a
 * `pattern` or `minLength` violation), or when a value handed to an emitter is not JSON (such
 * as `NaN` or a `Date`). It is never thrown for a tool's own failure: that is a `ToolResult`
 * with `isError: true`, which parses without error.
 */
export class WireError extends ToolnexusError {
  static override readonly brand: string = "WireError";

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

  /** Whether `error` is a `WireError`, from this copy of the package or any other. */
  static isWireError(error: unknown): error is WireError {
    return brandOf(error).includes("WireError");
  }
}

/** Why `resume` refused a run (`ResumeError.reason`). */
export type ResumeReason = "mismatch" | "replayed" | "not_pending" | "seal" | "expired" | "principal";

/**
 * Thrown when an `Answer` cannot continue a run; the run is left as it was, and nothing ran.
 *
 * You get it from `Toolkit.resume` (and from `Toolkit.runCalls` when `waitFor` answers a request
 * other than the one it was given). `reason` names the check that failed:
 *
 * - `"mismatch"`: the answer's id is not the id of a request the run waits on;
 * - `"replayed"`: this toolkit already took an answer to that request (the same answer given
 *   twice, or an old copy of the run resumed again);
 * - `"not_pending"`: the run waits on nothing;
 * - `"seal"`: the toolkit has keys and the run's seal is missing, altered or forged, or names a key
 *   the toolkit does not have, or the run is sealed and the toolkit has no key to check it;
 * - `"expired"`: the seal holds, and the time it allows for resuming has passed (unlike a
 *   request's own `expiresAt`, which expires one question and leaves the run resumable);
 * - `"principal"`: the seal holds, and the run is bound to a principal other than the one given.
 *
 * It differs from `WireError`, thrown while *parsing* a document that is not valid wire data: a
 * run that parses cleanly can still be refused here. Neither is thrown for a tool failure, which
 * is always an error result.
 */
export class ResumeError extends ToolnexusError {
  static override readonly brand: string = "ResumeError";

  readonly reason: ResumeReason;

  constructor(reason: ResumeReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ResumeError";
    this.reason = reason;
  }

  /** Whether `error` is a `ResumeError`, from this copy of the package or any other. */
  static isResumeError(error: unknown): error is ResumeError {
    return brandOf(error).includes("ResumeError");
  }
}
