// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * `toolnexus-contract/engine`: the loop's engine, for hosts of the loop other than the `Toolkit`
 * (and for the tests of its steps): the sans-IO steps and transitions of `engine.ts`, a port of
 * Python's `toolnexus/_engine.py`. A user of tools and the `Toolkit` needs none of it:
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
  applicable,
  approvalForm,
  byPolicy,
  checkAnswer,
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
  type Effects,
  type Gated,
} from "./engine.js";
