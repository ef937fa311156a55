// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The server side of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding (spec §12): your transport's frames in, the
// generated handler interface called through the runtime's shared pipeline (service
// parameters, version negotiation, extensions, REQUIRED validation, error mapping: the same
// steps and errors as the JSON-RPC, HTTP+JSON and gRPC servers), frames out. Fill the places
// marked A2A-SCAFFOLD; a rerun of `protoc-gen-a2a scaffold-binding` leaves this file alone.
import type { Readable, Writable } from "node:stream";
import type { JsonValue } from "@bufbuild/protobuf";
import { isA2AError, toJsonRpcError, type A2AError, type JsonRpcErrorObject, type ServerOptions } from "@protoc-gen-a2a/runtime";
import { createBindingDispatcher } from "@protoc-gen-a2a/runtime/binding";
import { errorSpecs, InvalidRequestError, JsonParseError, UnsupportedOperationError } from "../../gen/a2a_a2a_errors.js";
import { A2AServiceOperationsByName, A2AServiceRequiredFields, A2AServiceResponseFields, dispatchA2AService, type A2AServiceHandler, type A2AServiceOperationName } from "../../gen/a2a_a2a_handler.js";
import { A2AServiceRequestJsonReaders } from "../../gen/a2a_a2a_json.js";
import { STDIO_PROTOCOL_BINDING, stdioOperations } from "./stdio-operations.js";

/** A call's id on the wire: answers carry it, so that calls can share one connection. */
export type StdioCallId = string | number;

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledStdioServer(place: string): never {
  throw new UnsupportedOperationError(`${place}: not filled in yet (A2A-SCAFFOLD, stdio-server.ts)`);
}

/** One call as {@link decodeStdioCall} read it from an inbound frame. */
export interface StdioInboundCall {
  readonly id: StdioCallId;
  /** The operation's wire name (stdioOperations). */
  readonly operation: string;
  /** The request in ProtoJSON (spec §5.5, §12.2); decoded and validated by the pipeline. */
  readonly request: JsonValue;
  /** The call's service parameters (§3.2.6, §12.3): A2A-Version, A2A-Extensions, credentials. */
  readonly serviceParameters: Readonly<Record<string, string>>;
  /** The tenant, when the binding's addressing carries one (§3.2.7). */
  readonly tenant?: string | undefined;
}

/** Where the server writes the answer frames of a call, in order. */
export interface StdioReplySink {
  /** A unary call's response (and the extensions the agent activated: send them back as A2A-Extensions). */
  result(id: StdioCallId, response: JsonValue, activatedExtensions: readonly string[]): void | Promise<void>;
  /**
   * One event of a stream; resolve when the transport can take more (backpressure).
   * `activatedExtensions`: on the first event, the extensions the agent activated (send them
   * back as A2A-Extensions, §4.6); empty on later events.
   */
  event(id: StdioCallId, event: JsonValue, activatedExtensions: readonly string[]): void | Promise<void>;
  /** The regular end of a stream. */
  end(id: StdioCallId): void | Promise<void>;
  /** A failed call, or the last frame of a failed stream; `id` null when the frame could not be read. */
  error(id: StdioCallId | null, error: JsonRpcErrorObject): void | Promise<void>;
}

/**
 * A2A-SCAFFOLD(framing): reads one inbound frame of your transport (a WebSocket message, a
 * queue message, a line of stdin, …). Throw an A2A error for a frame that is no call:
 * `JsonParseError` for one that does not parse, `InvalidRequestError` for one that is no call.
 *
 * On this binding: one line of stdin (its text, as {@link serveStdio} hands it over), one JSON object:
 * `{"id": <number|string>, "method": <wire name>, "params"?: <ProtoJSON request>, "serviceParameters"?: {name: value}}`.
 */
export function decodeStdioCall(frame: unknown): StdioInboundCall {
  const f = parseLine(frame);
  if (f === undefined) throw new InvalidRequestError("a line is a JSON object: {id, method, params, serviceParameters?}");
  const id = f["id"];
  if (!isStdioCallId(id)) throw new InvalidRequestError('the line has no "id" (a number or a string)');
  if (typeof f["method"] !== "string" || f["method"] === "") throw new InvalidRequestError('the line has no "method"');
  const request = f["params"] === undefined ? {} : (f["params"] as JsonValue);
  const parameters = f["serviceParameters"] ?? {};
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters) || !Object.values(parameters).every((v) => typeof v === "string")) {
    throw new InvalidRequestError('"serviceParameters" is an object of strings');
  }
  const tenant = typeof request === "object" && request !== null && !Array.isArray(request) && typeof request["tenant"] === "string" ? request["tenant"] : undefined;
  return { id, operation: f["method"], request, serviceParameters: parameters as Record<string, string>, tenant };
}

/** A line as a JSON object; undefined for other JSON; JsonParseError when it is no JSON. */
function parseLine(frame: unknown): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(frame));
  } catch (e) {
    throw new JsonParseError(`Invalid JSON line: ${e instanceof Error ? e.message : String(e)}`);
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

function isStdioCallId(id: unknown): id is StdioCallId {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/**
 * A2A-SCAFFOLD(framing): the call id of a frame {@link decodeStdioCall} refused, when it can
 * still be read, so that the error frame carries it; null otherwise.
 */
export function peekStdioCallId(frame: unknown): StdioCallId | null {
  // A line that parses and has an id (a number or a string) gets its error with that id, so that
  // the parent's call fails instead of waiting; null for one that does not parse or has none.
  try {
    const id = parseLine(frame)?.["id"];
    return isStdioCallId(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * A2A-SCAFFOLD(service-parameters): the service parameters of a call (§12.3). Default: the
 * call's own map; add what your transport carries elsewhere (connection-level headers set at
 * connect time, a message's metadata `a2a-service-parameters` as fallback).
 */
export function stdioServiceParameters(call: StdioInboundCall, connection: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  // Connection level: the JSON object the parent put in the child's environment variable
  // A2A_SERVICE_PARAMETERS when it started it (stdio has no headers); a line's own values win.
  // Names compared lower-cased.
  const merged: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(connection), ...Object.entries(call.serviceParameters)]) merged[name.toLowerCase()] = value;
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

/** One connection (socket, session, process) of the binding: hand it every frame that arrives on it. */
export interface StdioServerConnection {
  /** Handles one frame; answers through the connection's sink. Never throws. */
  receive(frame: unknown): Promise<void>;
  /** Cancels one running call of this connection (a cancel frame): its handler's signal aborts. */
  cancel(id: StdioCallId): void;
  /** Cancels every running call of this connection (it closed). */
  close(): void;
}

/** The server of the binding for one agent: one dispatcher, any number of connections. */
export interface StdioBindingServer {
  readonly protocolBinding: string;
  /**
   * A new connection, answering through `sink`. `parameters`: service parameters set for the
   * whole connection (e.g. the headers of a WebSocket upgrade); a call's own override them.
   * Call ids are the connection's: two connections may use the same ones.
   */
  connect(sink: StdioReplySink, parameters?: Readonly<Record<string, string>>): StdioServerConnection;
}

/**
 * Serves `handler` over the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding. `options` are those of the standard servers
 * (supportedVersions, versionWhenMissing, requiredExtensions, authenticate, logger), so that
 * every binding of the agent answers alike.
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
export function createStdioBindingServer<Principal>(handler: A2AServiceHandler<Principal>, options?: ServerOptions<Principal>): StdioBindingServer {
  const dispatcher = createBindingDispatcher<Principal>(
    {
      operations: A2AServiceOperationsByName,
      requestFields: A2AServiceRequiredFields,
      requestReaders: A2AServiceRequestJsonReaders,
      responseFields: A2AServiceResponseFields,
      errors: errorSpecs,
      dispatch: (operation, request, context) => dispatchA2AService(handler, operation as A2AServiceOperationName, request, context),
    },
    STDIO_PROTOCOL_BINDING,
    options,
  );
  const byWire = new Map<string, string>(Object.entries(stdioOperations).map(([rpc, wiring]) => [wiring.wire, rpc]));

  function connect(sink: StdioReplySink, parameters: Readonly<Record<string, string>> = {}): StdioServerConnection {
    const running = new Map<StdioCallId, AbortController>();

    async function receive(frame: unknown): Promise<void> {
      let call: StdioInboundCall;
      try {
        call = decodeStdioCall(frame);
      } catch (e) {
        const error = isA2AError(e) ? e : new InvalidRequestError("the frame is not a call");
        await sink.error(peekStdioCallId(frame), encodeStdioError(error));
        return;
      }
      if (running.has(call.id)) {
        // Not with the id: the refusal would read as the running call's last frame.
        await sink.error(null, encodeStdioError(new InvalidRequestError(`call id ${JSON.stringify(call.id)} is already in use on this connection`)));
        return;
      }
      const abort = new AbortController();
      running.set(call.id, abort);
      try {
        const result = await dispatcher.call({
          // An unknown wire name is passed on as it is: the pipeline answers MethodNotFoundError.
          operation: byWire.get(call.operation) ?? call.operation,
          request: call.request,
          serviceParameters: stdioServiceParameters(call, parameters),
          tenant: call.tenant,
          signal: abort.signal,
        });
        if (result.kind === "unary") {
          await sink.result(call.id, result.response, result.activatedExtensions);
          return;
        }
        let first = true;
        for await (const event of result.events) {
          if (abort.signal.aborted) break;
          await sink.event(call.id, event, first ? [...result.context.activatedExtensions] : []);
          first = false;
        }
        if (!abort.signal.aborted) await sink.end(call.id);
      } catch (e) {
        // The dispatcher throws A2AErrors only (a handler's own failure is InternalError, logged).
        if (!abort.signal.aborted) await sink.error(call.id, encodeStdioError(e as A2AError));
      } finally {
        running.delete(call.id);
      }
    }

    return {
      receive: (frame) => receive(frame).catch(() => undefined),
      cancel: (id) => running.get(id)?.abort(),
      close: () => {
        for (const abort of running.values()) abort.abort();
        running.clear();
      },
    };
  }

  return { protocolBinding: STDIO_PROTOCOL_BINDING, connect };
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

/** The id of a cancel line `{"id", "cancel": true}` (short: longer lines are calls), or undefined for any other line. */
function cancelledCallId(text: string): StdioCallId | undefined {
  if (text.length > 1024 || !text.includes("cancel")) return undefined;
  try {
    const f = parseLine(text);
    return f?.["cancel"] === true && isStdioCallId(f["id"]) ? f["id"] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves `handler` on stdin/stdout, one JSON object per line, until stdin ends (then every
 * running call is cancelled): the process is one connection of {@link createStdioBindingServer}.
 */
export function serveStdio<Principal>(handler: A2AServiceHandler<Principal>, options: StdioServeOptions<Principal> = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLine = options.maxLineBytes ?? 10 * 1024 * 1024;
  const parameters = options.connection ?? (JSON.parse(process.env["A2A_SERVICE_PARAMETERS"] ?? "{}") as Record<string, string>);
  const write = (line: Record<string, unknown>) => new Promise<void>((resolve) => void output.write(`${JSON.stringify(line)}\n`, () => resolve()));
  const sink: StdioReplySink = {
    result: (id, response, activated) => write(activated.length > 0 ? { id, result: response, activatedExtensions: activated } : { id, result: response }),
    event: (id, event, activated) => write(activated.length > 0 ? { id, event, activatedExtensions: activated } : { id, event }),
    end: (id) => write({ id, end: true }),
    error: (id, error) => write({ id, error }),
  };
  const connection = createStdioBindingServer(handler, options).connect(sink, parameters);
  const tooLong = () => void sink.error(null, encodeStdioError(new InvalidRequestError(`the line exceeds the limit of ${maxLine} bytes`)));
  const onLine = (text: string) => {
    if (text.trim() === "") return;
    const cancelled = cancelledCallId(text);
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
