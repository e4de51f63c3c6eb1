// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/typescript/src/runtime.ts (hand-written, copied verbatim).
// codegen: copy; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

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
 *   tool failure;
 * - {@link Toolkit}: `runCalls`, `resume`, `expire`, `policies`, `revokePolicy`; runs sealed by
 *   the Python and Rust packages resume here, and the other way round (seal version 4,
 *   `docs/seal.md`);
 * - {@link ResumeError}: `resume` refused a run (`.reason`);
 * - decisions: {@link Decision} (what the decision log takes), {@link Policy} (a decision kept
 *   beyond its turn), {@link PolicyMemory} and the {@link PolicyStore} and {@link DecisionLog}
 *   interfaces a host's own stores implement;
 * - the engine's steps and transitions (`start`, `ran`, `answered`, `timed`, `lapsed`, `gate`,
 *   `match`, `drive`, and for decisions `scopeOf`, `decided`, `reached`, `reach`, `policyOf`,
 *   `applicable`, `gated`, `byPolicy`), for hosts of the loop other than the toolkit.
 *
 * @packageDocumentation
 */

export {
  APPROVAL_PREFIX,
  Ask,
  Decision,
  MESSAGE_LIMIT,
  Policy,
  ResumeError,
  Run,
  STOP,
  Settle,
  answered,
  applicable,
  byPolicy,
  decided,
  drive,
  expired,
  gate,
  gated,
  isApproval,
  lapsed,
  match,
  parseTime,
  policyOf,
  ran,
  reach,
  reached,
  scopeOf,
  start,
  timed,
  unstorable,
  type Circumstances,
  type DecisionInit,
  type DecisionKind,
  type Effects,
  type Gated,
  type PolicyInit,
  type PolicyScope,
  type ResumeReason,
  type ScopeKind,
} from "./engine.js";
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
export {
  Toolkit,
  type Clock,
  type ExpireOptions,
  type ProgressHook,
  type ResumeOptions,
  type RunCallsOptions,
  type ToolkitOptions,
  type WaitFor,
} from "./toolkit.js";
