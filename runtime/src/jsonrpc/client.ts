// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The JSON-RPC 2.0 client transport of A2A (spec §9) over `fetch`. The generated
 * `<Service>JsonRpcClient` wraps it with one typed method per RPC.
 */
import {
  toJson,
  type JsonValue,
  type Message,
  type MessageInitShape,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import type { A2AError, ErrorRegistry } from "../errors/a2a-error.js";
import {
  connectionEvents,
  isEventStream,
  resumableCall,
  unaryCall,
  type ClientRequest,
} from "../http/client-stream.js";
import type { ReceivedEvent, ResumableStreamClientOptions } from "../http/stream-resume.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { requestHeaders, type CallOptions, type ClientOptions } from "../client/call-options.js";
import { responseMessage } from "../client/response-message.js";
import {
  checkedRequestMessage,
  clientRequestSettings,
  type ClientRequestSettings,
  type ClientServiceTables,
} from "../client/request-check.js";
import type { TypeRegistryOption } from "../protojson/type-registry.js";
import type { Transport } from "../client/transport.js";
import { traceClientStream, traceClientUnary } from "../observe/tracing.js";
import { toJsonRpcParams } from "./params.js";
import {
  checkResponseEnvelope,
  parseResponseEnvelope,
  type ResponseEnvelopeErrors,
} from "./response-envelope.js";

/** Options of a JSON-RPC client, fixed for its lifetime. */
export interface JsonRpcClientOptions
  extends ClientOptions,
    ResumableStreamClientOptions,
    TypeRegistryOption {
  /** The interface URL (`AgentInterface.url` of a JSONRPC interface). */
  readonly url: string;
  /** The fetch to use; default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/** Calls A2A operations over JSON-RPC; wire errors come back as the generated error classes. */
export class JsonRpcTransport implements Transport {
  readonly #options: JsonRpcClientOptions;
  readonly #fetch: typeof globalThis.fetch;
  readonly #errors: ErrorRegistry;
  readonly #requests: ClientRequestSettings;
  #nextId = 1;

  /** `tables`: the service's REQUIRED table (checked before sending) and type registry, from the generated client. */
  constructor(options: JsonRpcClientOptions, errors: ErrorRegistry, tables?: ClientServiceTables) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#errors = errors;
    this.#requests = clientRequestSettings(errors, tables, options.registry);
  }

  /** Calls a unary operation (in a CLIENT span when the client has `tracing`). */
  unary<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): Promise<MessageShape<I["output"]>> {
    const call = { operation, binding: "JSONRPC", url: this.#options.url, request } as const;
    return traceClientUnary(this.#options, call, options, async (opts) => {
      const params = this.#params(operation, request);
      const id = this.#nextId++;
      const body = JSON.stringify({ jsonrpc: "2.0", id, method: operation.name, params });
      const headers = requestHeaders(this.#options, opts, {
        "content-type": "application/json",
        accept: "application/json",
      });
      return unaryCall(
        this.#request(headers, body),
        opts,
        this.#options.timeoutMs,
        (response, text) => this.#decodeResult(operation, this.#parseEnvelope(response, text, id)),
      );
    });
  }

  /**
   * Calls a server-streaming operation: the events, as they arrive. Breaking out of the loop cancels the call.
   * SendStreamingMessage and SubscribeToTask streams whose connection drops are resumed (see `resumeStreams`).
   */
  stream<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): AsyncGenerator<MessageShape<I["output"]>> {
    const call = { operation, binding: "JSONRPC", url: this.#options.url, request } as const;
    return traceClientStream(this.#options, call, options, (opts) =>
      resumableCall(
        operation,
        this.#options,
        opts,
        () => this.#params(operation, request),
        (op, params, signal, lastEventId) => this.#events(op, params, opts, signal, lastEventId),
      ),
    );
  }

  /** The `params` of a request, checked (REQUIRED fields) before anything is sent. */
  #params(
    operation: OperationDescriptor,
    init: MessageInitShape<OperationDescriptor["input"]>,
  ): JsonValue {
    const message = checkedRequestMessage(this.#requests, operation.input, init, this.#options);
    return toParams(operation, message, this.#requests.registry);
  }

  /**
   * The events of one connection of a stream (`lastEventId` set: a resumption), with `operation`'s
   * name as the method; as {@link connectionEvents} reads them.
   */
  async *#events<I extends OperationDescriptor>(
    operation: I,
    params: JsonValue,
    options: CallOptions | undefined,
    signal: AbortSignal | undefined,
    lastEventId: string | undefined,
  ): AsyncGenerator<ReceivedEvent<MessageShape<I["output"]>>> {
    const id = this.#nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method: operation.name, params });
    const extra: Record<string, string> = {
      "content-type": "application/json",
      accept: "text/event-stream",
    };
    if (lastEventId !== undefined) extra["last-event-id"] = lastEventId;
    const headers = requestHeaders(this.#options, options, extra);
    yield* connectionEvents(this.#request(headers, body), options, signal, lastEventId, {
      isStream: isEventStream,
      gatewayFailure: (status, text) => this.#errors.fromHttpError(status, text),
      // An error before the first event comes as a plain JSON-RPC response.
      plain: (response, text) =>
        this.#decodeResult(operation, this.#parseEnvelope(response, text, id)),
      event: (event) => {
        let envelope: unknown;
        try {
          envelope = JSON.parse(event.data);
        } catch {
          throw this.#protocolError(`stream event is not JSON: ${event.data.slice(0, 100)}`);
        }
        return this.#decodeResult(operation, this.#checkEnvelope(envelope, id, 200));
      },
    });
  }

  /** A POST of `body` to the interface URL. */
  #request(headers: Record<string, string>, body: string): ClientRequest {
    const url = this.#options.url;
    return { fetch: this.#fetch, url, method: "POST", headers, body, errors: this.#errors };
  }

  #parseEnvelope(response: Response, text: string, id: number): Record<string, unknown> {
    return parseResponseEnvelope(text, id, response.status, this.#envelopeErrors);
  }

  #checkEnvelope(json: unknown, id: number, status: number): Record<string, unknown> {
    return checkResponseEnvelope(json, id, status, this.#envelopeErrors);
  }

  /** What the response envelopes' errors are built with. */
  get #envelopeErrors(): ResponseEnvelopeErrors {
    return {
      errors: this.#errors,
      rpcError: (error) => this.#errors.fromJsonRpcError(error),
      protocolError: (message) => this.#protocolError(message),
    };
  }

  #decodeResult<I extends OperationDescriptor>(
    operation: I,
    envelope: Record<string, unknown>,
  ): MessageShape<I["output"]> {
    let result = envelope["result"] as JsonValue;
    // Some servers (@a2a-js/sdk 1.3.0) answer `null` where the result is google.protobuf.Empty (`{}`).
    if (result === null && operation.output.typeName === "google.protobuf.Empty") result = {};
    return responseMessage(operation, result, this.#requests.registry, "result", (message) =>
      this.#protocolError(message),
    );
  }

  /** A response that breaks the protocol (InvalidAgentResponseError). */
  #protocolError(message: string): A2AError {
    return this.#errors.fromJsonRpcError({
      code: -32006,
      message,
      data: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "INVALID_AGENT_RESPONSE",
          domain: "a2a-protocol.org",
        },
      ],
    });
  }
}

/** The `params` of a request: its ProtoJSON (Any and extensions by `registry`), by name, or `[value]` for a non-object type (params.ts). */
function toParams(
  operation: OperationDescriptor,
  message: Message,
  registry: Registry | undefined,
): JsonValue {
  return toJsonRpcParams(
    operation.input,
    toJson(operation.input, message, registry === undefined ? undefined : { registry }),
  );
}
