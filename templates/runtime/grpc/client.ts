/**
 * The gRPC client transport of A2A (spec §10) on Connect's gRPC transport over HTTP/2.
 * The generated `<Service>GrpcClient` wraps it with one typed method per RPC.
 */
import { ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, type GrpcTransportOptions } from "@connectrpc/connect-node";
import { create, type DescService, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import type { ErrorRegistry } from "../a2a-error.js";
import type { CallOptions } from "../call-options.js";
import type { OperationDescriptor } from "../operation.js";
import { formatExtensions } from "../service-parameters.js";
import { fromConnectError, type StatusDetailSchemas } from "./status.js";

/** Options of a gRPC client, fixed for its lifetime. */
export interface GrpcClientOptions {
  /**
   * The interface address: `host:port` (the AgentInterface form, CHECKLIST K1) or a URL
   * (`https://host:port`, `http://host:port` for h2c).
   */
  readonly address: string;
  /** For a bare `host:port`: use TLS. Default: true for port 443, false otherwise. */
  readonly tls?: boolean;
  /** Sent as `a2a-version` metadata. Default "1.0". */
  readonly version?: string;
  /** Sets `tenant` in requests that have the field and leave it empty. */
  readonly tenant?: string;
  readonly extensions?: readonly string[];
  /** Metadata sent on every call (e.g. authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** A Connect transport to use instead of a new gRPC transport (tests, custom TLS, interceptors). */
  readonly transport?: Transport;
  /** Options for the gRPC transport created otherwise (nodeOptions for TLS CAs, readMaxBytes, …). */
  readonly transportOptions?: Partial<GrpcTransportOptions>;
}

/** The base URL Connect needs, from `host:port` or a URL. */
export function grpcBaseUrl(address: string, tls?: boolean): string {
  if (/^https?:\/\//i.test(address)) return address;
  const port = /:(\d+)$/.exec(address)?.[1];
  const secure = tls ?? port === "443";
  return `${secure ? "https" : "http"}://${address}`;
}

/** Calls A2A operations over gRPC; statuses come back as the generated error classes. */
export class GrpcTransport {
  readonly #options: GrpcClientOptions;
  readonly #client: Client<DescService>;
  readonly #errors: ErrorRegistry;
  readonly #schemas: StatusDetailSchemas;

  constructor(options: GrpcClientOptions, service: DescService, statusDetails: StatusDetailSchemas, errors: ErrorRegistry) {
    this.#options = options;
    this.#errors = errors;
    this.#schemas = statusDetails;
    const transport =
      options.transport ??
      createGrpcTransport({ baseUrl: grpcBaseUrl(options.address, options.tls), ...options.transportOptions });
    this.#client = createClient(service, transport);
  }

  /** Calls a unary operation. */
  async unary<I extends OperationDescriptor>(operation: I, request: MessageInitShape<I["input"]>, options?: CallOptions): Promise<MessageShape<I["output"]>> {
    const call = this.#client[operation.localName] as unknown as (req: unknown, opts: object) => Promise<MessageShape<I["output"]>>;
    try {
      return await call(this.#message(operation, request), this.#callOptions(options));
    } catch (e) {
      throw this.#error(e);
    }
  }

  /** Calls a server-streaming operation; breaking out of the loop cancels the call. */
  async *stream<I extends OperationDescriptor>(operation: I, request: MessageInitShape<I["input"]>, options?: CallOptions): AsyncGenerator<MessageShape<I["output"]>> {
    const call = this.#client[operation.localName] as unknown as (req: unknown, opts: object) => AsyncIterable<MessageShape<I["output"]>>;
    try {
      yield* call(this.#message(operation, request), this.#callOptions(options));
    } catch (e) {
      throw this.#error(e);
    }
  }

  #message(operation: OperationDescriptor, init: MessageInitShape<OperationDescriptor["input"]>) {
    const message = create(operation.input, init);
    const tenant = this.#options.tenant;
    if (tenant !== undefined && operation.input.field["tenant"] !== undefined && (message as { tenant?: string }).tenant === "") {
      (message as { tenant?: string }).tenant = tenant;
    }
    return message;
  }

  #callOptions(options: CallOptions | undefined) {
    const headers: Record<string, string> = { ...this.#options.headers, ...options?.headers, "a2a-version": this.#options.version ?? "1.0" };
    const extensions = [...(this.#options.extensions ?? []), ...(options?.extensions ?? [])];
    if (extensions.length > 0) headers["a2a-extensions"] = formatExtensions(new Set(extensions));
    return {
      headers,
      signal: options?.signal,
      timeoutMs: options?.timeoutMs ?? this.#options.timeoutMs,
      onHeader: options?.onHeaders,
    };
  }

  #error(e: unknown): unknown {
    return e instanceof ConnectError ? fromConnectError(e, this.#schemas, this.#errors) : e;
  }
}
