// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `toolnexus-contract/runtime`: tools, the loop and the seal, for a Node.js host. The wire types
 * stay in `toolnexus-contract`, which never loads what this entry point loads (Ajv, the JCS
 * library `canonicalize`, `node:crypto`).
 *
 * ```ts
 * import { Toolkit, defineTool } from "toolnexus-contract/runtime";
 * ```
 *
 * - {@link defineTool}, {@link Tool}, {@link ToolContext}: tools, whose `call` never throws for a
 *   tool failure; typed from a zod 4, arktype or valibot schema (any Standard Schema with a JSON
 *   Schema conversion) or a literal JSON Schema ({@link FromJsonSchema});
 * - {@link Toolkit}: `runCalls`, `resume`, `expire`, `policies`, `revokePolicy`; runs sealed by
 *   the Python and Rust packages resume here, and the other way round (seal version 4,
 *   `docs/seal.md`);
 * - the errors ({@link ToolnexusError}, the root, with the realm-proof guard
 *   `ToolnexusError.isToolnexusError`; {@link ResumeError}: `resume` refused a run, `.reason`);
 * - decisions: {@link Decision} (what the decision log takes), {@link Policy} (a decision kept
 *   beyond its turn), {@link PolicyMemory} and the {@link PolicyStore} and {@link DecisionLog}
 *   interfaces a host's own stores implement;
 * - a handler's thrown errors, for the host: {@link setToolLogger}, `onError`.
 * - results that fit the model: {@link Limit} (on a tool and on a toolkit), the spills that keep a
 *   cut output whole ({@link DirectorySpill}, {@link MemorySpill}, the {@link ResultSpill}
 *   interface) and the built-in {@link readResult} tool that pages through one.
 *
 * The engine's steps and transitions, for hosts of the loop other than the toolkit, are
 * `toolnexus-contract/engine`.
 *
 * @packageDocumentation
 */

export { ResumeError, ToolnexusError, WireError, type ResumeReason } from "./errors.js";
export { Decision, Policy, type DecisionInit, type DecisionKind, type PolicyInit, type PolicyScope, type ScopeKind } from "./decisions.js";
export { PolicyMemory, type DecisionLog, type DecisionMade, type PolicyStore } from "./policies.js";
export { idempotencyKey, turnDigest } from "./seal.js";
export {
  Tool,
  ToolContext,
  defineTool,
  normalizeToolName,
  type Handler,
  type NeedsApproval,
  type ProgressListener,
  type ToolContextInit,
  type ToolOptions,
} from "./tool.js";
export type { ToolHintsInit } from "./hints.js";
export { LOG_LEVELS, setToolLogger, type ErrorListener, type LogLevel, type LogListener, type ToolLogger } from "./log.js";
export { CUT_FLOOR, Limit, estimateTokens, type LimitInit, type Tokenizer } from "./limit.js";
export { DirectorySpill, MemorySpill, readResult, type ResultSpill, type Scope } from "./spill.js";
export {
  isStandardSchema,
  type ArgsOf,
  type FromJsonSchema,
  type InputSchema,
  type JsonSchemaObject,
  type OutputOf,
  type OutputSchema,
  type StandardInput,
  type StandardSchema,
} from "./typed.js";
export {
  Toolkit,
  type Clock,
  type ErrorHook,
  type ExpireOptions,
  type LogHook,
  type ProgressHook,
  type ResumeOptions,
  type RunCallsOptions,
  type ToolkitOptions,
  type WaitFor,
} from "./toolkit.js";
