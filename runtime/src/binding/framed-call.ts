// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The vocabulary of a framed custom binding (spec §12): calls and their answers travel as frames
 * on one connection (a socket, a session, a pair of pipes), told apart by a call id, so that calls
 * and streams share it. The server side ({@link createFramedBindingServer}) reads
 * {@link FramedInboundCall}s and answers through a {@link FramedReplySink}; the client side
 * ({@link FramedTransport}, {@link createFramedConnection}) sends {@link FramedOutboundCall}s and
 * reads {@link FramedAnswer}s.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonRpcErrorObject } from "../errors/a2a-error.js";

/** A call's id on the wire: answers carry it, so that calls can share one connection. */
export type FramedCallId = string | number;

/** A call id: a string, or a finite number (JSON-RPC's ids without null). */
export function isFramedCallId(id: unknown): id is FramedCallId {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** How one core operation travels on the binding's wire (an entry of the scaffold's `<name>Operations` table). */
export interface FramedOperationWiring {
  /** The operation's name in a frame (default: the RPC name, as JSON-RPC has it). */
  readonly wire: string;
}

/** The wiring of every operation, by RPC name (`{ SendMessage: { wire: "SendMessage" }, … }`). */
export type FramedOperationTable = Readonly<Record<string, FramedOperationWiring>>;

/** One call as the server read it from an inbound frame. */
export interface FramedInboundCall {
  readonly id: FramedCallId;
  /** The operation's wire name (the operations table's `wire`). */
  readonly operation: string;
  /** The request in ProtoJSON (spec §5.5, §12.2); decoded and validated by the pipeline. */
  readonly request: JsonValue;
  /** The call's service parameters (§3.2.6, §12.3): A2A-Version, A2A-Extensions, credentials. */
  readonly serviceParameters: Readonly<Record<string, string>>;
  /** The tenant, when the binding's addressing carries one (§3.2.7). */
  readonly tenant?: string | undefined;
}

/**
 * Where the server writes the answer frames of a call, in order. Every method may return a
 * promise: the server awaits it before the call's next frame (backpressure).
 * `E`: the binding's native error form (default: the JSON-RPC error object).
 */
export interface FramedReplySink<E = JsonRpcErrorObject> {
  /** A unary call's response (and the extensions the agent activated: send them back as A2A-Extensions). */
  result(
    id: FramedCallId,
    response: JsonValue,
    activatedExtensions: readonly string[],
  ): void | Promise<void>;
  /**
   * One event of a stream; resolve when the transport can take more (backpressure).
   * `activatedExtensions`: on the first event, the extensions the agent activated (send them
   * back as A2A-Extensions, §4.6); empty on later events.
   */
  event(
    id: FramedCallId,
    event: JsonValue,
    activatedExtensions: readonly string[],
  ): void | Promise<void>;
  /** The regular end of a stream. */
  end(id: FramedCallId): void | Promise<void>;
  /** A failed call, or the last frame of a failed stream; `id` null when the frame could not be read. */
  error(id: FramedCallId | null, error: E): void | Promise<void>;
}

/** One call as the client sends it (the connection gives it its wire id: ids are the connection's). */
export interface FramedOutboundCall {
  /** The operation's wire name (the operations table's `wire`). */
  readonly operation: string;
  /** The request in ProtoJSON. */
  readonly request: JsonValue;
  /** Service parameters (§3.2.6): A2A-Version, A2A-Extensions, the client's headers (credentials). */
  readonly serviceParameters: Readonly<Record<string, string>>;
}

/** One answer frame of a call, as the client reads it. */
export type FramedAnswer =
  | {
      readonly kind: "result";
      readonly response: JsonValue;
      readonly activatedExtensions?: readonly string[] | undefined;
    }
  /** `activatedExtensions`: on a stream's first event, the extensions the agent activated. */
  | {
      readonly kind: "event";
      readonly event: JsonValue;
      readonly activatedExtensions?: readonly string[] | undefined;
    }
  | { readonly kind: "end" }
  /** `error` in the binding's native error form (by default a JSON-RPC error object). */
  | { readonly kind: "error"; readonly error: unknown };

/**
 * The client's end of a binding: `call` sends one call and yields its answer frames as they
 * arrive (a result; or events then an end; or an error), and stops the call on the wire when
 * `signal` aborts or the caller stops iterating (streaming cancellation, §12.5).
 */
export interface FramedConnection {
  call(call: FramedOutboundCall, signal: AbortSignal | undefined): AsyncIterable<FramedAnswer>;
  /** Closes the connection; its running calls fail. */
  close?(): void | Promise<void>;
}
