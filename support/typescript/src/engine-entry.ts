// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `toolnexus-contract/engine`: the loop's engine, for hosts of the loop other than the `Toolkit`
 * (and for the tests of its steps): the sans-IO steps and transitions of `engine.ts` and `decisions.ts`, a port of
 * Python's `toolnexus/_engine/`. A user of tools and the `Toolkit` needs none of it:
 * `toolnexus-contract/runtime` is that API.
 *
 * - the steps (`Run`, `Ask`, `Settle`) and transitions (`start`, `ran`, `answered`, `timed`,
 *   `lapsed`), the gate before a run (`gate`), matching answers to calls (`match`,
 *   `checkAnswer`), approvals (`isApproval`, `approvalForm`, `APPROVAL_PREFIX`, `APPROVAL_DATA`),
 *   expiry (`parseTime`, `expired`), what cannot be stored (`unstorable`), and `drive`, which
 *   performs one call's steps with a host's {@link Effects};
 * - decisions: `scopeOf`, `decided`, `reached`, `reach`, `policyOf`, `applicable`, `gated`,
 *   `byPolicy` (the `Decision` and `Policy` they make are in `toolnexus-contract/runtime`).
 *
 * @packageDocumentation
 */

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
  applicable,
  byPolicy,
  decided,
  gated,
  policyOf,
  reach,
  reached,
  scopeOf,
  type Circumstances,
  type Gated,
} from "./decisions.js";
