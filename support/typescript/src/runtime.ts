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
 *   tool failure;
 * - {@link Toolkit}: `runCalls`, `resume`, `expire`, `policies`, `revokePolicy`; runs sealed by
 *   the Python and Rust packages resume here, and the other way round (seal version 4,
 *   `docs/seal.md`);
 * - the errors ({@link ToolnexusError}, the root, with the realm-proof guard
 *   `ToolnexusError.isToolnexusError`; {@link ResumeError}: `resume` refused a run, `.reason`);
 * - decisions: {@link Decision} (what the decision log takes), {@link Policy} (a decision kept
 *   beyond its turn), {@link PolicyMemory} and the {@link PolicyStore} and {@link DecisionLog}
 *   interfaces a host's own stores implement;
 * - the engine's steps and transitions (`start`, `ran`, `answered`, `timed`, `lapsed`, `gate`,
 *   `match`, `checkAnswer`, `approvalForm`, `drive`, and for decisions `scopeOf`, `decided`, `reached`, `reach`, `policyOf`,
 *   `applicable`, `gated`, `byPolicy`), for hosts of the loop other than the toolkit.
 *
 * @packageDocumentation
 */

export { ResumeError, ToolnexusError, WireError, type ResumeReason } from "./errors.js";
export {
  APPROVAL_DATA,
  APPROVAL_PREFIX,
  Ask,
  MESSAGE_LIMIT,
  Run,
  STOP,
  Settle,
  answered,
  approvalForm,
  checkAnswer,
  drive,
  expired,
  gate,
  isApproval,
  lapsed,
  match,
  parseTime,
  ran,
  start,
  timed,
  unstorable,
  type Effects,
} from "./engine.js";
export {
  Decision,
  Policy,
  applicable,
  byPolicy,
  decided,
  gated,
  policyOf,
  reach,
  reached,
  scopeOf,
  type Circumstances,
  type DecisionInit,
  type DecisionKind,
  type Gated,
  type PolicyInit,
  type PolicyScope,
  type ScopeKind,
} from "./decisions.js";
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
