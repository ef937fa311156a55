// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a scenario runs with on one binding: the binding's client (called generically, by the
 * operation's handler method name, with messages built from the descriptors), the reference agent
 * it observes, and the steps it records. Every call's failure is recorded, never thrown.
 */
import { fromJson, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { CallOptions } from "../client/call-options.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { EquivalenceClientOptions } from "./binding-factory.js";
import {
  errorOutcome,
  eventKind,
  IdPlaceholders,
  isCallerAbort,
  normalizeMessage,
  type ErrorOutcome,
  type EventOutcome,
  type OutcomeStep,
  type StreamEnd,
} from "./outcome.js";
import type { ReferenceAgent } from "./reference-agent.js";
import type { A2AOperationName, EquivalenceServiceSpec } from "./service-spec.js";

/** Options of one call a scenario makes. */
export interface StepOptions {
  /** Another client (from `clientWith`); default the binding's client. */
  readonly client?: object | undefined;
  /** Per-call options: extensions, headers, onHeaders (the scenario's deadline signal is added). */
  readonly call?: Omit<CallOptions, "signal"> | undefined;
}

/** Options of a streaming call: how the scenario stops reading it. */
export interface StreamStepOptions extends StepOptions {
  /** Aborts the call's signal after this many events, then keeps reading until the stream ends (an abort, or not). */
  readonly abortAfter?: number | undefined;
  /** Stops reading (`break`: the iterator's return) after this many events. */
  readonly closeAfter?: number | undefined;
}

/** The scenario's view of one binding. */
export interface ScenarioContext {
  readonly spec: EquivalenceServiceSpec;
  /** The eleven operations, by RPC name. */
  readonly ops: Readonly<Record<A2AOperationName, OperationDescriptor>>;
  /** The reference agent behind this binding's server (of the scenario's profile). */
  readonly agent: ReferenceAgent;
  /** The binding's client. */
  readonly client: object;
  /** Clients with other options, when the binding offers them. */
  readonly clientWith: ((options: EquivalenceClientOptions) => object) | undefined;
  /** Unique per scenario (the same on every binding): for context ids and `slow:` keys. */
  readonly key: string;
  /** Aborted when the scenario's time is up. */
  readonly signal: AbortSignal;
  /** Calls a unary operation and records the response or error; resolves with the response, undefined on error. */
  unary(
    label: string,
    op: A2AOperationName,
    request: JsonObject,
    options?: StepOptions,
  ): Promise<Message | undefined>;
  /** Calls a streaming operation, records its events and how it ended; resolves with the events. */
  stream(
    label: string,
    op: A2AOperationName,
    request: JsonObject,
    options?: StreamStepOptions,
  ): Promise<readonly Message[]>;
  /** Records something else the scenario observed. */
  fact(label: string, value: JsonValue): void;
  /** The last step recorded (to look at an error's message, say). */
  lastStep(): OutcomeStep | undefined;
}

/** A scenario context and the steps it records. */
export function createScenarioContext(
  init: Omit<ScenarioContext, "unary" | "stream" | "fact" | "lastStep">,
): { context: ScenarioContext; steps: OutcomeStep[] } {
  const steps: OutcomeStep[] = [];
  const ids = new IdPlaceholders();
  const method = (client: object, op: OperationDescriptor) => {
    const fn = (client as Record<string, unknown>)[op.localName];
    if (typeof fn !== "function") throw new TypeError(`the client has no method ${op.localName}`);
    return fn as (this: object, request: Message, options?: CallOptions) => unknown;
  };
  const error = (thrown: unknown): ErrorOutcome => errorOutcome(init.spec, thrown, ids);
  const context: ScenarioContext = {
    ...init,
    async unary(label, name, json, options) {
      const op = init.ops[name];
      const client = options?.client ?? init.client;
      try {
        const request = fromJson(op.input, json);
        const response = (await method(client, op).call(client, request, {
          ...options?.call,
          signal: init.signal,
        })) as Message;
        steps.push({
          label,
          observed: {
            kind: "result",
            type: op.output.typeName,
            value: normalizeMessage(op.output, response, ids),
          },
        });
        return response;
      } catch (e) {
        steps.push({ label, observed: { kind: "error", error: error(e) } });
        return undefined;
      }
    },
    async stream(label, name, json, options) {
      const op = init.ops[name];
      const client = options?.client ?? init.client;
      // The call's signal fires on the scenario's deadline and on its own abort (`abortAfter`).
      const controller = new AbortController();
      const call = new AbortController();
      for (const source of [init.signal, controller.signal]) {
        if (source.aborted) call.abort(source.reason);
        else source.addEventListener("abort", () => call.abort(source.reason), { once: true });
      }
      const signal = call.signal;
      const events: EventOutcome[] = [];
      const messages: Message[] = [];
      const record = (end: StreamEnd) =>
        steps.push({ label, observed: { kind: "stream", events, end } });
      try {
        const request = fromJson(op.input, json);
        const iterable = method(client, op).call(client, request, {
          ...options?.call,
          signal,
        }) as AsyncIterable<Message>;
        for await (const message of iterable) {
          messages.push(message);
          const value = normalizeMessage(op.output, message, ids);
          events.push({ kind: eventKind(value), value });
          if (options?.closeAfter !== undefined && events.length >= options.closeAfter) {
            record("closed");
            return messages;
          }
          if (options?.abortAfter !== undefined && events.length === options.abortAfter)
            controller.abort(new DOMException("the scenario aborted the stream", "AbortError"));
        }
        record("end");
      } catch (e) {
        record(isCallerAbort(e, controller.signal) ? "abort" : error(e));
      }
      return messages;
    },
    fact(label, value) {
      steps.push({ label, observed: { kind: "fact", value } });
    },
    lastStep: () => steps.at(-1),
  };
  return { context, steps };
}
