// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The gRPC binding of A2A (spec §10) on `@grpc/grpc-js`: the same service definition and
 * the same pipeline as the Connect server (grpc/server.ts): service parameters from
 * metadata, authentication, version negotiation, extensions, REQUIRED fields, then the
 * handler; errors as gRPC statuses with a google.rpc.Status (ErrorInfo, BadRequest) in
 * `grpc-status-details-bin`. Only the HTTP/2 and gRPC framing are grpc-js's. No gRPC-web,
 * no Connect protocol on this stack: such requests are refused before dispatch (415).
 * (Connect's own per-call pipeline is 3–5× slower than grpc-js; `listenGrpc` serves plain gRPC
 * unary calls on a lean node:http2 path instead, grpc/lean-unary.ts, which is faster than this
 * stack: bench/grpc.mjs.)
 *
 * Deliberately free of Connect at run time: what it shares with the Connect stack is in grpc-wire/
 * (whose only Connect import is a type), and nothing here imports from grpc/ (test/runtime/grpc/stack-imports.test.ts).
 */
import {
  constants as http2Constants,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from "node:http2";
import {
  Metadata,
  Server,
  ServerCredentials,
  setLogger,
  status as GrpcStatus,
} from "@grpc/grpc-js";
import type {
  KeyCertPair,
  MethodDefinition,
  ServerOptions as GrpcJsServerOptions,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedServiceImplementation,
  sendUnaryData,
} from "@grpc/grpc-js";
import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethod,
  type DescService,
  type Message,
  type MessageInitShape,
} from "@bufbuild/protobuf";
import { anyPack, type Any } from "@bufbuild/protobuf/wkt";
import { A2AError, ERROR_DOMAIN, toA2AError } from "../errors/a2a-error.js";
import {
  ServiceParameters,
  type CallContext,
  type HeaderSource,
} from "../pipeline/call-context.js";
import { LazyCallCancellation } from "../pipeline/call-abort.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { findMissingFields, type FieldRule } from "../pipeline/required-fields.js";
import { formatExtensions } from "../pipeline/service-parameters.js";
import {
  checkRequestLimits,
  dispatchCall,
  establishContext,
  internalError,
  resolveServerOptions,
  type PipelineSettings,
} from "../pipeline/server-pipeline.js";
import {
  maxConcurrentStreamsOf,
  sessionTimeouts,
  type GrpcEndpoint,
  type GrpcListenOptions,
} from "../grpc-wire/listen-options.js";
import type { GrpcServerOptions, GrpcServiceDefinition } from "../grpc-wire/service-definition.js";
import type { StatusDetailSchemas } from "../grpc-wire/status-detail-schemas.js";
import { DEFAULT_GRPC_READ_MAX_BYTES } from "../grpc-wire/limits.js";
import { guardHttp2Sessions } from "../grpc-wire/session-guard.js";
import { clampDeadlineHeaders } from "../grpc-wire/timeout-header.js";
import { compressedWithoutEncoding, undecodableRequest } from "../grpc-wire/request-errors.js";
import { namesCompression, refuseCompressedMessages } from "../grpc-wire/compressed-flag-guard.js";
import { addGrpcJsReflection } from "./reflection.js";
import { ownEntry } from "../protojson/own-json.js";

/** The generated google.rpc schemas this binding packs by hand (Connect packs google.rpc.Status itself). */
export interface GrpcJsStatusSchemas extends StatusDetailSchemas {
  /** google.rpc.Status (`StatusSchema` of google/rpc/status_pb). */
  readonly status: DescMessage;
}

/**
 * The definition the Connect binding takes, with google.rpc.Status added to `statusDetails`.
 * One object literal serves both stacks (Connect ignores `statusDetails.status`).
 */
export interface GrpcJsServiceDefinition<Principal> extends GrpcServiceDefinition<Principal> {
  readonly statusDetails: GrpcJsStatusSchemas;
}

/**
 * Where and how to listen: the options of the Connect stack, plus grpc-js server options.
 * Of `adapter` (Connect's adapter options) only `readMaxBytes` (→ `grpc.max_receive_message_length`,
 * default 4 MiB as on the Connect stack) and `writeMaxBytes` (→ `grpc.max_send_message_length`)
 * apply; the rest (maxTimeoutMs, compression, interceptors, …) is ignored on this stack.
 */
export interface GrpcJsListenOptions extends GrpcListenOptions {
  /** Passed to `new Server(…)` (keepalive, max concurrent streams, interceptors, …); wins over `adapter`. */
  readonly grpcJs?: GrpcJsServerOptions | undefined;
  /**
   * grpc-js logs an ERROR line, with the client's text in it, for every metadata entry it drops (a key
   * with `&` or `+`, a value with non-ASCII bytes): any client can write lines into the agent's log
   * at any rate. By default those lines are dropped from grpc-js's logger (process-wide; every other
   * grpc-js line still reaches the logger that was set before); `true` keeps them.
   */
  readonly logDroppedMetadata?: boolean | undefined;
  /**
   * More services on the same server (and in its reflection), e.g. A2A 0.3's `a2a.v1.A2AService`
   * beside `lf.a2a.v1.A2AService`: what `grpcJsService` (the generated `create<Service>GrpcJsService`) returns.
   */
  readonly services?: readonly GrpcJsServiceEntry[] | undefined;
}

/** A service for `GrpcJsListenOptions.services`: the generated `create<Service>GrpcJsService(handler)`'s result. */
export interface GrpcJsServiceEntry {
  readonly service: ServiceDefinition;
  readonly implementation: UntypedServiceImplementation;
  /** Its descriptor, for reflection. */
  readonly descriptor?: DescService | undefined;
}

/** A listening grpc-js endpoint: `server` is the node:http2 server grpc-js listens on; `grpcServer` the grpc-js Server. */
export interface GrpcJsEndpoint extends GrpcEndpoint {
  readonly grpcServer: Server;
}

/** How long close() lets calls in flight finish before it cuts the connections. */
const CLOSE_GRACE_MS = 1000;

/** Abort reasons of the CallContext signal (shared: allocated once). */
const CANCELLED_REASON = new DOMException("the call was cancelled or has ended", "AbortError");
const DEADLINE_REASON = new DOMException("the call's deadline passed", "TimeoutError");
/** Answers to a call grpc-js has already ended (cancelled, past its deadline): grpc-js drops them. */
const CANCELLED_STATUS = { code: GrpcStatus.CANCELLED, details: "Cancelled" };
const DEADLINE_STATUS = { code: GrpcStatus.DEADLINE_EXCEEDED, details: "Deadline exceeded" };

const noop = (): void => {};

/**
 * A call's cancellation (see call-abort.ts): aborted by grpc-js's 'cancelled' (client cancel, deadline,
 * shutdown) until the call is answered. No AbortSignal per call: `signal` is made when a handler reads it,
 * the runtime's own waiters use `onAbort`.
 */
class GrpcJsCancellation extends LazyCallCancellation<DOMException> {
  /** The call is answered: a later 'cancelled' (grpc-js emits one when the call ends) is not an abort. */
  answered = false;

  override abort(reason: DOMException): boolean {
    return !this.answered && super.abort(reason);
  }
}

/** Where a call keeps its cancellation, so that one shared 'cancelled' listener serves every call. */
const CANCELLATION = Symbol("a2a.grpc-js.cancellation");
type TrackedCall = (ServerUnaryCall<Message, Message> | ServerWritableStream<Message, Message>) & {
  [CANCELLATION]?: GrpcJsCancellation | undefined;
};

/** Everything a method's handler needs, resolved once per method (not per call). */
interface Binding<Principal> {
  readonly settings: PipelineSettings<Principal>;
  readonly definition: GrpcJsServiceDefinition<Principal>;
  readonly operation: OperationDescriptor;
  /** The REQUIRED-field rules of the request type, or undefined when it has none. */
  readonly rules: readonly FieldRule[] | undefined;
}

/**
 * The A2A service as a grpc-js ServiceDefinition and implementation, for an existing grpc-js Server:
 * `server.addService(service, implementation)`. Built from the descriptor: path `/<service>/<rpc>`,
 * protobuf-es binary (de)serialization. A request that does not decode is answered InvalidRequestError
 * (INVALID_ARGUMENT, ErrorInfo INVALID_REQUEST; grpc-wire/request-errors.ts says why not INTERNAL), the
 * handler not called; a response that cannot be encoded is the generic InternalError (text logged).
 */
export function grpcJsService<Principal>(
  definition: GrpcJsServiceDefinition<Principal>,
  options?: GrpcServerOptions<Principal>,
): GrpcJsServiceEntry & { readonly descriptor: DescService } {
  const settings = resolveServerOptions(options, definition.errors, definition.registry);
  const service: Record<string, MethodDefinition<Message, Message>> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const method of definition.service.methods) {
    // Own entries only: an RPC may be named after an Object.prototype member (`toString`).
    const operation = ownEntry(definition.operations, method.name);
    if (operation === undefined) continue;
    if (method.methodKind !== "unary" && method.methodKind !== "server_streaming") continue;
    service[method.name] = methodDefinition(definition.service.typeName, method);
    const binding: Binding<Principal> = {
      settings,
      definition,
      operation,
      rules: definition.requestFields[operation.input.typeName],
    };
    implementation[method.name] =
      method.methodKind === "unary"
        ? (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>) =>
            void handleUnary(binding, call, callback)
        : (call: ServerWritableStream<Message, Message>) => void handleServerStream(binding, call);
  }
  return { service: service as ServiceDefinition, implementation, descriptor: definition.service };
}

/**
 * Serves the A2A service over gRPC on a new grpc-js Server: TLS when `listen.tls` has a key and
 * certificate (spec §10.1), h2c when `listen.tls` is absent. Resolves when listening; `address` is
 * the `host:port` an AgentInterface advertises. `close()` shuts down gracefully, and cuts the calls
 * still running after a short grace (1 s). Content types other than `application/grpc[+proto]` are
 * answered 415 (INVALID_ARGUMENT) without dispatch; connections whose HTTP/2 session is over (GOAWAY
 * after a protocol error, …) are closed after `listen.goawayGraceMs` (default 3 s); the connection
 * limits of GrpcListenOptions apply (`maxConcurrentStreams`, handshake, idle, request-message and stalled-write timeouts).
 */
export async function listenGrpcJs<Principal>(
  definition: GrpcJsServiceDefinition<Principal>,
  options?: GrpcServerOptions<Principal>,
  listen?: GrpcJsListenOptions,
): Promise<GrpcJsEndpoint> {
  // Channelz (call counters and timestamps on every message) is off unless asked for (`grpcJs: { "grpc.enable_channelz": 1 }`):
  // nothing serves it here, and it costs on every call.
  const serverOptions: GrpcJsServerOptions = {
    "grpc.max_receive_message_length": listen?.adapter?.readMaxBytes ?? DEFAULT_GRPC_READ_MAX_BYTES,
    "grpc.enable_channelz": 0,
  };
  if (listen?.adapter?.writeMaxBytes !== undefined)
    serverOptions["grpc.max_send_message_length"] = listen.adapter.writeMaxBytes;
  serverOptions["grpc.max_concurrent_streams"] = maxConcurrentStreamsOf(listen);
  const credentials =
    listen?.tls === undefined ? ServerCredentials.createInsecure() : sslCredentials(listen.tls);
  if (listen?.logDroppedMetadata !== true) await quietDroppedMetadataLog();
  const server = new Server({ ...serverOptions, ...listen?.grpcJs });
  const { service, implementation } = grpcJsService(definition, options);
  server.addService(service, implementation);
  for (const more of listen?.services ?? []) server.addService(more.service, more.implementation);
  // With the files of the error details: clients then decode grpc-status-details-bin (ErrorInfo, BadRequest).
  const { errorInfo, badRequest } = definition.statusDetails;
  if (listen?.reflection === true)
    addGrpcJsReflection(
      server,
      [
        definition.service,
        ...(listen?.services ?? []).flatMap((more) =>
          more.descriptor === undefined ? [] : [more.descriptor],
        ),
      ],
      [...new Set([errorInfo.file, badRequest.file])],
    );
  const host = listen?.host ?? "127.0.0.1";
  const hostPart = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${hostPart}:${listen?.port ?? 0}`, credentials, (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  const http2Server = boundHttp2Server(server, port);
  if (http2Server === undefined) {
    server.forceShutdown();
    throw new Error(
      "listenGrpcJs: cannot find the HTTP/2 server of this @grpc/grpc-js version; mount grpcJsService() on your own grpc-js Server instead",
    );
  }
  // Only gRPC proper reaches grpc-js (it takes gRPC-web and the Connect protocol for gRPC, runs the handler, answers in gRPC),
  // and no compressed message without a grpc-encoding (grpc-js would read it as uncompressed).
  refuseOtherContentTypes(
    http2Server,
    compressedWithoutEncoding(definition.errors, "grpc-encoding"),
  );
  // Sessions that are over (GOAWAY after a protocol error, …) lose their socket after a grace (grpc-wire/session-guard.ts).
  const guard = guardHttp2Sessions(http2Server, listen?.goawayGraceMs, sessionTimeouts(listen));
  // The connections, for close(): grpc-js's forceShutdown only destroys the sessions channelz tracks (1.14),
  // and channelz is off by default here.
  const sessions = new Set<{ destroy(error?: Error, code?: number): void }>();
  http2Server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  let closing: Promise<void> | undefined;
  return {
    server: http2Server,
    grpcServer: server,
    address: `${hostPart}:${port}`,
    port,
    close: () => (closing ??= shutdown(server, sessions).finally(() => guard.stop())),
  };
}

// ---------------------------------------------------------------------------------------
// calls
// ---------------------------------------------------------------------------------------

async function handleUnary<Principal>(
  b: Binding<Principal>,
  call: ServerUnaryCall<Message, Message>,
  callback: sendUnaryData<Message>,
): Promise<void> {
  const cancellation = track(call);
  try {
    const request = decoded(b, call.request);
    const context = await prepare(b, request, call.metadata, cancellation);
    // A call already cancelled or past its deadline starts no work nobody waits for.
    if (cancellation.reason !== undefined) return callback(abortStatus(cancellation));
    const response = await (dispatchCall(
      b.settings,
      b.definition,
      b.operation,
      request,
      context,
    ) as Promise<Message>);
    // Cancelled or past the deadline: grpc-js has answered already; the late answer is dropped.
    if (cancellation.reason !== undefined) return callback(abortStatus(cancellation));
    const bytes = encoded(b, response);
    if (context.activatedExtensions.size > 0) echoExtensions(b, call, context);
    cancellation.answered = true;
    callback(null, bytes);
  } catch (e) {
    try {
      const status = failure(b, e, cancellation);
      cancellation.answered = true;
      callback(status);
    } catch (inner) {
      b.settings.logger.error(`${b.operation.name}: sending the error failed`, inner);
    }
  }
}

async function handleServerStream<Principal>(
  b: Binding<Principal>,
  call: ServerWritableStream<Message, Message>,
): Promise<void> {
  const cancellation = track(call);
  let context: CallContext<Principal>;
  let iterator: AsyncIterator<Message>;
  try {
    const request = decoded(b, call.request);
    context = await prepare(b, request, call.metadata, cancellation);
    if (cancellation.reason !== undefined) throw cancellation.reason;
    iterator = (
      dispatchCall(
        b.settings,
        b.definition,
        b.operation,
        request,
        context,
      ) as AsyncIterable<Message>
    )[Symbol.asyncIterator]();
  } catch (e) {
    endWithError(b, call, e, cancellation);
    return;
  }
  // Settles when the call is cancelled or past its deadline: a handler that ignores its signal cannot hold the loop.
  const aborted = new Promise<typeof ABORTED>((resolve) =>
    cancellation.onAbort(() => resolve(ABORTED)),
  );
  let finished = false;
  let headersSent = false;
  try {
    for (;;) {
      if (cancellation.aborted) return;
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === ABORTED) return;
      if (next.done === true) {
        finished = true;
        break;
      }
      if (!headersSent) {
        headersSent = true;
        if (context.activatedExtensions.size > 0) echoExtensions(b, call, context);
      }
      if (!call.write(encoded(b, next.value))) await drained(call, cancellation);
    }
  } catch (e) {
    endWithError(b, call, e, cancellation);
    return;
  } finally {
    // Cancelled, past the deadline, or failed: ask the handler to stop, without waiting for it
    // (a generator that threw is already done, and return() is a no-op for it).
    if (!finished)
      void iterator
        .return?.()
        ?.catch((e: unknown) =>
          b.settings.logger.error(`${b.operation.name}: stream clean-up failed`, e),
        );
  }
  // A handler that stopped because of the abort: grpc-js has ended the call with CANCELLED or DEADLINE_EXCEEDED.
  if (cancellation.aborted) return;
  if (!headersSent && context.activatedExtensions.size > 0) echoExtensions(b, call, context);
  cancellation.answered = true;
  call.end();
}

const ABORTED = Symbol("aborted");

/** Resolves when the writable drains or the call ends (a cancelled call never drains). */
function drained(
  call: ServerWritableStream<Message, Message>,
  cancellation: GrpcJsCancellation,
): Promise<void> {
  if (cancellation.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let stop = noop;
    const done = () => {
      call.off("drain", done);
      stop();
      resolve();
    };
    call.on("drain", done);
    stop = cancellation.onAbort(done);
  });
}

/**
 * The call's cancellation, aborted by grpc-js's 'cancelled': client cancel, deadline, shutdown.
 * grpc-js emits 'cancelled' at the end of every call; once answered, it is not an abort, as on the
 * HTTP bindings (and it saves dispatching an abort event per call).
 */
function track(call: TrackedCall): GrpcJsCancellation {
  const cancellation = new GrpcJsCancellation();
  call[CANCELLATION] = cancellation;
  call.on("cancelled", onCancelled);
  // Cancelled before the handler was called: grpc-js has emitted 'cancelled' already.
  if (call.cancelled) onCancelled.call(call);
  return cancellation;
}

/** The one 'cancelled' listener of every call (`this` is the call). */
function onCancelled(this: TrackedCall): void {
  const cancellation = this[CANCELLATION];
  if (cancellation === undefined || cancellation.aborted || cancellation.answered) return;
  cancellation.abort(pastDeadline(this) ? DEADLINE_REASON : CANCELLED_REASON);
}

function pastDeadline(call: TrackedCall): boolean {
  const deadline = call.getDeadline();
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  // grpc-js fires its deadline timer at (not before) the deadline; 5 ms of slack for the clock's granularity.
  return Number.isFinite(ms) && Date.now() + 5 >= ms;
}

function abortStatus(cancellation: GrpcJsCancellation): { code: number; details: string } {
  return cancellation.reason === DEADLINE_REASON ? DEADLINE_STATUS : CANCELLED_STATUS;
}

/**
 * What the request deserializer hands the handler for bytes that do not decode: grpc-js would answer
 * a throwing deserializer itself, with INTERNAL and no ErrorInfo; the handler answers InvalidRequestError.
 */
class Undecodable {
  constructor(readonly cause: unknown) {}
}

/** The request, or the A2A error (thrown) for one that did not decode. */
function decoded<Principal>(b: Binding<Principal>, request: Message | Undecodable): Message {
  if (request instanceof Undecodable)
    throw undecodableRequest(b.definition.errors, b.operation.input.typeName, request.cause);
  return request;
}

/**
 * A response message serialized here rather than by grpc-js, whose own failure answer is INTERNAL
 * "Error serializing response" without ErrorInfo: a message that cannot be encoded (a handler's
 * wrongly typed field) throws, and is answered as any handler failure, the generic InternalError
 * (its text only logged). responseSerialize passes the bytes on.
 */
function encoded<Principal>(b: Binding<Principal>, response: Message): Message {
  return toBinary(b.operation.output, response) as unknown as Message;
}

/** Service parameters from metadata, auth, version, extensions, then REQUIRED fields and ranges, then the request limits (as grpc/server.ts). */
async function prepare<Principal>(
  b: Binding<Principal>,
  request: Message,
  metadata: Metadata,
  cancellation: GrpcJsCancellation,
): Promise<CallContext<Principal>> {
  const tenant = (request as { tenant?: unknown }).tenant;
  const context = await establishContext(b.settings, {
    binding: "GRPC",
    operation: b.operation.name,
    serviceParameters: ServiceParameters.fromHeaders(new MetadataHeaders(metadata)),
    tenant: typeof tenant === "string" ? tenant : "",
    signal: cancellation,
  });
  if (b.rules !== undefined) {
    const violations = findMissingFields(
      b.definition.requestFields,
      b.operation.input.typeName,
      request,
    );
    if (violations.length > 0) {
      throw new A2AError(
        b.definition.errors.InvalidParamsError,
        `Invalid parameters: ${violations.map((v) => v.description).join("; ")}`,
        {
          fieldViolations: violations,
        },
      );
    }
  }
  checkRequestLimits(b.definition.errors, b.settings.limits, b.operation.input, request);
  return context;
}

/**
 * Metadata as service parameters, read on demand (no copy per call): keys lower-case (grpc-js
 * normalizes them), repeated keys joined with ", ", binary (`-bin`) keys skipped.
 */
class MetadataHeaders implements HeaderSource {
  readonly #metadata: Metadata;
  constructor(metadata: Metadata) {
    this.#metadata = metadata;
  }
  header(name: string): string | undefined {
    const key = name.toLowerCase();
    if (key.endsWith("-bin")) return undefined;
    const values = this.#metadata.get(key);
    let out: string | undefined;
    for (const value of values)
      if (typeof value === "string") out = out === undefined ? value : `${out}, ${value}`;
    return out;
  }
  headers(): Iterable<[string, string]> {
    const entries: [string, string][] = [];
    const all = this.#metadata.toJSON();
    for (const key in all) {
      if (key.endsWith("-bin")) continue;
      for (const value of all[key] ?? []) if (typeof value === "string") entries.push([key, value]);
    }
    return entries;
  }
}

function echoExtensions<Principal>(
  b: Binding<Principal>,
  call: TrackedCall,
  context: CallContext<Principal>,
): void {
  try {
    const metadata = new Metadata();
    metadata.set("a2a-extensions", formatExtensions(context.activatedExtensions));
    call.sendMetadata(metadata);
  } catch (e) {
    // grpc-js refuses non-ASCII metadata values: answer without the echo rather than fail the call.
    b.settings.logger.error(`${b.operation.name}: cannot echo a2a-extensions`, e);
  }
}

/** What a throw becomes: the abort's status once the call is over, else the A2A error (unknown throws: INTERNAL, logged). */
function failure<Principal>(
  b: Binding<Principal>,
  thrown: unknown,
  cancellation: GrpcJsCancellation,
): { code: number; details: string; metadata?: Metadata } {
  if (cancellation.reason !== undefined) return abortStatus(cancellation);
  return toGrpcJsStatus(
    toA2AError(thrown, (cause) => internalError(b.settings, b.operation.name, cause)),
    b.definition.statusDetails,
  );
}

function endWithError<Principal>(
  b: Binding<Principal>,
  call: ServerWritableStream<Message, Message>,
  thrown: unknown,
  cancellation: GrpcJsCancellation,
): void {
  const status = failure(b, thrown, cancellation);
  if (cancellation.aborted) return;
  cancellation.answered = true;
  // grpc-js's documented way to end a server stream with a status (its 'error' listener ends the call).
  call.emit("error", status);
}

// ---------------------------------------------------------------------------------------
// statuses
// ---------------------------------------------------------------------------------------

/**
 * An A2A error as the status grpc-js sends: the code of the error table, the message, and a
 * google.rpc.Status {code, message, details: [ErrorInfo, BadRequest?]} in `grpc-status-details-bin`
 * (the details Connect's toConnectError sends; `err.details` are not packed by either stack).
 */
export function toGrpcJsStatus(
  err: A2AError,
  schemas: GrpcJsStatusSchemas,
): { code: number; details: string; metadata: Metadata } {
  const details: Any[] = [
    anyPack(
      schemas.errorInfo,
      create(schemas.errorInfo, {
        reason: err.reason,
        domain: ERROR_DOMAIN,
        metadata: { ...err.metadata },
      } as MessageInitShape<DescMessage>),
    ),
  ];
  if (err.fieldViolations.length > 0) {
    const fieldViolations = err.fieldViolations.map((v) => ({
      field: v.field,
      description: v.description,
    }));
    details.push(
      anyPack(
        schemas.badRequest,
        create(schemas.badRequest, { fieldViolations } as MessageInitShape<DescMessage>),
      ),
    );
  }
  const code = err.spec.grpcCode;
  const status = create(schemas.status, {
    code,
    message: err.message,
    details,
  } as MessageInitShape<DescMessage>);
  const metadata = new Metadata();
  metadata.set("grpc-status-details-bin", asBuffer(toBinary(schemas.status, status)));
  return { code, details: err.message, metadata };
}

// ---------------------------------------------------------------------------------------
// service definition, credentials, server
// ---------------------------------------------------------------------------------------

function methodDefinition(
  serviceName: string,
  method: DescMethod,
): MethodDefinition<Message, Message> {
  const input = method.input;
  const output = method.output;
  return {
    path: `/${serviceName}/${method.name}`,
    originalName: method.localName,
    requestStream: false,
    responseStream: method.methodKind === "server_streaming",
    requestSerialize: (value: Message) => asBuffer(toBinary(input, value)),
    // Never throws: grpc-js would answer INTERNAL itself; the handler answers InvalidRequestError (see decoded()).
    requestDeserialize: (bytes: Buffer) => {
      try {
        return fromBinary(input, bytes);
      } catch (e) {
        return new Undecodable(e) as unknown as Message;
      }
    },
    // The handlers hand over bytes they serialized themselves (see encoded()).
    responseSerialize: (value: Message | Uint8Array) =>
      asBuffer(value instanceof Uint8Array ? value : toBinary(output, value)),
    responseDeserialize: (bytes: Buffer) => fromBinary(output, bytes),
  };
}

/** A Buffer view of the bytes (grpc-js needs Buffer methods), without copying. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

type PemInput = string | Buffer | { pem: string | Buffer; passphrase?: string } | Uint8Array;

function pems(value: unknown, what: string): Buffer[] {
  const list = (Array.isArray(value) ? value : [value]) as PemInput[];
  return list.map((item) => {
    if (typeof item === "string" || item instanceof Uint8Array) return Buffer.from(item);
    if (typeof item === "object" && item !== null && "pem" in item && item.passphrase === undefined)
      return Buffer.from(item.pem);
    throw new TypeError(
      `listenGrpcJs: tls.${what} must be PEM strings or Buffers (grpc-js cannot use encrypted keys or KeyObjects)`,
    );
  });
}

/** ServerCredentials.createSsl from the node:tls-style options of GrpcListenOptions. */
function sslCredentials(tls: NonNullable<GrpcListenOptions["tls"]>): ServerCredentials {
  if (tls.key === undefined || tls.cert === undefined)
    throw new TypeError("listenGrpcJs: tls needs a key and a cert (omit tls for h2c)");
  if (tls.passphrase !== undefined)
    throw new TypeError(
      "listenGrpcJs: grpc-js cannot decrypt private keys: pass tls.key unencrypted",
    );
  const keys = pems(tls.key, "key");
  const certs = pems(tls.cert, "cert");
  if (keys.length !== certs.length)
    throw new TypeError(
      "listenGrpcJs: tls.key and tls.cert must pair up (as many keys as certificate chains)",
    );
  const pairs: KeyCertPair[] = keys.map((key, i) => ({ private_key: key, cert_chain: certs[i]! }));
  // `ca` has the node:tls meaning: trusted roots for client certificates, which are not requested.
  const ca =
    tls.ca === undefined
      ? null
      : Buffer.concat(pems(tls.ca, "ca").flatMap((b) => [b, Buffer.from("\n")]));
  return ServerCredentials.createSsl(ca, pairs, false);
}

/**
 * The node:http2 server grpc-js listens on for `port`. grpc-js keeps it private (`http2Servers`,
 * since 1.10); looked up defensively, undefined when absent.
 */
function boundHttp2Server(server: Server, port: number): GrpcEndpoint["server"] | undefined {
  const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
  if (!(servers instanceof Map)) return undefined;
  for (const candidate of servers.keys() as IterableIterator<GrpcEndpoint["server"]>) {
    if (typeof candidate?.address !== "function") continue;
    const address = candidate.address();
    if (address !== null && typeof address === "object" && address.port === port) return candidate;
  }
  return undefined;
}

/**
 * The content types this stack serves: gRPC with the protobuf codec, `application/grpc` or
 * `application/grpc+proto`, parameters allowed, case-insensitive (the media type is).
 */
const GRPC_CONTENT_TYPE = /^application\/grpc(\+proto)?\s*(;|$)/i;

/** The answer to any other content type: grpc-js's own for a non-gRPC one (415), with grpc-go's gRPC status. */
const UNSUPPORTED_MEDIA_TYPE_HEADERS = {
  ":status": http2Constants.HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE,
  "content-type": "application/grpc",
  "grpc-status": String(GrpcStatus.INVALID_ARGUMENT),
  "grpc-message":
    "invalid gRPC request content-type: this server accepts application/grpc and application/grpc+proto",
};

/**
 * Refuses, before dispatch, every request whose content type is not gRPC with the protobuf codec.
 * grpc-js only checks that it begins with `application/grpc`, so `application/grpc-web+proto` (and
 * `+json`) calls ran the handler and were answered in gRPC framing the caller could not read.
 * gRPC over HTTP/2: "If Content-Type does not begin with application/grpc, gRPC servers SHOULD
 * respond with HTTP status of 415", so that no HTTP client takes the error for a success. grpc-js
 * answers so (no gRPC status); grpc-go answers 415 with INVALID_ARGUMENT, also for gRPC-web, which
 * begins with application/grpc but is not gRPC. Here: 415 and INVALID_ARGUMENT in a trailers-only
 * response, for every type but gRPC with protobuf (this stack has no other codec: `+json` too), the
 * handler never called. A call that names no compression has its messages watched for the compressed
 * flag (grpc-wire/compressed-flag-guard.ts: `compressedRefusal` at the first one). grpc-js's 'stream' listener is
 * wrapped (as lean-unary.ts wraps Connect's); when it cannot be found, nothing changes.
 */
function refuseOtherContentTypes(
  http2Server: GrpcEndpoint["server"],
  compressedRefusal: A2AError,
): boolean {
  const listeners = http2Server.listeners("stream") as ((...args: unknown[]) => void)[];
  if (listeners.length !== 1) return false;
  const grpcJs = listeners[0]!;
  http2Server.removeListener("stream", grpcJs);
  http2Server.on(
    "stream",
    function (
      this: unknown,
      stream: ServerHttp2Stream,
      headers: IncomingHttpHeaders,
      ...rest: unknown[]
    ) {
      const type = headers["content-type"];
      if (typeof type === "string" && GRPC_CONTENT_TYPE.test(type)) {
        // grpc-js compares case-sensitively: `Application/GRPC` is the same media type.
        if (!type.startsWith("application/grpc")) headers["content-type"] = type.toLowerCase();
        // Deadlines beyond a timer's range read as the longest one, not as 1 ms (grpc-wire/timeout-header.ts).
        clampDeadlineHeaders(headers);
        if (!namesCompression(headers)) refuseCompressedMessages(stream, compressedRefusal);
        grpcJs.call(this, stream, headers, ...rest);
        return;
      }
      stream.on("error", noop); // the client may be gone already
      try {
        stream.respond(UNSUPPORTED_MEDIA_TYPE_HEADERS, { endStream: true });
      } catch {
        // the stream went away meanwhile
      }
      // The request body, if any, is not read (RST_STREAM NO_ERROR after the answer: stop sending).
      try {
        if (!stream.readableEnded) stream.close(http2Constants.NGHTTP2_NO_ERROR);
      } catch {
        // already closed
      }
    },
  );
  return true;
}

/** tryShutdown (calls in flight may finish), forceShutdown (and `sessions` destroyed) after the grace; resolves when closed. */
function shutdown(
  server: Server,
  sessions: Set<{ destroy(error?: Error, code?: number): void }>,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(force);
      resolve();
    };
    const force = setTimeout(() => {
      server.forceShutdown();
      for (const session of sessions) session.destroy(undefined, http2Constants.NGHTTP2_CANCEL);
      // Destroyed sessions close at once; do not depend on grpc-js calling back after a forced shutdown.
      setTimeout(finish, 100);
    }, CLOSE_GRACE_MS);
    server.tryShutdown(finish);
  });
}

let droppedMetadataQuiet = false;

/** Wraps grpc-js's logger (once per process) so that its per-entry "Failed to add metadata entry" lines are dropped. */
async function quietDroppedMetadataLog(): Promise<void> {
  if (droppedMetadataQuiet) return;
  droppedMetadataQuiet = true;
  // grpc-js exports setLogger but not getLogger: the wrapper must keep the logger a user set before.
  const logging = (await import("@grpc/grpc-js/build/src/logging.js").catch(() => undefined)) as
    | { getLogger?: () => Partial<Console> }
    | undefined;
  const previous = logging?.getLogger?.();
  if (previous === undefined) return;
  const error = previous.error?.bind(previous);
  setLogger({
    ...previous,
    error: (...args: unknown[]) => {
      if (typeof args[0] === "string" && DROPPED_METADATA_LINE.test(args[0])) return;
      error?.(...args);
    },
  });
}

/** grpc-js's line for a metadata entry it drops (metadata.ts), after its timestamp/severity prefix. */
const DROPPED_METADATA_LINE = /Failed to add metadata entry /;
