// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The server side of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding (spec §12): the holes of your transport's framing,
// and the server made of them. The core is the runtime's (`createFramedBindingServer` of
// @protoc-gen-a2a/runtime/binding, so that its fixes reach this binding with the runtime):
// calls multiplexed by id on a connection, cancellation, error frames, activated extensions,
// streaming with backpressure, and every call through the shared pipeline (service parameters,
// version negotiation, extensions, REQUIRED validation, error mapping: the same steps and errors
// as the JSON-RPC, HTTP+JSON and gRPC servers). Fill the places marked A2A-SCAFFOLD; a rerun of
// `protoc-gen-a2a scaffold-binding` leaves this file alone.
import type { Readable, Writable } from "node:stream";
import {
  toJsonRpcError,
  type A2AError,
  type JsonRpcErrorObject,
  type ServerOptions,
} from "@protoc-gen-a2a/runtime";
import {
  createFramedBindingServer,
  decodeJsonCallFrame,
  jsonCancelFrameId,
  jsonReplySink,
  peekJsonCallId,
  type FramedBindingServer,
  type FramedCallId,
  type FramedInboundCall,
  type FramedReplySink,
  type FramedServerConnection,
  type JsonAnswerFrame,
} from "@protoc-gen-a2a/runtime/binding";
import {
  errorSpecs,
  InvalidRequestError,
  UnsupportedOperationError,
} from "../../gen/a2a_a2a_errors.js";
import {
  A2AServiceOperationsByName,
  A2AServiceRequiredFields,
  A2AServiceResponseFields,
  dispatchA2AService,
  type A2AServiceHandler,
  type A2AServiceOperationName,
} from "../../gen/a2a_a2a_handler.js";
import { A2AServiceRequestJsonReaders } from "../../gen/a2a_a2a_json.js";
import { STDIO_PROTOCOL_BINDING, stdioOperations } from "./stdio-operations.js";

/** A call's id on the wire: answers carry it, so that calls can share one connection. */
export type StdioCallId = FramedCallId;

/** One call as {@link decodeStdioCall} read it from an inbound frame: id, operation (its wire name), ProtoJSON request, service parameters, tenant. */
export type StdioInboundCall = FramedInboundCall;

/**
 * Where the server writes the answer frames of a call, in order: a result; or events, then an
 * end; or an error (`id` null when the frame could not be read). Each may return a promise,
 * awaited before the call's next frame (backpressure). The error form is what
 * {@link encodeStdioError} returns: change both together.
 */
export type StdioReplySink = FramedReplySink<JsonRpcErrorObject>;

/** One connection (socket, session, process): `receive` every frame that arrives on it; `cancel(id)` for a cancel frame; `close()` when it closes. */
export type StdioServerConnection = FramedServerConnection;

/** The server of the binding for one agent: `connect(sink, parameters?)` per connection (parameters: service parameters of the whole connection). */
export type StdioBindingServer = FramedBindingServer<JsonRpcErrorObject>;

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledStdioServer(place: string): never {
  throw new UnsupportedOperationError(
    `${place}: not filled in yet (A2A-SCAFFOLD, stdio-server.ts)`,
  );
}

/**
 * A2A-SCAFFOLD(framing): reads one inbound frame of your transport (a WebSocket message, a
 * queue message, a line of stdin, …). Throw an A2A error for a frame that is no call:
 * `JsonParseError` for one that does not parse, `InvalidRequestError` for one that is no call.
 * The runtime's JSON call frames (what the client's default `stdioClientFrames` sends:
 * `{"id", "method", "params", "serviceParameters"?}`) read with
 * `return decodeJsonCallFrame(frame, errorSpecs);` (@protoc-gen-a2a/runtime/binding).
 *
 * On this binding: one line of stdin (its text, as {@link serveStdio} hands it over), one JSON call frame of the runtime:
 * `{"id": <number|string>, "method": <wire name>, "params"?: <ProtoJSON request>, "serviceParameters"?: {name: value}}`.
 */
export function decodeStdioCall(frame: unknown): StdioInboundCall {
  return decodeJsonCallFrame(frame, errorSpecs, { unit: "line" });
}

/**
 * A2A-SCAFFOLD(framing): the call id of a frame {@link decodeStdioCall} refused, when it can
 * still be read, so that the error frame carries it; null otherwise (`peekJsonCallId` for JSON
 * call frames). An id in use by a running call is never used.
 *
 * On this binding: a line that parses and has an id (a number or a string) gets its error with
 * that id, so that the parent's call fails instead of waiting; null for one that does not parse
 * or has none.
 */
export function peekStdioCallId(frame: unknown): StdioCallId | null {
  return peekJsonCallId(frame);
}

/**
 * A2A-SCAFFOLD(service-parameters): the service parameters of a call (§12.3). Default: the
 * call's own map; add what your transport carries elsewhere (connection-level headers set at
 * connect time, a message's metadata `a2a-service-parameters` as fallback).
 */
export function stdioServiceParameters(
  call: StdioInboundCall,
  connection: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  // Connection level: the JSON object the parent put in the child's environment variable
  // A2A_SERVICE_PARAMETERS when it started it (stdio has no headers); a line's own values win.
  // Names compared lower-cased.
  const merged: Record<string, string> = {};
  for (const [name, value] of [
    ...Object.entries(connection),
    ...Object.entries(call.serviceParameters),
  ])
    merged[name.toLowerCase()] = value;
  return merged;
}

/**
 * A2A-SCAFFOLD(errors): the native form of an A2A error on your wire (§12.4; BINDING.md lists
 * every error). Default: the JSON-RPC error object (code, message, data: [ErrorInfo, …]),
 * which the generated `errorRegistry.fromJsonRpcError` turns back into the typed class.
 */
export function encodeStdioError(error: A2AError): JsonRpcErrorObject {
  // The scaffold's default, kept: the JSON-RPC error object with ErrorInfo (and BadRequest).
  return toJsonRpcError(error);
}

/**
 * Serves `handler` over the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding. `options` are those of the standard servers
 * (supportedVersions, versionWhenMissing, requiredExtensions, authenticate, logger), so that
 * every binding of the agent answers alike. Your transport's adapter calls `connect(sink,
 * parameters)` per connection and hands it every frame (`receive`), cancel frame (`cancel`)
 * and the connection's end (`close`); `jsonReplySink(write)` writes JSON answer frames.
 *
 * A2A-SCAFFOLD(auth): credentials travel as service parameters (e.g. `authorization`), per
 * call or for the connection, and `options.authenticate` receives them before anything else
 * runs (§12.6).
 * On this binding: the child trusts its parent (it was started by it), yet credentials still go
 * through `authenticate`: `A2A_SERVICE_PARAMETERS.authorization` at start, or a line's `serviceParameters`.
 * A2A-SCAFFOLD(streaming): a stream's events go to `sink.event` in order, then `sink.end`;
 * an error after the first event is the stream's last frame (`sink.error`); `cancel` stops it.
 * On this binding: `{"id", "event"}` lines (the first with `activatedExtensions` when the agent
 * activated any), then `{"id", "end": true}`; `{"id", "cancel": true}` from the parent, or stdin
 * ending, aborts the handler's signal; {@link serveStdio}'s sink resolves once stdout took the
 * line (its write callback), so a parent that stops reading stops the stream.
 */
export function createStdioBindingServer<Principal>(
  handler: A2AServiceHandler<Principal>,
  options?: ServerOptions<Principal>,
): StdioBindingServer {
  return createFramedBindingServer<Principal>(
    {
      operations: A2AServiceOperationsByName,
      requestFields: A2AServiceRequiredFields,
      // The generated ProtoJSON readers: a JSON request decoded and checked in one pass (reflection decides the rest).
      requestReaders: A2AServiceRequestJsonReaders,
      responseFields: A2AServiceResponseFields,
      errors: errorSpecs,
      dispatch: (operation, request, context) =>
        dispatchA2AService(handler, operation as A2AServiceOperationName, request, context),
    },
    STDIO_PROTOCOL_BINDING,
    {
      operations: stdioOperations,
      decodeCall: decodeStdioCall,
      peekCallId: peekStdioCallId,
      serviceParameters: stdioServiceParameters,
      encodeError: encodeStdioError,
    },
    options,
  );
}

// ---------------------------------------------------------------------------------------
// The process adapter: JSON lines on stdin/stdout.
// ---------------------------------------------------------------------------------------

/** Options of {@link serveStdio}. */
export interface StdioServeOptions<Principal> extends ServerOptions<Principal> {
  /** Default process.stdin. */
  readonly input?: Readable | undefined;
  /** Default process.stdout. */
  readonly output?: Writable | undefined;
  /** Connection-level service parameters. Default: JSON.parse(process.env.A2A_SERVICE_PARAMETERS ?? "{}"). */
  readonly connection?: Readonly<Record<string, string>> | undefined;
  /** Longer lines are answered with an InvalidRequestError line (`id` null) and skipped. Default 10 MiB. */
  readonly maxLineBytes?: number | undefined;
}

/**
 * Serves `handler` on stdin/stdout, one JSON object per line, until stdin ends (then every
 * running call is cancelled): the process is one connection of {@link createStdioBindingServer}.
 */
export function serveStdio<Principal>(
  handler: A2AServiceHandler<Principal>,
  options: StdioServeOptions<Principal> = {},
): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLine = options.maxLineBytes ?? 10 * 1024 * 1024;
  const parameters =
    options.connection ??
    (JSON.parse(process.env["A2A_SERVICE_PARAMETERS"] ?? "{}") as Record<string, string>);
  // Each answer line resolves once stdout took it (its write callback): backpressure on the call's stream.
  const write = (line: JsonAnswerFrame) =>
    new Promise<void>((resolve) => void output.write(`${JSON.stringify(line)}\n`, () => resolve()));
  const sink = jsonReplySink(write);
  const connection = createStdioBindingServer(handler, options).connect(sink, parameters);
  const tooLong = () =>
    void sink.error(
      null,
      encodeStdioError(new InvalidRequestError(`the line exceeds the limit of ${maxLine} bytes`)),
    );
  const onLine = (text: string) => {
    if (text.trim() === "") return;
    const cancelled = jsonCancelFrameId(text);
    if (cancelled !== undefined) return connection.cancel(cancelled);
    void connection.receive(text);
  };
  return new Promise<void>((resolve) => {
    let pending: Buffer[] = [];
    let size = 0;
    let skipping = false;
    input.on("data", (chunk: Buffer) => {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, nl);
        start = nl + 1;
        if (skipping || size + part.length > maxLine) {
          if (!skipping) tooLong();
          skipping = false;
        } else onLine(Buffer.concat([...pending, part]).toString("utf8"));
        pending = [];
        size = 0;
      }
      const rest = chunk.subarray(start);
      if (skipping) return;
      if (size + rest.length > maxLine) {
        tooLong();
        skipping = true;
        pending = [];
        size = 0;
        return;
      }
      pending.push(rest);
      size += rest.length;
    });
    input.once("end", () => {
      connection.close();
      resolve();
    });
  });
}
