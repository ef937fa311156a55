// Written by protoc-gen-a2a scaffold-binding v0.1.0 for lf.a2a.v1.A2AService (a2a.proto); now yours.
// The client side of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 binding (spec §12): the typed client of the generated
// handler file (`A2AServiceClient`, one method per RPC) over the runtime's framed transport
// (`FramedTransport` and `createFramedConnection` of @protoc-gen-a2a/runtime/binding: calls
// multiplexed by id on one channel, cancel frames, answer frames back to messages and typed
// errors, a lost channel as UNAVAILABLE). Yours: the channel of your transport, how frames look
// on it, and the error form. Fill the places marked A2A-SCAFFOLD; a rerun of
// `protoc-gen-a2a scaffold-binding` leaves this file alone.
import { spawn, type ChildProcess } from "node:child_process";
import {
  createFramedConnection,
  FramedTransport,
  jsonClientFrames,
  type FramedAnswer,
  type FramedChannel,
  type FramedChannelEvents,
  type FramedClientCodec,
  type FramedConnection,
  type FramedOutboundCall,
  type FramedTransportOptions,
} from "@protoc-gen-a2a/runtime/binding";
import { errorRegistry, UnsupportedOperationError } from "../../gen/a2a_a2a_errors.js";
import { A2AServiceTransportClient } from "../../gen/a2a_a2a_handler.js";
import { stdioOperations } from "./stdio-operations.js";

/**
 * What the A2A-SCAFFOLD places not filled yet do: throw UnsupportedOperationError, which the
 * caller gets as that error. Exported, so that filling the last place leaves no unused code.
 */
export function unfilledStdioClient(place: string): never {
  throw new UnsupportedOperationError(
    `${place}: not filled in yet (A2A-SCAFFOLD, stdio-client.ts)`,
  );
}

/** One call as the client sends it: operation (its wire name), ProtoJSON request, service parameters (the connection gives it its id). */
export type StdioOutboundCall = FramedOutboundCall;

/** One answer frame of a call: a result; an event (then more, then an end); or an error in the binding's native form. */
export type StdioAnswerFrame = FramedAnswer;

/** The client's end of the binding: `call` sends one call and yields its answer frames; an abort (or a consumer that stops) cancels it on the wire. */
export type StdioConnection = FramedConnection;

/** Options of the https://protoc-gen-a2a.github.io/bindings/stdio/v1 client: the standard client options, `connection` (default: `connectStdio(url)`) and `url` (the AgentInterface.url). */
export type StdioClientOptions = FramedTransportOptions;

/** Options of {@link connectStdio}. */
export interface StdioConnectOptions {
  /** The child's arguments. */
  readonly args?: readonly string[] | undefined;
  /** Connection-level service parameters (A2A-Version, A2A-Extensions, Authorization): the child's A2A_SERVICE_PARAMETERS. */
  readonly serviceParameters?: Readonly<Record<string, string>> | undefined;
  /** The child's environment besides that. Default: this process's. */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** Answer lines received but not yet read by their callers, at which the child's stdout is paused (it resumes at half). Default 1 000. */
  readonly highWaterFrames?: number | undefined;
}

/** A channel of {@link openStdioChannel}: one child process. */
export interface StdioChannel extends FramedChannel<string> {
  readonly child: ChildProcess;
}

/** A connection of {@link connectStdio}: one child process, started by the first call and again by the first call after it exited. */
export interface StdioProcessConnection extends StdioConnection {
  /** The running child, if any. */
  readonly child: ChildProcess | undefined;
  /** Ends the child's stdin (it cancels its calls and exits) and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * A2A-SCAFFOLD(framing): opens one channel of your transport to `url` (the AgentInterface.url):
 * a socket, a session, a child process. `send(frame)` writes a frame; `writable` says whether it
 * still can; `close()` closes it. Report every frame read to `events.frame`, and the channel
 * closing or failing to `events.closed(reason)` (its running calls fail with UNAVAILABLE).
 * Reject (or throw) when it cannot open. Optional `pause()`/`resume()`: stop reading while
 * answers pile up unread (backpressure).
 *
 * On this binding: `url` is the agent's executable (run with `options.args`); one frame per line
 * on its stdin (calls, cancels) and stdout (answers); its stderr is passed through.
 */
export function openStdioChannel(
  url: string,
  events: FramedChannelEvents<string>,
  options: StdioConnectOptions = {},
): StdioChannel {
  const child = spawn(url, [...(options.args ?? [])], {
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      ...(options.env ?? process.env),
      A2A_SERVICE_PARAMETERS: JSON.stringify(options.serviceParameters ?? {}),
    },
  });
  const stdin = child.stdin!;
  const stdout = child.stdout!;
  let buffered = "";
  stdout.setEncoding("utf8");
  stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      events.frame(line);
    }
  });
  child.once("error", (e) => events.closed(e));
  child.once("exit", (code, signal) =>
    events.closed(
      new Error(`the agent process ${url} exited (${signal ?? code}) before the call ended`),
    ),
  );
  stdin.on("error", () => undefined); // a child that exited: its exit fails the calls
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    send: (frame) => void stdin.write(`${frame}\n`),
    get writable() {
      return !exited() && stdin.writable;
    },
    close: () =>
      new Promise<void>((closed) => {
        if (exited()) return closed();
        child.once("exit", () => closed());
        stdout.resume();
        stdin.end();
      }),
    pause: () => stdout.pause(),
    resume: () => stdout.resume(),
  };
}

/** A2A-SCAFFOLD(framing): how calls and answers look on your wire, the client's side of the server's decodeStdioCall. On this binding: the runtime's JSON call frames, one per line. */
export const stdioClientFrames: FramedClientCodec<string> = jsonClientFrames;

/**
 * A connection to `url`: calls multiplexed on the channel {@link openStdioChannel} opens
 * (at the first call, and again at the first call after it closed).
 *
 * On this binding: one child process per connection, every call on its pipes, told apart by the
 * lines' `id`, which the connection assigns.
 */
export function connectStdio(
  url: string,
  options: StdioConnectOptions = {},
): StdioProcessConnection {
  const connection = createFramedConnection<StdioChannel>({
    open: (events) => openStdioChannel(url, events, options),
    frames: stdioClientFrames,
    errors: errorRegistry,
    highWaterFrames: options.highWaterFrames,
    label: `the agent process ${url}`,
  });
  return {
    get child() {
      return connection.channel?.child;
    },
    call: (call, signal) => connection.call(call, signal),
    close: () => connection.close(),
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
export class StdioTransport extends FramedTransport {
  constructor(options: StdioClientOptions) {
    super(
      {
        operations: stdioOperations,
        errors: errorRegistry,
        connect: connectStdio,
        decodeError: decodeStdioError,
      },
      options,
    );
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
