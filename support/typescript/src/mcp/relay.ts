// codegen: package; requires Request, Answer, ToolResult, ToolCall, ToolCallResult, RunResult

/**
 * The relay of a server's elicitations (how a server asks for input in the middle of a call, at
 * the protocol versions the SDK's 1.x speaks) to the calls of `mcpToolsFrom`'s tools:
 * {@link ElicitationRelay}, a port of Python's `toolnexus/mcp/_relay.py`.
 *
 * @packageDocumentation
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { WireError } from "../errors.js";
import type { ToolContext } from "../tool.js";
import type { Answer, Request } from "../types.js";
import { elicitResultOf, requestOf, type ElicitParams } from "./shapes.js";

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  settled: boolean;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  const out: Deferred<T> = {
    promise,
    settled: false,
    resolve: (value: T) => {
      out.settled = true;
      resolve(value);
    },
  };
  return out;
}

/** Where a relayed call stands: its result (or the SDK's error), a question, or out of time. */
export type Landed = { readonly done: CallToolResult } | { readonly failed: unknown } | { readonly asked: Request } | { readonly timedOut: true };

/** Sends the call: with the signal that cancels it, and the progress listener (`progress / total`). */
export type Send = (signal: AbortSignal, onprogress: Progress) => Promise<CallToolResult>;

/** The SDK's progress callback: progress without a `total` is not reported. */
export type Progress = (progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void;

/** A call in flight over a client with a relay, and the elicitation it waits on. */
interface Flight {
  outcome: Promise<{ done: CallToolResult } | { failed: unknown }>;
  readonly abort: AbortController;
  asked: Deferred<ElicitParams>;
  reply: Deferred<ElicitResult> | undefined;
  params: ElicitParams | undefined;
  request: Request | undefined;
  ctx: ToolContext;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Milliseconds left of the call's timeout, spent only while the server is waited on; undefined: none. */
  budget: number | undefined;
}

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

/**
 * The elicitation handler of an SDK `Client` whose tools `mcpToolsFrom` wraps: a server's
 * elicitation becomes a suspension of the tool call that is waiting, and the toolkit's answer goes
 * back as the elicitation's result when the tool runs again (`Toolkit.runCalls` with `waitFor`, or
 * `resume`, in this process).
 *
 * The MCP call stays open meanwhile, so the answer must come within `wait` seconds (600 by
 * default), after which the elicitation is cancelled. An elicitation does not say which call it
 * belongs to, so one call of the client at a time may ask: a call is sent once every other call
 * has asked (and waits on its answer) or ended, and an answer goes back once no other call may
 * ask. Calls that never ask so run one after another. An elicitation outside any call is declined.
 *
 * ```ts
 * const client = new Client({ name: "host", version: "1" }, { capabilities: { elicitation: { form: {}, url: {} } } });
 * const relay = new ElicitationRelay();
 * relay.attach(client);
 * ```
 */
export class ElicitationRelay {
  /** Seconds an elicitation waits on its answer. */
  readonly wait: number;
  readonly #parked = new Map<string, Flight>();
  #speaker: Flight | undefined;
  #quiet: Deferred<void> = deferred();

  constructor(options: { wait?: number } = {}) {
    const wait = options.wait ?? 600;
    if (typeof wait !== "number" || !(wait > 0)) {
      throw new RangeError(`wait must be a positive number of seconds, got ${String(wait)}`);
    }
    this.wait = wait;
    this.#quiet.resolve();
  }

  /** Makes this relay `client`'s `elicitation/create` handler (the client must declare `elicitation`). */
  attach(client: Client): void {
    client.setRequestHandler(ElicitRequestSchema, (request) => this.elicit(request.params));
  }

  /** A server's elicitation: the speaking call's question, or declined when no call may ask. */
  elicit(params: ElicitParams): Promise<ElicitResult> {
    const flight = this.#speaker;
    if (flight === undefined || flight.asked.settled) {
      return Promise.resolve({ action: "decline" });
    }
    const reply = deferred<ElicitResult>();
    flight.reply = reply;
    flight.asked.resolve(params);
    this.#hush(flight);
    return reply.promise;
  }

  /** @internal Sends a call once it may ask, and follows it to its result or its first question. */
  async start(send: Send, budget: number | undefined, ctx: ToolContext): Promise<Landed> {
    const abort = new AbortController();
    const flight: Flight = { outcome: Promise.resolve({ failed: undefined }), abort, asked: deferred(), reply: undefined, params: undefined, request: undefined, ctx, timer: undefined, budget };
    const onprogress: Progress = ({ progress, total, message }) => {
      if (total) {
        flight.ctx.progress(Math.min(Math.max(progress / total, 0), 1), message ?? "");
      }
    };
    await this.#speak(flight);
    try {
      flight.outcome = send(abort.signal, onprogress).then(
        (done) => ({ done }),
        (failed: unknown) => ({ failed }),
      );
    } catch (failed) {
      flight.outcome = Promise.resolve({ failed });
    }
    return this.#land(flight);
  }

  /** @internal The answer to a parked question: it goes back to the server, and the call is followed on; undefined when no call here asked it. */
  answer(answer: Answer, ctx: ToolContext): Promise<Landed> | undefined {
    const flight = this.#parked.get(answer.id);
    if (flight === undefined || flight.params === undefined) {
      return undefined;
    }
    this.#parked.delete(answer.id);
    clearTimeout(flight.timer);
    flight.timer = undefined;
    flight.ctx = ctx;
    return this.#reply(flight, elicitResultOf(flight.params, answer)).then(() => this.#land(flight));
  }

  async #land(flight: Flight): Promise<Landed> {
    for (;;) {
      const started = Date.now();
      let timer: unknown;
      const out = flight.budget === undefined ? undefined : new Promise<{ timedOut: true }>((r) => (timer = setTimeout(() => r({ timedOut: true }), Math.max(flight.budget ?? 0, 0))));
      const first = await Promise.race([flight.outcome, flight.asked.promise.then((params) => ({ params })), ...(out === undefined ? [] : [out])]);
      clearTimeout(timer);
      if (flight.budget !== undefined) {
        flight.budget -= Date.now() - started;
      }
      if ("done" in first || "failed" in first) {
        this.#close(flight);
        return first;
      }
      if ("timedOut" in first) {
        flight.abort.abort(new Error("timed out")); // the SDK tells the server the call is cancelled
        this.#close(flight);
        return first;
      }
      let request: Request;
      try {
        request = requestOf(first.params);
      } catch (err) {
        if (!WireError.isWireError(err)) {
          throw err;
        }
        // Not asked (a URL elicitation to a `javascript:` link): the server hears a decline.
        await this.#reply(flight, { action: "decline" });
        continue;
      }
      flight.params = first.params;
      this.#park(flight, request);
      return { asked: request };
    }
  }

  /** Waits until no other call may ask, then makes `flight` the one that may. */
  async #speak(flight: Flight): Promise<void> {
    while (this.#speaker !== undefined && this.#speaker !== flight) {
      await this.#quiet.promise;
    }
    if (this.#speaker !== flight) {
      this.#speaker = flight;
      this.#quiet = deferred();
    }
  }

  /** `flight` asks, or ended: another call may ask now. */
  #hush(flight: Flight): void {
    if (this.#speaker === flight) {
      this.#speaker = undefined;
      this.#quiet.resolve();
    }
  }

  /** Answers the elicitation `flight` waits on, once it may ask again. */
  async #reply(flight: Flight, result: ElicitResult): Promise<void> {
    const reply = flight.reply;
    flight.reply = undefined;
    flight.asked = deferred();
    if (reply !== undefined && !reply.settled) {
      await this.#speak(flight);
      reply.resolve(result);
    }
  }

  #close(flight: Flight): void {
    this.#hush(flight);
    if (flight.request !== undefined && this.#parked.get(flight.request.id) === flight) {
      this.#parked.delete(flight.request.id);
    }
    clearTimeout(flight.timer);
    if (flight.reply !== undefined && !flight.reply.settled) {
      flight.reply.resolve({ action: "cancel" }); // the call ended while its elicitation waited
    }
  }

  #park(flight: Flight, request: Request): void {
    flight.request = request;
    this.#parked.set(request.id, flight);
    flight.timer = setTimeout(() => this.#expire(flight), this.wait * 1000);
    (flight.timer as { unref?: () => void }).unref?.(); // a question left waiting does not keep the process up
    void flight.outcome.then(() => {
      // The call ended while its elicitation waited (the server gave up): the elicitation is
      // cancelled; an answer to it then returns the call's result.
      if (this.#parked.get(request.id) === flight && flight.reply !== undefined && !flight.reply.settled) {
        flight.reply.resolve({ action: "cancel" });
        flight.reply = undefined;
      }
    });
  }

  /** No answer came in time: the elicitation is cancelled, and the call's result dropped. */
  #expire(flight: Flight): void {
    if (flight.request !== undefined) {
      this.#parked.delete(flight.request.id);
    }
    void this.#reply(flight, { action: "cancel" }).then(() => flight.outcome.then(() => this.#close(flight)));
  }
}
