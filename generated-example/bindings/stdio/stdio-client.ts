// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The client side of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding (spec §12): the typed client of the generated
// handler file (`A2AServiceClient`, one method per RPC) over a `Transport` that turns each
// call into frames of your transport and its answer frames back into messages and typed
// errors. Fill the places marked A2A-SCAFFOLD; a rerun of `protoc-gen-a2a scaffold-binding`
// leaves this file alone.
import { fromJson, toJson, type JsonValue, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { callSignal, isA2AError, requestHeaders, requestMessage, unreachableError, type CallOptions, type ClientOptions, type OperationDescriptor, type Transport } from "@protoc-gen-a2a/runtime";
import { spawn, type ChildProcess } from "node:child_process";
import { errorRegistry, InvalidAgentResponseError, UnsupportedOperationError } from "../../gen/a2a_a2a_errors.js";
import { A2AServiceTransportClient, type A2AServiceOperationName } from "../../gen/a2a_a2a_handler.js";
import { stdioOperations } from "./stdio-operations.js";

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledStdioClient(place: string): never {
  throw new UnsupportedOperationError(`${place}: not filled in yet (A2A-SCAFFOLD, stdio-client.ts)`);
}

/** One call as the client sends it (the connection gives it its wire id: ids are the connection's). */
export interface StdioOutboundCall {
  /** The operation's wire name (stdioOperations). */
  readonly operation: string;
  /** The request in ProtoJSON. */
  readonly request: JsonValue;
  /** Service parameters (§3.2.6): A2A-Version, A2A-Extensions, the client's headers (credentials). */
  readonly serviceParameters: Readonly<Record<string, string>>;
}

/** One answer frame of a call. */
export type StdioAnswerFrame =
  | { readonly kind: "result"; readonly response: JsonValue; readonly activatedExtensions?: readonly string[] | undefined }
  /** `activatedExtensions`: on a stream's first event, the extensions the agent activated. */
  | { readonly kind: "event"; readonly event: JsonValue; readonly activatedExtensions?: readonly string[] | undefined }
  | { readonly kind: "end" }
  /** `error` in the binding's native error form (encodeStdioError on the server; by default a JSON-RPC error object). */
  | { readonly kind: "error"; readonly error: unknown };

/**
 * A2A-SCAFFOLD(framing): the client's end of your transport. `call` sends one call and yields
 * its answer frames as they arrive (a result; or events then an end; or an error), and stops
 * the call on the wire when `signal` aborts (streaming cancellation, §12.5).
 */
export interface StdioConnection {
  call(call: StdioOutboundCall, signal: AbortSignal | undefined): AsyncIterable<StdioAnswerFrame>;
  /** Closes the connection; its running calls fail. */
  close?(): void | Promise<void>;
}

/** Options of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 client. */
export interface StdioClientOptions extends ClientOptions {
  /** Where the frames go. Default: `connectStdio(url)`. */
  readonly connection?: StdioConnection | undefined;
  /** The interface URL (`AgentInterface.url` of a https://protoc-gen-a2a.github.io/bindings/stdio/v1 interface). */
  readonly url?: string | undefined;
}

/** Options of {@link connectStdio}. */
export interface StdioConnectOptions {
  /** The child's arguments. */
  readonly args?: readonly string[] | undefined;
  /** Connection-level service parameters (A2A-Version, A2A-Extensions, Authorization): the child's A2A_SERVICE_PARAMETERS. */
  readonly serviceParameters?: Readonly<Record<string, string>> | undefined;
  /** The child's environment besides that. Default: this process's. */
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** A connection of {@link connectStdio}: one child process, started by the first call and again by the first call after it exited. */
export interface StdioProcessConnection extends StdioConnection {
  /** The running child, if any. */
  readonly child: ChildProcess | undefined;
  /** Ends the child's stdin (it cancels its calls and exits) and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * A2A-SCAFFOLD(framing): opens a connection to `url` (the AgentInterface.url).
 *
 * On this binding: `url` is the agent's executable (run with `options.args`); one JSON object per
 * line on its stdin (calls, cancels) and stdout (answers); its stderr is passed through.
 */
export function connectStdio(url: string, options: StdioConnectOptions = {}): StdioProcessConnection {
  type Pending = { frames: StdioAnswerFrame[]; failure: unknown; done: boolean; wake: (() => void) | undefined; child: ChildProcess };
  const calls = new Map<number, Pending>();
  let child: ChildProcess | undefined;
  let nextId = 1;
  const start = (): ChildProcess => {
    if (child !== undefined) return child;
    const started = spawn(url, [...(options.args ?? [])], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...(options.env ?? process.env), A2A_SERVICE_PARAMETERS: JSON.stringify(options.serviceParameters ?? {}) },
    });
    child = started;
    let buffered = "";
    started.stdout!.setEncoding("utf8");
    started.stdout!.on("data", (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let f: Record<string, unknown>;
        try {
          f = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        const pending = typeof f["id"] === "number" ? calls.get(f["id"]) : undefined;
        if (pending === undefined || pending.done) continue;
        const activated = Array.isArray(f["activatedExtensions"]) ? (f["activatedExtensions"] as unknown[]).filter((e): e is string => typeof e === "string") : undefined;
        if ("result" in f) pending.frames.push({ kind: "result", response: f["result"] as JsonValue, activatedExtensions: activated });
        else if ("event" in f) pending.frames.push({ kind: "event", event: f["event"] as JsonValue, activatedExtensions: activated });
        else if (f["end"] === true) pending.frames.push({ kind: "end" });
        else if ("error" in f) pending.frames.push({ kind: "error", error: f["error"] });
        else pending.failure ??= new InvalidAgentResponseError("a line with neither result, event, end nor error");
        pending.wake?.();
      }
    });
    const gone = (why: unknown) => {
      if (child === started) child = undefined;
      for (const pending of calls.values()) {
        if (pending.child !== started || pending.done) continue;
        pending.failure ??= why;
        pending.wake?.();
      }
    };
    started.once("error", (e) => gone(e));
    started.once("exit", (code, signal) => gone(new Error(`the agent process ${url} exited (${signal ?? code}) before the call ended`)));
    started.stdin!.on("error", () => undefined); // a child that exited: its exit fails the calls
    return started;
  };
  return {
    get child() {
      return child;
    },
    async *call(call, signal) {
      signal?.throwIfAborted();
      const agent = start();
      const id = nextId++; // the connection's own ids: the transport gives none
      const pending: Pending = { frames: [], failure: undefined, done: false, wake: undefined, child: agent };
      calls.set(id, pending);
      const onAbort = () => {
        pending.failure ??= signal?.reason;
        pending.wake?.();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        agent.stdin!.write(`${JSON.stringify({ id, method: call.operation, params: call.request, serviceParameters: call.serviceParameters })}\n`);
        for (;;) {
          if (signal?.aborted === true) throw signal.reason;
          const next = pending.frames.shift();
          if (next !== undefined) {
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
        calls.delete(id);
        if (!pending.done && agent.exitCode === null && agent.stdin!.writable) agent.stdin!.write(`${JSON.stringify({ id, cancel: true })}\n`);
      }
    },
    close: async () => {
      const running = child;
      if (running === undefined || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once("exit", () => resolve());
        running.stdin!.end();
      });
    },
  };
}

/**
 * A2A-SCAFFOLD(errors): an error frame back to the typed error class. Default: the JSON-RPC
 * error object the server's default encodeStdioError writes.
 */
export function decodeStdioError(error: unknown): Error {
  return errorRegistry.fromJsonRpcError(error);
}

/** The Transport of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding: every typed call as frames. */
export class StdioTransport implements Transport {
  readonly #options: StdioClientOptions;
  #connection: StdioConnection | undefined;

  constructor(options: StdioClientOptions) {
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
        if (frame.kind === "error") throw decodeStdioError(frame.error);
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
        else if (frame.kind === "error") throw decodeStdioError(frame.error);
        else throw new InvalidAgentResponseError(`${operation.name}: a stream was answered with a ${frame.kind} frame`);
      }
      throw new InvalidAgentResponseError(`${operation.name}: the stream ended without its end frame`);
    } catch (e) {
      throw isA2AError(e) ? e : unreachableError(errorRegistry, e, signal);
    } finally {
      cleanup();
    }
  }

  #send(operation: OperationDescriptor, request: MessageInitShape<OperationDescriptor["input"]>, options: CallOptions | undefined, signal: AbortSignal | undefined): AsyncIterable<StdioAnswerFrame> {
    this.#connection ??= connectStdio(this.#options.url ?? "");
    const wiring = stdioOperations[operation.name as A2AServiceOperationName];
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

/** The typed client of lf.a2a.v1.A2AService over the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding. */
export class A2AServiceStdioClient extends A2AServiceTransportClient {
  constructor(options: StdioClientOptions) {
    super(new StdioTransport(options));
  }

  /** Closes the client's connection. */
  close(): Promise<void> {
    return (this.transport as StdioTransport).close();
  }
}
