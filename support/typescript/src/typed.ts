// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * Typed tools: the schemas `defineTool` takes and the TypeScript types it infers from them.
 *
 * A tool's schema is a JSON Schema (an object; written inline or `as const`, its type is inferred
 * by {@link FromJsonSchema}) or a Standard Schema (https://standardschema.dev: anything with a
 * `~standard` property, such as a zod 4, valibot or arktype schema) that also converts itself to
 * JSON Schema (the Standard JSON Schema interface, `~standard.jsonSchema`: zod 4 and arktype have
 * it; valibot through `toStandardJsonSchema` of `@valibot/to-json-schema`). The tool declares,
 * and checks calls against, that JSON Schema: the schema library's own conversion, as it is for
 * its input (`io: "input"` in zod's words: a field with a default is optional, unknown keys are
 * allowed where the library strips them). The library's own `validate` is not run: the JSON
 * Schema check (Ajv) stays the one verdict, so a call is accepted or refused, with the same text,
 * as the loop and wire vectors say, in every language. The handler's arguments are typed as the
 * schema's input type, which is what that check guarantees (refinements, transforms and defaults
 * are the library's, and not applied).
 *
 * Nothing here imports a schema library: the types are structural, so a user without zod loads
 * and installs nothing more.
 */

import { describe, isPlainObject, readJson, writeJson, type JsonObject, type JsonValue } from "./json.js";

/**
 * The part of the Standard Schema interface (version 1) the runtime reads: `~standard.types`
 * carries the input and output types, for inference only.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** A JSON Schema as `defineTool` takes it: an object (its keywords are checked when compiled). */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** What `defineTool` takes as a tool's input schema; `null` (or nothing) accepts any object. */
export type InputSchema = StandardSchema | JsonSchemaObject | null | undefined;

/** What `defineTool` takes as a tool's output schema (`options.outputSchema`). */
export type OutputSchema = StandardSchema | JsonSchemaObject;

/** The input type a Standard Schema declares. */
export type StandardInput<S> = S extends { readonly "~standard": { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I }
    ? I
    : unknown
  : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Deeper<D extends unknown[]> = [...D, 0];
type TypeName = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ObjectOf<S, D extends unknown[]> = S extends { readonly properties: infer P extends object }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: FromJsonSchema<P[K], Deeper<D>> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: FromJsonSchema<P[K], Deeper<D>>;
      }
    >
  : S extends { readonly additionalProperties: infer A extends object }
    ? { [key: string]: FromJsonSchema<A, Deeper<D>> }
    : JsonObject;

type ArrayOf<S, D extends unknown[]> = S extends { readonly items: infer I extends object } ? FromJsonSchema<I, Deeper<D>>[] : JsonValue[];

type ByType<T, S, D extends unknown[]> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? ArrayOf<S, D>
          : T extends "object"
            ? ObjectOf<S, D>
            : never;

type EachOf<L, D extends unknown[]> = L extends readonly (infer E)[] ? (E extends unknown ? FromJsonSchema<E, Deeper<D>> : never) : never;

/**
 * The TypeScript type of the JSON values a JSON Schema (a literal type: written inline or
 * `as const`) accepts, for the keywords tools use: `type` (one name or a list), `properties`,
 * `required`, `items`, `additionalProperties` (as a schema), `enum`, `const`, `anyOf` and
 * `oneOf`. An integer is a `number` (one beyond 2^53 arrives as a `JsonNumber`, which the
 * arguments' type does not say). Any other schema, and nesting deeper than 8, is `JsonValue`.
 */
export type FromJsonSchema<S, D extends unknown[] = []> = D["length"] extends 8
  ? JsonValue
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly anyOf: infer L }
        ? EachOf<L, D>
        : S extends { readonly oneOf: infer L }
          ? EachOf<L, D>
          : S extends { readonly type: readonly (infer T)[] }
            ? ByType<T & TypeName, S, D>
            : S extends { readonly type: infer T extends TypeName }
              ? ByType<T, S, D>
              : S extends { readonly properties: object }
                ? ObjectOf<S, D>
                : JsonValue;

/**
 * The type of a tool's arguments, from its input schema: a Standard Schema's input type, a
 * literal JSON Schema's {@link FromJsonSchema}, else (`null`, a schema typed `JsonObject`) a
 * `JsonObject`.
 */
export type ArgsOf<S> = S extends null | undefined
  ? JsonObject
  : S extends StandardSchema
    ? StandardInput<S>
    : string extends keyof S
      ? JsonObject
      : FromJsonSchema<S> extends infer T
        ? [JsonValue] extends [T]
          ? JsonObject
          : T
        : never;

/** The type of the data a tool with this output schema returns (`unknown` without one). */
export type OutputOf<O> = O extends undefined
  ? unknown
  : O extends StandardSchema
    ? StandardInput<O>
    : string extends keyof O
      ? unknown
      : FromJsonSchema<O>;

interface ConvertsToJsonSchema {
  readonly "~standard": {
    readonly vendor?: unknown;
    readonly jsonSchema?: { readonly input?: unknown };
  };
}

/** Whether `value` is a Standard Schema (has a `~standard` object). */
export function isStandardSchema(value: unknown): value is StandardSchema {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) {
    return false;
  }
  const standard: unknown = (value as { "~standard"?: unknown })["~standard"];
  return typeof standard === "object" && standard !== null;
}

/**
 * The JSON Schema a Standard Schema converts itself to, for its input (`~standard.jsonSchema.input`,
 * target draft 2020-12), as plain JSON.
 *
 * @param what - `input schema` or `output schema`, for the errors.
 * @throws TypeError when the schema has no conversion, or the conversion fails or is not a JSON object.
 */
export function jsonSchemaOf(schema: StandardSchema, what: string): JsonObject {
  const standard = (schema as unknown as ConvertsToJsonSchema)["~standard"];
  const vendor = typeof standard.vendor === "string" ? standard.vendor : "unknown";
  const input = standard.jsonSchema?.input;
  if (typeof input !== "function") {
    throw new TypeError(
      `the ${what} is a Standard Schema (${vendor}) without a JSON Schema conversion (~standard.jsonSchema): ` +
        "pass one that has it (zod 4, arktype; valibot through toStandardJsonSchema of @valibot/to-json-schema) or a JSON Schema",
    );
  }
  let converted: unknown;
  try {
    converted = (input as (options: { target: string }) => unknown).call(standard.jsonSchema, { target: "draft-2020-12" });
  } catch (err) {
    throw new TypeError(`the ${what} (${vendor}) has no JSON Schema: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isPlainObject(converted)) {
    throw new TypeError(`the ${what} (${vendor}) converted to ${describe(converted)}, not a JSON Schema object`);
  }
  try {
    return readJson(writeJson(converted)) as JsonObject; // plain JSON, sharing nothing with the library's value
  } catch (err) {
    throw new TypeError(`the ${what} (${vendor}) converted to a value that is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}
