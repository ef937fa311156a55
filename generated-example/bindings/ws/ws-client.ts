// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The client side of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding (spec §12): the typed client of the generated
// handler file (`A2AServiceClient`, one method per RPC) over a `Transport` that turns each
// call into frames of your transport and its answer frames back into messages and typed
// errors. Fill the places marked A2A-SCAFFOLD; a rerun of `protoc-gen-a2a scaffold-binding`
// leaves this file alone.
import { fromJson, toJson, type JsonValue, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { callSignal, isA2AError, requestHeaders, requestMessage, unreachableError, type CallOptions, type ClientOptions, type OperationDescriptor, type Transport } from "@protoc-gen-a2a/runtime";
import { WebSocket, type RawData } from "ws";
import { errorRegistry, InvalidAgentResponseError, UnsupportedOperationError } from "../../gen/a2a_a2a_errors.js";
import { A2AServiceTransportClient, type A2AServiceOperationName } from "../../gen/a2a_a2a_handler.js";
import { wsOperations } from "./ws-operations.js";

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledWsClient(place: string): never {
  throw new UnsupportedOperationError(`${place}: not filled in yet (A2A-SCAFFOLD, ws-client.ts)`);
}

/** One call as the client sends it (the connection gives it its wire id: ids are the connection's). */
export interface WsOutboundCall {
  /** The operation's wire name (wsOperations). */
  readonly operation: string;
  /** The request in ProtoJSON. */
  readonly request: JsonValue;
  /** Service parameters (§3.2.6): A2A-Version, A2A-Extensions, the client's headers (credentials). */
  readonly serviceParameters: Readonly<Record<string, string>>;
}

/** One answer frame of a call. */
export type WsAnswerFrame =
  | { readonly kind: "result"; readonly response: JsonValue; readonly activatedExtensions?: readonly string[] | undefined }
  /** `activatedExtensions`: on a stream's first event, the extensions the agent activated. */
  | { readonly kind: "event"; readonly event: JsonValue; readonly activatedExtensions?: readonly string[] | undefined }
  | { readonly kind: "end" }
  /** `error` in the binding's native error form (encodeWsError on the server; by default a JSON-RPC error object). */
  | { readonly kind: "error"; readonly error: unknown };

/**
 * A2A-SCAFFOLD(framing): the client's end of your transport. `call` sends one call and yields
 * its answer frames as they arrive (a result; or events then an end; or an error), and stops
 * the call on the wire when `signal` aborts (streaming cancellation, §12.5).
 */
export interface WsConnection {
  call(call: WsOutboundCall, signal: AbortSignal | undefined): AsyncIterable<WsAnswerFrame>;
  /** Closes the connection; its running calls fail. */
  close?(): void | Promise<void>;
}

/** Options of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 client. */
export interface WsClientOptions extends ClientOptions {
  /** Where the frames go. Default: `connectWs(url)`. */
  readonly connection?: WsConnection | undefined;
  /** The interface URL (`AgentInterface.url` of a https://protoc-gen-a2a.github.io/bindings/websocket/v1 interface). */
  readonly url?: string | undefined;
}

/** Options of {@link connectWs}. */
export interface WsConnectOptions {
  /**
   * Headers of the HTTP upgrade request. `A2A-Version`, `A2A-Extensions` and `Authorization`
   * are connection-level service parameters: the server applies them to every call of the
   * socket (a call's own service parameters win).
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Largest answer frame accepted, in bytes; a larger one closes the socket (1009). Default 100 MiB. */
  readonly maxFrameBytes?: number | undefined;
  /** How long the opening handshake may take, in ms. Default 30 000. */
  readonly handshakeTimeoutMs?: number | undefined;
  /**
   * Answer frames received but not yet read by their callers, over all calls of the socket,
   * at which the socket stops reading (TCP then makes the server wait: end-to-end
   * backpressure); it reads again at half of it. Default 1 000.
   */
  readonly highWaterFrames?: number | undefined;
}

/** A connection of {@link connectWs}: one WebSocket, opened by the first call and again by the first call after it closed. */
export interface WsSocketConnection extends WsConnection {
  /** The open socket, if any (for tests and diagnostics). */
  readonly socket: WebSocket | undefined;
  /** Closes the socket (1000); its running calls fail. The next call opens a new one. */
  close(): Promise<void>;
}

/**
 * A2A-SCAFFOLD(framing): opens a connection to `url` (the AgentInterface.url).
 *
 * On this binding: a `ws:`/`wss:` URL; one WebSocket per connection, opened lazily by the
 * first call and re-opened by the next call after it closed; every call and stream of the
 * connection shares it, told apart by the frames' `id`, which the connection assigns.
 */
export function connectWs(url: string, options?: WsConnectOptions): WsSocketConnection {
  return new WsClientConnection(url, options ?? {});
}

/** The client-side state of one call on the socket. */
interface PendingCall {
  readonly socket: WebSocket;
  readonly frames: WsAnswerFrame[];
  failure: unknown;
  /** Its last frame (result, end, error) was read. */
  done: boolean;
  wake: (() => void) | undefined;
}

class WsClientConnection implements WsSocketConnection {
  readonly #url: string;
  readonly #options: WsConnectOptions;
  readonly #calls = new Map<number, PendingCall>();
  #socket: WebSocket | undefined;
  #opening: Promise<WebSocket> | undefined;
  #nextId = 1;
  /** Answer frames received and not yet read, over all calls of the socket. */
  #unread = 0;

  constructor(url: string, options: WsConnectOptions) {
    this.#url = url;
    this.#options = options;
  }

  get socket(): WebSocket | undefined {
    return this.#socket;
  }

  async *call(call: WsOutboundCall, signal: AbortSignal | undefined): AsyncIterable<WsAnswerFrame> {
    signal?.throwIfAborted();
    const socket = await abortable(this.#open(), signal);
    if (socket.readyState !== WebSocket.OPEN) throw new Error(`the WebSocket to ${this.#url} closed before the call was sent`);
    // The connection's own ids (the transport gives none): one connection may serve several clients.
    const id = this.#nextId++;
    const pending: PendingCall = { socket, frames: [], failure: undefined, done: false, wake: undefined };
    this.#calls.set(id, pending);
    const onAbort = () => {
      pending.failure ??= signal?.reason;
      pending.wake?.();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const frame: Record<string, JsonValue> = { id, method: call.operation, params: call.request };
      if (Object.keys(call.serviceParameters).length > 0) frame["serviceParameters"] = call.serviceParameters;
      socket.send(JSON.stringify(frame));
      for (;;) {
        if (signal?.aborted === true) throw signal.reason;
        const next = pending.frames.shift();
        if (next !== undefined) {
          this.#read(socket, 1);
          if (next.kind !== "event") pending.done = true;
          yield next;
          if (pending.done) return;
          continue;
        }
        if (pending.failure !== undefined) throw pending.failure;
        await new Promise<void>((resolve) => {
          pending.wake = resolve;
        });
        pending.wake = undefined;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.#calls.delete(id);
      this.#read(socket, pending.frames.length);
      // Abandoned before its last frame (an abort, a consumer that stopped iterating): the server stops it.
      if (!pending.done && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ id, cancel: true }));
    }
  }

  async close(): Promise<void> {
    const socket = this.#socket ?? (await this.#opening?.catch(() => undefined));
    if (socket === undefined || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once("close", () => resolve());
      socket.resume();
      socket.close(1000, "client closed");
    });
  }

  #open(): Promise<WebSocket> {
    const current = this.#socket;
    if (current !== undefined && current.readyState === WebSocket.OPEN) return Promise.resolve(current);
    this.#opening ??= new Promise<WebSocket>((resolve, reject) => {
      let opened = false;
      let lastError: Error | undefined;
      const socket = new WebSocket(this.#url, {
        headers: { ...this.#options.headers },
        maxPayload: this.#options.maxFrameBytes ?? 100 * 1024 * 1024,
        handshakeTimeout: this.#options.handshakeTimeoutMs ?? 30_000,
        perMessageDeflate: false,
      });
      socket.on("message", (data, isBinary) => this.#receive(socket, data, isBinary));
      socket.on("error", (e) => {
        lastError = e;
        if (!opened) {
          this.#opening = undefined;
          reject(e);
        }
      });
      socket.once("open", () => {
        opened = true;
        this.#socket = socket;
        this.#opening = undefined;
        this.#unread = 0;
        resolve(socket);
      });
      socket.once("close", (code, reason) => this.#closed(socket, code, reason.toString("utf8"), lastError));
    });
    return this.#opening;
  }

  /** One answer frame: to its call's queue. Frames of calls no longer running (cancelled) are dropped. */
  #receive(socket: WebSocket, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    let frame: unknown;
    try {
      frame = JSON.parse(rawText(data));
    } catch {
      return; // not JSON: no id to answer to
    }
    if (typeof frame !== "object" || frame === null || Array.isArray(frame)) return;
    const f = frame as Record<string, unknown>;
    // id null: the server could not read one of our frames; it cannot be told which.
    const pending = typeof f["id"] === "number" ? this.#calls.get(f["id"]) : undefined;
    if (pending === undefined || pending.socket !== socket || pending.done) return;
    let answer: WsAnswerFrame | undefined;
    const activated = Array.isArray(f["activatedExtensions"]) ? f["activatedExtensions"].filter((e): e is string => typeof e === "string") : undefined;
    if ("result" in f) answer = { kind: "result", response: f["result"] as JsonValue, activatedExtensions: activated };
    else if ("event" in f) answer = { kind: "event", event: f["event"] as JsonValue, activatedExtensions: activated };
    else if (f["end"] === true) answer = { kind: "end" };
    else if ("error" in f) answer = { kind: "error", error: f["error"] };
    if (answer === undefined) {
      pending.failure ??= new InvalidAgentResponseError(`call ${String(f["id"])}: an answer frame with neither result, event, end nor error`);
    } else {
      pending.frames.push(answer);
      this.#unread++;
      if (this.#unread >= (this.#options.highWaterFrames ?? 1_000) && !socket.isPaused) socket.pause();
    }
    pending.wake?.();
  }

  /** `count` frames were read (or dropped): the socket reads again once the backlog halved. */
  #read(socket: WebSocket, count: number): void {
    if (count === 0 || socket !== this.#socket) return;
    this.#unread = Math.max(0, this.#unread - count);
    if (socket.isPaused && this.#unread <= (this.#options.highWaterFrames ?? 1_000) / 2) socket.resume();
  }

  #closed(socket: WebSocket, code: number, reason: string, error: Error | undefined): void {
    if (this.#socket === socket) this.#socket = undefined;
    const why = new Error(`the WebSocket to ${this.#url} closed (${code}${reason !== "" ? ` ${reason}` : ""}) before the call ended`, error === undefined ? undefined : { cause: error });
    for (const pending of this.#calls.values()) {
      if (pending.socket !== socket || pending.done) continue;
      pending.failure ??= why;
      pending.wake?.();
    }
  }
}

/** `promise`, or the abort reason of `signal` when it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

function rawText(data: RawData): string {
  const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  return bytes.toString("utf8");
}

/**
 * A2A-SCAFFOLD(errors): an error frame back to the typed error class. Default: the JSON-RPC
 * error object the server's default encodeWsError writes.
 */
export function decodeWsError(error: unknown): Error {
  // The scaffold's default, kept: the server writes JSON-RPC error objects (encodeWsError);
  // ErrorInfo's reason, then the code, picks the generated class.
  return errorRegistry.fromJsonRpcError(error);
}

/** The Transport of the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding: every typed call as frames. */
export class WsTransport implements Transport {
  readonly #options: WsClientOptions;
  #connection: WsConnection | undefined;

  constructor(options: WsClientOptions) {
    this.#options = options;
    this.#connection = options.connection;
  }

  async unary<I extends OperationDescriptor>(operation: I, request: MessageInitShape<I["input"]>, options?: CallOptions): Promise<MessageShape<I["output"]>> {
    const { signal, cleanup } = callSignal(options?.signal, options?.timeoutMs ?? this.#options.timeoutMs);
    try {
      for await (const frame of this.#send(operation, request, options, signal)) {
        if (frame.kind === "result") {
          if (frame.activatedExtensions !== undefined && frame.activatedExtensions.length > 0) options?.onHeaders?.(new Headers({ "a2a-extensions": frame.activatedExtensions.join(", ") }));
          return this.#decode(operation, frame.response);
        }
        if (frame.kind === "error") throw decodeWsError(frame.error);
        throw new InvalidAgentResponseError(`${operation.name}: a unary call was answered with a ${frame.kind} frame`);
      }
      throw new InvalidAgentResponseError(`${operation.name}: the connection ended before the answer`);
    } catch (e) {
      throw isA2AError(e) ? e : unreachableError(errorRegistry, e, signal);
    } finally {
      cleanup();
    }
  }

  async *stream<I extends OperationDescriptor>(operation: I, request: MessageInitShape<I["input"]>, options?: CallOptions): AsyncIterable<MessageShape<I["output"]>> {
    const { signal, cleanup } = callSignal(options?.signal, options?.timeoutMs ?? this.#options.timeoutMs);
    try {
      for await (const frame of this.#send(operation, request, options, signal)) {
        if (frame.kind === "event") {
          if (frame.activatedExtensions !== undefined && frame.activatedExtensions.length > 0) options?.onHeaders?.(new Headers({ "a2a-extensions": frame.activatedExtensions.join(", ") }));
          yield this.#decode(operation, frame.event);
        } else if (frame.kind === "end") return;
        else if (frame.kind === "error") throw decodeWsError(frame.error);
        else throw new InvalidAgentResponseError(`${operation.name}: a stream was answered with a ${frame.kind} frame`);
      }
      throw new InvalidAgentResponseError(`${operation.name}: the stream ended without its end frame`);
    } catch (e) {
      throw isA2AError(e) ? e : unreachableError(errorRegistry, e, signal);
    } finally {
      cleanup();
    }
  }

  #send(operation: OperationDescriptor, request: MessageInitShape<OperationDescriptor["input"]>, options: CallOptions | undefined, signal: AbortSignal | undefined): AsyncIterable<WsAnswerFrame> {
    this.#connection ??= connectWs(this.#options.url ?? "");
    const wiring = wsOperations[operation.name as A2AServiceOperationName];
    const message = requestMessage(operation.input, request, this.#options);
    return this.#connection.call(
      {
        operation: wiring.wire,
        request: toJson(operation.input, message),
        serviceParameters: requestHeaders(this.#options, options),
      },
      signal,
    );
  }

  /** Closes the connection (the one it opened, or the one it was given). */
  async close(): Promise<void> {
    await this.#connection?.close?.();
    this.#connection = undefined;
  }

  #decode<I extends OperationDescriptor>(operation: I, json: JsonValue): MessageShape<I["output"]> {
    try {
      return fromJson(operation.output, json, { ignoreUnknownFields: true }) as MessageShape<I["output"]>;
    } catch (e) {
      throw new InvalidAgentResponseError(`${operation.name}: the response does not decode: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** The typed client of lf.a2a.v1.A2AService over the https://protoc-gen-a2a.github.io/bindings/websocket/v1 binding. */
export class A2AServiceWsClient extends A2AServiceTransportClient {
  constructor(options: WsClientOptions) {
    super(new WsTransport(options));
  }

  /** Closes the client's connection. */
  close(): Promise<void> {
    return (this.transport as WsTransport).close();
  }
}
