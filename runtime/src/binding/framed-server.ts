// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The server core of a framed custom binding (spec §12): frames in, every call through the shared
 * pipeline ({@link createBindingDispatcher}: the standard servers' steps, order and errors),
 * answer frames out. It owns what every framed binding does alike: the calls of each connection
 * by id (multiplexing; an id in use refused), cancellation (one call, or all when the
 * connection closes), the extensions the agent activated on a unary result or a stream's first
 * event, error frames (an unreadable frame, a failed call, a stream's late failure), and
 * backpressure (a stream's next event is taken only once the sink took the previous one). The
 * binding supplies the holes: how a frame reads as a call, the id of a frame that does not, the
 * service parameters of a call, the native form of an error, and the wire names of its operations.
 */
import {
  A2AError,
  isA2AError,
  type A2AErrorSpec,
  type JsonRpcErrorObject,
} from "../errors/a2a-error.js";
import type { ProtocolBinding } from "../pipeline/call-context.js";
import type { ServerOptions } from "../pipeline/server-pipeline.js";
import {
  createBindingDispatcher,
  type BindingDispatcher,
  type BindingServiceDefinition,
} from "./dispatcher.js";
import type {
  FramedCallId,
  FramedInboundCall,
  FramedOperationTable,
  FramedReplySink,
} from "./framed-call.js";

/** The error types the server answers its own refusals with (the generated `errorSpecs` has them). */
export interface FramedServerErrors {
  /** A frame that is no call, an id already in use (-32600). */
  readonly InvalidRequestError: A2AErrorSpec;
  /** A hole that threw something else than an A2AError (-32603). */
  readonly InternalError: A2AErrorSpec;
}

/** The holes of a framed binding's server: what differs from one binding to the next. */
export interface FramedServerHooks<E = JsonRpcErrorObject> {
  /** The wire name of every operation, by RPC name (the scaffold's `<name>Operations`); wire names not in it are taken as RPC names. */
  readonly operations?: FramedOperationTable | undefined;
  /**
   * Reads one inbound frame as a call. Throws an A2AError for a frame that is no call
   * (JsonParseError, InvalidRequestError); anything else it throws is answered as InvalidRequestError.
   */
  decodeCall(frame: unknown): FramedInboundCall;
  /**
   * The call id of a frame {@link FramedServerHooks.decodeCall} refused, when it can still be read,
   * so that the error frame carries it; null otherwise. An id in use by a running call of the
   * connection is never used (the error would read as that call's last frame). Default: null.
   */
  readonly peekCallId?: ((frame: unknown) => FramedCallId | null) | undefined;
  /** The service parameters of a call (§12.3) given the connection's. Default: the connection's, overridden by the call's own. */
  readonly serviceParameters?:
    | ((
        call: FramedInboundCall,
        connection: Readonly<Record<string, string>>,
      ) => Readonly<Record<string, string>>)
    | undefined;
  /** The native form of an A2A error on the wire (§12.4), e.g. `toJsonRpcError`. */
  encodeError(error: A2AError): E;
  /** The error types of the server's own refusals. Default: the service definition's `errors` (required with a dispatcher). */
  readonly errors?: FramedServerErrors | undefined;
}

/** One connection (socket, session, process) of the binding: hand it every frame that arrives on it. */
export interface FramedServerConnection {
  /** Handles one frame; answers through the connection's sink. Never throws. */
  receive(frame: unknown): Promise<void>;
  /** Cancels one running call of this connection (a cancel frame): its handler's signal aborts. */
  cancel(id: FramedCallId): void;
  /** Cancels every running call of this connection (it closed). */
  close(): void;
}

/** The server of a framed binding for one agent: one dispatcher, any number of connections. */
export interface FramedBindingServer<E = JsonRpcErrorObject> {
  readonly protocolBinding: string;
  /**
   * A new connection, answering through `sink`. `parameters`: service parameters set for the
   * whole connection (e.g. the headers of a WebSocket upgrade); a call's own override them.
   * Call ids are the connection's: two connections may use the same ones.
   */
  connect(
    sink: FramedReplySink<E>,
    parameters?: Readonly<Record<string, string>>,
  ): FramedServerConnection;
}

const isDispatcher = (v: object): v is BindingDispatcher =>
  typeof (v as { call?: unknown }).call === "function";

/** The error types of the server's own refusals: the hooks', else the service definition's. */
function refusalErrors(
  service: BindingServiceDefinition<never> | BindingDispatcher,
  hooks: FramedServerHooks<unknown>,
): FramedServerErrors {
  const errors = hooks.errors ?? (isDispatcher(service) ? undefined : service.errors);
  if (errors === undefined)
    throw new TypeError(
      "createFramedBindingServer: pass hooks.errors (the generated errorSpecs) with a dispatcher",
    );
  return errors;
}

/**
 * Serves a service over a framed binding. `service`: the generated tables and the handler's
 * dispatch (a {@link BindingServiceDefinition}, run through {@link createBindingDispatcher} with
 * `protocolBinding` and `options`, the standard servers' options), or a dispatcher already made
 * (then `options` are its own, and `hooks.errors` is required). `hooks`: the binding's holes.
 */
export function createFramedBindingServer<Principal, E = JsonRpcErrorObject>(
  service: BindingServiceDefinition<Principal> | BindingDispatcher,
  protocolBinding: ProtocolBinding,
  hooks: FramedServerHooks<E>,
  options?: ServerOptions<Principal>,
): FramedBindingServer<E> {
  const dispatcher = isDispatcher(service)
    ? service
    : createBindingDispatcher<Principal>(service, protocolBinding, options);
  const errors = refusalErrors(service, hooks);
  const byWire = new Map<string, string>(
    Object.entries(hooks.operations ?? {}).map(([rpc, wiring]) => [wiring.wire, rpc]),
  );
  const peek = hooks.peekCallId ?? (() => null);
  const serviceParameters =
    hooks.serviceParameters ??
    ((call, connection) => ({ ...connection, ...call.serviceParameters }));
  const encodeError = (e: unknown): E =>
    hooks.encodeError(
      isA2AError(e) ? e : new A2AError(errors.InternalError, undefined, { cause: e }),
    );

  function connect(
    sink: FramedReplySink<E>,
    parameters: Readonly<Record<string, string>> = {},
  ): FramedServerConnection {
    const running = new Map<FramedCallId, AbortController>();

    async function receive(frame: unknown): Promise<void> {
      let call: FramedInboundCall;
      try {
        call = hooks.decodeCall(frame);
      } catch (e) {
        const error = isA2AError(e)
          ? e
          : new A2AError(errors.InvalidRequestError, "the frame is not a call");
        const id = peek(frame);
        await sink.error(id !== null && running.has(id) ? null : id, encodeError(error));
        return;
      }
      if (running.has(call.id)) {
        // Not with the id: the refusal would read as the running call's last frame.
        await sink.error(
          null,
          encodeError(
            new A2AError(
              errors.InvalidRequestError,
              `call id ${JSON.stringify(call.id)} is already in use on this connection`,
            ),
          ),
        );
        return;
      }
      const abort = new AbortController();
      running.set(call.id, abort);
      try {
        const result = await dispatcher.call({
          // An unknown wire name is passed on as it is: the pipeline answers MethodNotFoundError.
          operation: byWire.get(call.operation) ?? call.operation,
          request: call.request,
          serviceParameters: serviceParameters(call, parameters),
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
        if (!abort.signal.aborted) await sink.error(call.id, encodeError(e));
      } finally {
        if (running.get(call.id) === abort) running.delete(call.id);
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

  return { protocolBinding, connect };
}
