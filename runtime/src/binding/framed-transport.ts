// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The `Transport` of a framed custom binding (spec §12), under the generated typed client
 * (`<Service>TransportClient`): every typed call becomes a {@link FramedOutboundCall} on a
 * {@link FramedConnection}, its answer frames become messages (ProtoJSON) and the generated error
 * classes; the activated extensions reach `onHeaders` as `A2A-Extensions`; a lost connection is
 * UNAVAILABLE, as on every binding.
 */
import {
  fromJson,
  toJson,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { isA2AError, type ErrorRegistry } from "../errors/a2a-error.js";
import {
  callSignal,
  requestHeaders,
  requestMessage,
  unreachableError,
  type CallOptions,
  type ClientOptions,
} from "../client/call-options.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import type { Transport } from "../client/transport.js";
import { invalidAgentResponse } from "./agent-response-error.js";
import type { FramedAnswer, FramedConnection, FramedOperationTable } from "./framed-call.js";

/** Options of a framed binding's client: the standard client options, and where the frames go. */
export interface FramedTransportOptions extends ClientOptions {
  /** Where the frames go. Default: the binding's `connect(url)`. */
  readonly connection?: FramedConnection | undefined;
  /** The interface URL (`AgentInterface.url` of the binding's interface). */
  readonly url?: string | undefined;
}

/** What a binding gives {@link FramedTransport}: its tables and its holes. */
export interface FramedTransportHooks {
  /** The wire name of every operation, by RPC name (the scaffold's `<name>Operations`); an RPC missing here goes by its RPC name. */
  readonly operations: FramedOperationTable;
  /** The generated `errorRegistry`: the classes errors are decoded to. */
  readonly errors: ErrorRegistry;
  /** Opens a connection to `url` when the options give none. */
  connect(url: string): FramedConnection;
  /** An error frame's `error` back to the typed error class. Default: `errors.fromJsonRpcError` (the JSON-RPC error object). */
  readonly decodeError?: ((error: unknown) => Error) | undefined;
}

/** The activated extensions of an answer frame, as the `A2A-Extensions` response header. */
function reportExtensions(
  frame: { readonly activatedExtensions?: readonly string[] | undefined },
  options: CallOptions | undefined,
): void {
  if (frame.activatedExtensions !== undefined && frame.activatedExtensions.length > 0)
    options?.onHeaders?.(new Headers({ "a2a-extensions": frame.activatedExtensions.join(", ") }));
}

/** The Transport of a framed binding: every typed call as frames on one connection. */
export class FramedTransport implements Transport {
  readonly #hooks: FramedTransportHooks;
  readonly #options: FramedTransportOptions;
  #connection: FramedConnection | undefined;

  /** A transport over `options.connection`, or over `hooks.connect(options.url)` opened by the first call. */
  constructor(hooks: FramedTransportHooks, options: FramedTransportOptions) {
    this.#hooks = hooks;
    this.#options = options;
    this.#connection = options.connection;
  }

  /** Sends a unary call: one call frame, one result (or error) frame. */
  async unary<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): Promise<MessageShape<I["output"]>> {
    const { signal, cleanup } = callSignal(
      options?.signal,
      options?.timeoutMs ?? this.#options.timeoutMs,
    );
    try {
      for await (const frame of this.#send(operation, request, options, signal)) {
        if (frame.kind === "result") {
          reportExtensions(frame, options);
          return this.#decode(operation, frame.response);
        }
        if (frame.kind === "error") throw this.#decodeError(frame.error);
        throw invalidAgentResponse(
          this.#hooks.errors,
          `${operation.name}: a unary call was answered with a ${frame.kind} frame`,
        );
      }
      throw invalidAgentResponse(
        this.#hooks.errors,
        `${operation.name}: the connection ended before the answer`,
      );
    } catch (e) {
      throw isA2AError(e) ? e : unreachableError(this.#hooks.errors, e, signal);
    } finally {
      cleanup();
    }
  }

  /** Opens a stream: one call frame, event frames, then an end (or error) frame. */
  async *stream<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): AsyncIterable<MessageShape<I["output"]>> {
    const { signal, cleanup } = callSignal(
      options?.signal,
      options?.timeoutMs ?? this.#options.timeoutMs,
    );
    try {
      for await (const frame of this.#send(operation, request, options, signal)) {
        if (frame.kind === "event") {
          reportExtensions(frame, options);
          yield this.#decode(operation, frame.event);
        } else if (frame.kind === "end") return;
        else if (frame.kind === "error") throw this.#decodeError(frame.error);
        else
          throw invalidAgentResponse(
            this.#hooks.errors,
            `${operation.name}: a stream was answered with a ${frame.kind} frame`,
          );
      }
      throw invalidAgentResponse(
        this.#hooks.errors,
        `${operation.name}: the stream ended without its end frame`,
      );
    } catch (e) {
      throw isA2AError(e) ? e : unreachableError(this.#hooks.errors, e, signal);
    } finally {
      cleanup();
    }
  }

  /** Closes the connection (the one it opened, or the one it was given). */
  async close(): Promise<void> {
    await this.#connection?.close?.();
    this.#connection = undefined;
  }

  #send(
    operation: OperationDescriptor,
    request: MessageInitShape<OperationDescriptor["input"]>,
    options: CallOptions | undefined,
    signal: AbortSignal | undefined,
  ): AsyncIterable<FramedAnswer> {
    this.#connection ??= this.#hooks.connect(this.#options.url ?? "");
    const message = requestMessage(operation.input, request, this.#options);
    return this.#connection.call(
      {
        operation: this.#hooks.operations[operation.name]?.wire ?? operation.name,
        request: toJson(operation.input, message),
        serviceParameters: requestHeaders(this.#options, options),
      },
      signal,
    );
  }

  #decodeError(error: unknown): Error {
    const decode = this.#hooks.decodeError;
    return decode === undefined ? this.#hooks.errors.fromJsonRpcError(error) : decode(error);
  }

  #decode<I extends OperationDescriptor>(operation: I, json: JsonValue): MessageShape<I["output"]> {
    try {
      return fromJson(operation.output, json, { ignoreUnknownFields: true }) as MessageShape<
        I["output"]
      >;
    } catch (e) {
      throw invalidAgentResponse(
        this.#hooks.errors,
        `${operation.name}: the response does not decode: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
}
