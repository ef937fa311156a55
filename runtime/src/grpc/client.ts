// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The gRPC client transport of A2A (spec §10) on a Connect transport, without anything of Node:
 * what a web page bundles (`@protoc-gen-a2a/runtime/grpc-client` in a browser build), with a
 * connect-web transport (gRPC-web or Connect) passed as `transport`. On Node, `./node-client.ts`
 * adds the default: Connect's gRPC transport over HTTP/2 to the interface's address.
 * The generated `<Service>GrpcClient` wraps it with one typed method per RPC.
 */
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import type { GrpcTransportOptions } from "@connectrpc/connect-node";
import type { DescService, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { ErrorRegistry } from "../errors/a2a-error.js";
import { requestHeaders, type CallOptions, type ClientOptions } from "../client/call-options.js";
import {
  checkedRequestMessage,
  clientRequestSettings,
  type ClientRequestSettings,
  type ClientServiceTables,
} from "../client/request-check.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { fromConnectError } from "./status.js";
import type { StatusDetailSchemas } from "../grpc-wire/status-detail-schemas.js";
import type { Transport as A2ATransport } from "../client/transport.js";
import { traceClientStream, traceClientUnary } from "../observe/tracing.js";

/** Options of a gRPC client, fixed for its lifetime. */
export interface GrpcClientOptions extends ClientOptions {
  /**
   * The interface address: `host:port` (the AgentInterface form clients dial; §8.5's sample shows a URL) or a URL
   * (`https://host:port`, `http://host:port` for h2c).
   */
  readonly address: string;
  /** For a bare `host:port`: use TLS. Default: true for port 443, false otherwise. */
  readonly tls?: boolean | undefined;
  /**
   * A Connect transport to use instead of a new gRPC transport (tests, custom TLS, interceptors). Required in a
   * browser: `createGrpcWebTransport({ baseUrl })` or `createConnectTransport({ baseUrl })` from
   * `@connectrpc/connect-web`, at the agent's gRPC-web or Connect interface.
   */
  readonly transport?: Transport | undefined;
  /** Options for the gRPC transport created otherwise, on Node (nodeOptions for TLS CAs, readMaxBytes, …). */
  readonly transportOptions?: Partial<GrpcTransportOptions> | undefined;
}

/** The base URL Connect needs, from `host:port` or a URL. */
export function grpcBaseUrl(address: string, tls?: boolean): string {
  if (/^https?:\/\//i.test(address)) return address;
  const port = /:(\d+)$/.exec(address)?.[1];
  const secure = tls ?? port === "443";
  return `${secure ? "https" : "http"}://${address}`;
}

/**
 * Calls A2A operations over gRPC; statuses come back as the generated error classes. This class needs a
 * `transport` (a browser's connect-web transport); on Node, `GrpcTransport` makes one from the address.
 */
export class GrpcTransport implements A2ATransport {
  readonly #options: GrpcClientOptions;
  readonly #client: Client<DescService>;
  readonly #clientKeys: ReadonlyMap<string, string>;
  readonly #errors: ErrorRegistry;
  readonly #schemas: StatusDetailSchemas;
  readonly #checks: ClientRequestSettings;

  /** `tables`: the service's REQUIRED table, checked before sending (the registry is the JSON bindings'). */
  constructor(
    options: GrpcClientOptions,
    service: DescService,
    statusDetails: StatusDetailSchemas,
    errors: ErrorRegistry,
    tables?: ClientServiceTables,
  ) {
    this.#options = options;
    this.#errors = errors;
    this.#checks = clientRequestSettings(errors, tables, undefined);
    this.#schemas = statusDetails;
    const transport = options.transport ?? this.defaultTransport(options);
    this.#client = createClient(service, transport);
    this.#clientKeys = new Map(service.methods.map((m) => [m.name, m.localName]));
  }

  /**
   * The transport of a client created without `transport`. Here, none: outside Node the caller chooses (a
   * browser's gRPC-web or Connect transport); the Node entry overrides it with Connect's gRPC transport.
   */
  protected defaultTransport(options: GrpcClientOptions): Transport {
    throw new TypeError(
      `no gRPC transport for ${options.address}: outside Node, pass \`transport\` (e.g. createGrpcWebTransport({ baseUrl }) from @connectrpc/connect-web, at the agent's gRPC-web interface)`,
    );
  }

  /**
   * Connect's client method of an operation: protobuf-es's `localName` of its RPC, which can
   * differ from the operation's (the generated `then$` of `rpc then` is Connect's `then`).
   */
  #clientKey(operation: OperationDescriptor): string {
    return this.#clientKeys.get(operation.name) ?? operation.localName;
  }

  /** Calls a unary operation (in a CLIENT span when the client has `tracing`). */
  unary<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): Promise<MessageShape<I["output"]>> {
    const call = { operation, binding: "GRPC", url: this.#options.address, request } as const;
    return traceClientUnary(this.#options, call, options, (opts) =>
      this.#unary(operation, request, opts),
    );
  }

  async #unary<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): Promise<MessageShape<I["output"]>> {
    const call = this.#client[this.#clientKey(operation)] as unknown as (
      req: unknown,
      opts: object,
    ) => Promise<MessageShape<I["output"]>>;
    try {
      return await call(this.#message(operation, request), this.#callOptions(options));
    } catch (e) {
      throw this.#error(e, options);
    }
  }

  /** Calls a server-streaming operation; breaking out of the loop cancels the call. */
  stream<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): AsyncGenerator<MessageShape<I["output"]>> {
    const call = { operation, binding: "GRPC", url: this.#options.address, request } as const;
    return traceClientStream(this.#options, call, options, (opts) =>
      this.#stream(operation, request, opts),
    );
  }

  async *#stream<I extends OperationDescriptor>(
    operation: I,
    request: MessageInitShape<I["input"]>,
    options?: CallOptions,
  ): AsyncGenerator<MessageShape<I["output"]>> {
    const call = this.#client[this.#clientKey(operation)] as unknown as (
      req: unknown,
      opts: object,
    ) => AsyncIterable<MessageShape<I["output"]>>;
    // Connect's stream does not cancel the call when the consumer stops reading (`break`): this
    // signal does, in `finally`, so the server's handler sees its signal abort (as on the HTTP bindings).
    const stop = new AbortController();
    const caller = options?.signal;
    const forward = () => stop.abort(caller?.reason);
    if (caller?.aborted === true) forward();
    else caller?.addEventListener("abort", forward, { once: true });
    try {
      yield* call(this.#message(operation, request), {
        ...this.#callOptions(options),
        signal: stop.signal,
      });
    } catch (e) {
      throw this.#error(e, options);
    } finally {
      caller?.removeEventListener("abort", forward);
      stop.abort();
    }
  }

  #message(operation: OperationDescriptor, init: MessageInitShape<OperationDescriptor["input"]>) {
    return checkedRequestMessage(this.#checks, operation.input, init, this.#options);
  }

  #callOptions(options: CallOptions | undefined) {
    const headers = requestHeaders(this.#options, options);
    return {
      headers,
      signal: options?.signal,
      timeoutMs: options?.timeoutMs ?? this.#options.timeoutMs,
      onHeader: options?.onHeaders,
    };
  }

  /**
   * A Connect error as the generated A2A error; the cancellation the caller's own abort caused
   * rejects with the signal's reason instead, as on the HTTP bindings.
   */
  #error(e: unknown, options: CallOptions | undefined): unknown {
    if (!(e instanceof ConnectError)) return e;
    const signal = options?.signal;
    if (signal?.aborted === true && e.code === Code.Canceled) return signal.reason;
    // The caller's own deadline passed: the TimeoutError the HTTP clients throw (call-options.ts).
    const timeoutMs = options?.timeoutMs ?? this.#options.timeoutMs;
    if (timeoutMs !== undefined && e.code === Code.DeadlineExceeded && e.details.length === 0)
      return new DOMException(`the call timed out after ${timeoutMs} ms`, "TimeoutError");
    const err = fromConnectError(e, this.#schemas, this.#errors);
    // Not an A2A error (no ErrorInfo: a connection failure, a cut stream): the ConnectError (and through it the
    // socket's failure, e.g. ECONNREFUSED) as `cause`, as the HTTP clients keep fetch's; a failover client tells
    // "never sent" from "sent, then cut" by it.
    if (err.cause === undefined && err.reason === "UNKNOWN" && err.spec.name === "A2AError")
      Object.defineProperty(err, "cause", {
        value: e,
        configurable: true,
        writable: true,
        enumerable: false,
      });
    return err;
  }
}
