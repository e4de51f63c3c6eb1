// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

// A tool's input schema, compiled once with Ajv (the JSON Schema validator of the npm world):
// 2020-12 when the schema names no `$schema` (as Python's `toolnexus/_schema.py`), 2019-09 and
// draft-07 when it names them. Patterns are ECMA-262 regular expressions with the `u` flag, which
// is what JSON Schema specifies and what Python's `ecma_pattern` imitates (`$` is the end of the
// input, `\d` and `\w` are ASCII). `format` is an annotation, as in Python, and keywords Ajv does
// not know are ignored, as `jsonschema` ignores them.

import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { JsonNumber, childPath, isPlainObject, type JsonObject } from "./json.js";

/** The `$schema` URIs a tool's schema may name, each with the Ajv class that checks it. */
const DRAFTS: { readonly [uri: string]: "2020-12" | "2019-09" | "draft-07" } = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "http://json-schema.org/draft-07/schema": "draft-07",
  "http://json-schema.org/draft-07/schema#": "draft-07",
};

const OPTIONS: Options = {
  allErrors: true, // every violation, with its path, as Python reports them
  strict: false, // an unknown keyword is ignored, not an error
  validateFormats: false, // `format` is an annotation
  unicodeRegExp: true, // ECMA-262 patterns with the `u` flag
  addUsedSchema: false, // a schema's `$id` is not registered: tools never see each other's schemas
  ownProperties: true, // `required: ["toString"]` is not met by what every object inherits
  logger: false,
};

interface Validator {
  compile(schema: object): ValidateFunction;
}

const validators = new Map<string, Validator>();

function validatorFor(draft: string): Validator {
  let found = validators.get(draft);
  if (found === undefined) {
    const ajv = draft === "2020-12" ? new Ajv2020(OPTIONS) : draft === "2019-09" ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
    ajv.removeKeyword("multipleOf");
    ajv.addKeyword({
      keyword: "multipleOf",
      type: "number",
      schemaType: "number",
      metaSchema: { type: "number", exclusiveMinimum: 0 },
      error: { message: ({ schema }) => `must be multiple of ${String(schema)}` },
      validate: (multiple: number, value: number) => isMultipleOf(value, multiple),
    });
    found = ajv;
    validators.set(draft, found);
  }
  return found;
}

/** A double as `[mantissa, exponent]`, the exact value of its shortest decimal (`0.07` is 7e-2). */
function decimalOf(value: number): [bigint, number] {
  const text = String(value);
  const e = text.indexOf("e");
  const digits = e < 0 ? text : text.slice(0, e);
  let exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = digits.indexOf(".");
  if (dot >= 0) {
    exponent -= digits.length - dot - 1;
  }
  return [BigInt(digits.replace(".", "")), exponent];
}

/**
 * `multipleOf`, decimal-exact (as Python and Rust decide it): `value / multiple` is an integer
 * when each is read as the shortest decimal of its double, so 0.07 is a multiple of 0.01 (float
 * division gives 7.000000000000001) and 0.3 of 0.1.
 */
export function isMultipleOf(value: number, multiple: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(multiple) || multiple === 0) {
    return false;
  }
  if (value === 0) {
    return true;
  }
  const [a, p] = decimalOf(value);
  const [b, q] = decimalOf(multiple);
  return p >= q ? (a * 10n ** BigInt(p - q)) % b === 0n : a % (b * 10n ** BigInt(q - p)) === 0n;
}

/** The problems of a value, each `<JSON path>: <message>`, sorted by path; none: valid. */
export type SchemaCheck = (value: unknown) => string[];
/** The problems of some arguments (a {@link SchemaCheck} of an input schema). */
export type ArgumentsCheck = (args: JsonObject) => string[];

/**
 * `schema` compiled once. Throws a `TypeError` for a schema that is not a valid JSON Schema (or
 * names a `$schema` other than 2020-12, 2019-09 and draft-07), saying why; `what` names the schema
 * in the message (`input schema`, `output schema`).
 */
export function compileSchema(schema: JsonObject, what: string = "input schema"): SchemaCheck {
  const named = schema["$schema"];
  const draft = named === undefined ? "2020-12" : typeof named === "string" && Object.hasOwn(DRAFTS, named) ? DRAFTS[named] : undefined;
  if (draft === undefined) {
    throw new TypeError(`${what}: $schema ${JSON.stringify(named)} is not one this package checks (2020-12, 2019-09 or draft-07)`);
  }
  let validate: ValidateFunction;
  try {
    validate = validatorFor(draft).compile(numbersOf(schema) as object);
  } catch (err) {
    throw new TypeError(`${what} is not a valid JSON Schema: ${err instanceof Error ? err.message : String(err)}`);
  }
  return (value) => {
    const data = numbersOf(value);
    if (validate(data)) {
      return [];
    }
    const found = (validate.errors ?? []).map((e) => ({ steps: steps(e.instancePath), text: problem(e, data) }));
    found.sort((a, b) => compareSteps(a.steps, b.steps));
    return [...new Set(found.map((p) => p.text))];
  };
}

/** `value` with every {@link JsonNumber} as the `number` it spells, as a validator reads numbers
 * (copied only where one is found). */
function numbersOf(value: unknown): unknown {
  if (value instanceof JsonNumber) {
    return Number(value.text);
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const plain = numbersOf(item);
      if (plain !== item) {
        out ??= value.slice();
        out[i] = plain;
      }
    }
    return out ?? value;
  }
  if (isPlainObject(value)) {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = value[key];
      const plain = numbersOf(item);
      if (plain !== item) {
        out ??= Object.defineProperties({}, Object.getOwnPropertyDescriptors(value));
        out[key] = plain;
      }
    }
    return out ?? value;
  }
  return value;
}

/** The steps of a JSON pointer (RFC 6901). */
function steps(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function compareSteps(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/** The JSON path (`$.a[0].b`, as `WireError` writes them) of the JSON pointer `pointer` in `data`. */
function pathOf(pointer: string, data: unknown): string {
  let path = "$";
  let at: unknown = data;
  for (const step of steps(pointer)) {
    if (Array.isArray(at)) {
      path += `[${step}]`;
      at = at[Number(step)];
    } else {
      path = childPath(path, step);
      at = isPlainObject(at) ? at[step] : undefined;
    }
  }
  return path;
}

function problem(e: ErrorObject, data: unknown): string {
  let message = e.message ?? `fails ${e.keyword}`;
  const params = e.params as { additionalProperty?: string; unevaluatedProperty?: string; allowedValues?: unknown[] };
  if (e.keyword === "additionalProperties" && params.additionalProperty !== undefined) {
    message += ` (${JSON.stringify(params.additionalProperty)} was unexpected)`;
  } else if (e.keyword === "unevaluatedProperties" && params.unevaluatedProperty !== undefined) {
    message += ` (${JSON.stringify(params.unevaluatedProperty)} was unexpected)`;
  } else if (e.keyword === "enum" && params.allowedValues !== undefined) {
    message += `: ${JSON.stringify(params.allowedValues)}`;
  }
  return `${pathOf(e.instancePath, data)}: ${message}`;
}
