// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A 1.0-typed client over a generated client of the A2A 0.3 proto (`a2a.v1.A2AService`): the 0.3
 * HTTP+JSON (`/v1/…` routes) or gRPC client generated from the 0.3 a2a.proto, wrapped so that it has
 * the methods of the 1.0 `<Service>Client`. Requests are translated 1.0 → 0.3 ProtoJSON and answers,
 * events and errors back (the `…V03Proto` functions): SubscribeToTask is 0.3's TaskSubscription,
 * ListTaskPushNotificationConfigs is ListTaskPushNotificationConfig, GetExtendedAgentCard is
 * GetAgentCard, task ids are `tasks/{id}` resource names. A stream ends at the status update marked
 * `final` (or when the agent closes it). ListTasks has no 0.3 RPC: rejected locally with
 * UnsupportedOperationError.
 */
import {
  create,
  fromJson,
  toJson,
  type JsonObject,
  type JsonValue,
  type Message,
  type MessageInitShape,
} from "@bufbuild/protobuf";

import type { CallOptions, ClientOptions } from "../../client/call-options.js";
import type { ResumableStreamClientOptions } from "../../http/stream-resume.js";
import type { OperationDescriptor } from "../../protocol/operation.js";
import { agentCardFromV03Proto } from "../translate/agent-card.js";
import {
  sendMessageResponseFromV03Proto,
  streamResponseFromV03Proto,
} from "../translate/events.js";
import { taskPushConfigFromV03Proto } from "../translate/push-configs.js";
import {
  createPushConfigRequestToV03Proto,
  getTaskRequestToV03Proto,
  listPushConfigsRequestToV03Proto,
  listPushConfigsResponseFromV03Proto,
  pushConfigNameRequestToV03Proto,
  sendMessageRequestToV03Proto,
  taskNameRequestToV03Proto,
} from "../translate/requests.js";
import { taskFromV03Proto } from "../translate/tasks.js";
import { isA2AError, type ErrorRegistry } from "../../errors/a2a-error.js";
import {
  V03_EXTENSIONS_HEADER,
  buildClient,
  extensionsOf,
  invalidAgentResponse,
  toV1Error,
  unsupportedOperation,
  untranslatableRequest,
  v1Error,
  v1Registry,
  type V1Errors,
} from "./common.js";

/** How a 1.0 operation is called on the 0.3 proto's service. */
export interface V03ProtoRoute {
  /** The 0.3 RPC, `TaskSubscription`. */
  readonly rpc: string;
  /** The 1.0 request (ProtoJSON) → the 0.3 request (ProtoJSON). */
  readonly request: (request: JsonValue) => JsonValue;
  /** The 0.3 response or event (ProtoJSON) → the 1.0 one. */
  readonly response: (response: JsonValue) => JsonValue;
}

/** The 1.0 operations (RPC names) → the 0.3 proto's RPCs. ListTasks has none. */
export const V03_PROTO_CLIENT_ROUTES: Readonly<Record<string, V03ProtoRoute>> = Object.freeze({
  SendMessage: {
    rpc: "SendMessage",
    request: (r) => sendMessageRequestToV03Proto(r),
    response: (r) => sendMessageResponseFromV03Proto(r),
  },
  SendStreamingMessage: {
    rpc: "SendStreamingMessage",
    request: (r) => sendMessageRequestToV03Proto(r),
    response: (r) => streamResponseFromV03Proto(r),
  },
  GetTask: {
    rpc: "GetTask",
    request: (r) => getTaskRequestToV03Proto(r),
    response: (r) => taskFromV03Proto(r),
  },
  CancelTask: {
    rpc: "CancelTask",
    request: (r) => taskNameRequestToV03Proto(r),
    response: (r) => taskFromV03Proto(r),
  },
  SubscribeToTask: {
    rpc: "TaskSubscription",
    request: (r) => taskNameRequestToV03Proto(r),
    response: (r) => streamResponseFromV03Proto(r),
  },
  CreateTaskPushNotificationConfig: {
    rpc: "CreateTaskPushNotificationConfig",
    request: (r) => createPushConfigRequest(r),
    response: (r) => taskPushConfigFromV03Proto(r),
  },
  GetTaskPushNotificationConfig: {
    rpc: "GetTaskPushNotificationConfig",
    request: (r) => pushConfigNameRequestToV03Proto(r),
    response: (r) => taskPushConfigFromV03Proto(r),
  },
  ListTaskPushNotificationConfigs: {
    rpc: "ListTaskPushNotificationConfig",
    request: (r) => listPushConfigsRequestToV03Proto(r),
    response: (r) => listPushConfigsResponseFromV03Proto(r),
  },
  DeleteTaskPushNotificationConfig: {
    rpc: "DeleteTaskPushNotificationConfig",
    request: (r) => pushConfigNameRequestToV03Proto(r),
    response: () => ({}),
  },
  GetExtendedAgentCard: {
    rpc: "GetAgentCard",
    request: () => ({}),
    response: (r) => agentCardFromV03Proto(r),
  },
});

/**
 * The 0.3 create request with `parent` written `tasks/{id}/pushNotificationConfigs`: the 0.3 proto's HTTP rule
 * (`POST /v1/{parent=task/{id}/pushNotificationConfigs}`, with the `tasks/{id}` spelling beside it in the generated
 * routes) needs that form in the path, and gRPC servers read the task id from either form (@a2a-js/sdk 0.3, this
 * runtime).
 */
function createPushConfigRequest(request: JsonValue): JsonObject {
  const out = createPushConfigRequestToV03Proto(request);
  return { ...out, parent: `${String(out["parent"])}/pushNotificationConfigs` };
}

/** Options of {@link createV03ProtoClient}. */
export interface V03ProtoClientOptions {
  /** The 1.0 operation table (the generated `<Service>Operations`, by handler localName): the client's methods. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** The 0.3 proto's operation table (its generated `A2AServiceOperations` or `…OperationsByName`): the wrapped client's methods. */
  readonly v03Operations: Readonly<Record<string, OperationDescriptor>>;
  /** The 1.0 errors to throw: the generated `errorRegistry` (its classes) or `errorSpecs`. */
  readonly errors: V1Errors;
  /**
   * The client's extensions (those given to the wrapped client): with a call's own `extensions`, the call's
   * `X-A2A-Extensions` header must name them too.
   */
  readonly extensions?: readonly string[] | undefined;
}

type V03Method = (
  request: Message,
  options?: CallOptions,
) => Promise<Message> | AsyncIterable<Message>;

/**
 * A client of the 1.0 interface `Client` (the generated `<Service>Client`) over `v03Client`, a
 * generated client of the 0.3 proto (its `A2AServiceRestClient` or `A2AServiceGrpcClient`; build it
 * with {@link v03ProtoClientOptions}). Call options pass through, with `extensions` also sent as
 * `X-A2A-Extensions`; the 0.3 client's A2A errors become the 1.0 classes of `errors`.
 */
export function createV03ProtoClient<Client>(
  v03Client: object,
  options: V03ProtoClientOptions,
): Client {
  const errors = v1Registry(options.errors);
  const byName = new Map(Object.values(options.v03Operations).map((op) => [op.name, op]));
  const methods = v03Client as Readonly<Record<string, V03Method | undefined>>;

  /** The 0.3 RPC of a 1.0 operation and the wrapped client's method; ListTasks is refused locally. */
  const target = (
    operation: OperationDescriptor,
  ): { route: V03ProtoRoute; op03: OperationDescriptor; call: V03Method } => {
    const route = V03_PROTO_CLIENT_ROUTES[operation.name];
    const op03 = route === undefined ? undefined : byName.get(route.rpc);
    const call = op03 === undefined ? undefined : methods[op03.localName];
    if (route === undefined || op03 === undefined || typeof call !== "function")
      throw unsupportedOperation(errors, operation.name);
    return { route, op03, call: call.bind(v03Client) as V03Method };
  };
  const request = (
    operation: OperationDescriptor,
    route: V03ProtoRoute,
    op03: OperationDescriptor,
    init: MessageInitShape<OperationDescriptor["input"]>,
  ): Message => {
    try {
      return fromJson(
        op03.input,
        route.request(toJson(operation.input, create(operation.input, init))),
        { ignoreUnknownFields: true },
      );
    } catch (e) {
      throw untranslatableRequest(errors, operation.name, e);
    }
  };
  const response = (
    operation: OperationDescriptor,
    route: V03ProtoRoute,
    op03: OperationDescriptor,
    answer: Message,
  ): unknown => {
    let json: JsonValue;
    try {
      json = route.response(toJson(op03.output, answer));
    } catch (e) {
      throw invalidAgentResponse(errors, `${route.rpc} answer`, e);
    }
    try {
      return fromJson(operation.output, json, { ignoreUnknownFields: true });
    } catch (e) {
      throw invalidAgentResponse(errors, `${route.rpc} answer`, e);
    }
  };

  return buildClient<Client>(
    options.operations,
    async (operation, init, call) => {
      const { route, op03, call: method } = target(operation);
      const message = request(operation, route, op03, init);
      let answer: Message;
      try {
        answer = await (method(
          message,
          withV03Extensions(options.extensions, call),
        ) as Promise<Message>);
      } catch (e) {
        throw statusError(errors, route.rpc, toV1Error(errors, e));
      }
      return response(operation, route, op03, answer);
    },
    async function* (operation, init, call) {
      const { route, op03, call: method } = target(operation);
      const message = request(operation, route, op03, init);
      const events = (
        method(message, withV03Extensions(options.extensions, call)) as AsyncIterable<Message>
      )[Symbol.asyncIterator]();
      try {
        for (;;) {
          let step: IteratorResult<Message>;
          try {
            step = await events.next();
          } catch (e) {
            throw statusError(errors, route.rpc, toV1Error(errors, e));
          }
          if (step.done === true) return;
          const event = toJson(op03.output, step.value) as JsonObject;
          yield response(operation, route, op03, step.value);
          if (isFinal(event)) return;
        }
      } finally {
        await events.return?.();
      }
    },
  );
}

/** The 1.0 error an A2A 0.3 gRPC status without ErrorInfo stands for, by RPC (what @a2a-js/sdk 0.3's client reads). */
const STATUS_ERRORS: Readonly<Record<number, Readonly<Record<string, string>>>> = {
  // FAILED_PRECONDITION
  9: { CancelTask: "TaskNotCancelableError", GetAgentCard: "ExtendedAgentCardNotConfiguredError" },
  // UNIMPLEMENTED
  12: {
    CreateTaskPushNotificationConfig: "PushNotificationNotSupportedError",
    GetTaskPushNotificationConfig: "PushNotificationNotSupportedError",
    ListTaskPushNotificationConfig: "PushNotificationNotSupportedError",
    DeleteTaskPushNotificationConfig: "PushNotificationNotSupportedError",
    GetAgentCard: "UnsupportedOperationError",
    TaskSubscription: "UnsupportedOperationError",
  },
};

/**
 * A 0.3 server's error that names no A2A error (no ErrorInfo, no 0.3 code: @a2a-js/sdk 0.3's gRPC server sends a
 * bare status), read by its gRPC status and RPC as @a2a-js/sdk 0.3's own client does: FAILED_PRECONDITION of
 * CancelTask is TaskNotCancelableError, UNIMPLEMENTED of a push-config RPC PushNotificationNotSupportedError, ….
 * Those statuses are answers, never transport failures; everything else is returned as it is.
 */
function statusError(errors: ErrorRegistry, rpc: string, error: unknown): unknown {
  if (!isA2AError(error) || error.spec.name !== "A2AError" || error.reason !== "UNKNOWN")
    return error;
  const name = STATUS_ERRORS[error.grpcCode]?.[rpc];
  if (name === undefined) return error;
  const mapped = v1Error(errors, name, error.message, error.details);
  if (error.cause !== undefined)
    Object.defineProperty(mapped, "cause", {
      value: error.cause,
      configurable: true,
      writable: true,
      enumerable: false,
    });
  return mapped;
}

/** Call options with their `extensions` (after the client's) also in `X-A2A-Extensions` (what 0.3 agents read). */
function withV03Extensions(
  client: readonly string[] | undefined,
  call: CallOptions | undefined,
): CallOptions | undefined {
  if (call?.extensions === undefined || call.extensions.length === 0) return call;
  const extensions = extensionsOf({ extensions: client }, call)!;
  return { ...call, headers: { ...call.headers, [V03_EXTENSIONS_HEADER]: extensions } };
}

/** Whether a 0.3 ProtoJSON stream event is the last of its stream: a status update with `final: true`. */
function isFinal(event: JsonObject): boolean {
  const update = event["statusUpdate"];
  return (
    typeof update === "object" &&
    update !== null &&
    !Array.isArray(update) &&
    update["final"] === true
  );
}

/**
 * The options of a generated 0.3 proto client (REST or gRPC) built from a 1.0 client's: `A2A-Version: 0.3`
 * (the 0.3 routes of an agent serving both versions on one base path take it; 0.3 agents ignore it), no stream
 * resumption (it would resume with 1.0's SubscribeToTask), request bodies as `application/json` (what 0.3 HTTP+JSON
 * servers parse), and the client's `extensions` also in `X-A2A-Extensions`.
 */
export function v03ProtoClientOptions<O extends ClientOptions & ResumableStreamClientOptions>(
  options: O,
): O & { readonly requestContentType: string } {
  const extensions = extensionsOf(options, undefined);
  const headers =
    extensions === undefined
      ? options.headers
      : { ...options.headers, [V03_EXTENSIONS_HEADER]: extensions };
  return {
    ...options,
    version: "0.3",
    resumeStreams: false,
    tenant: undefined,
    requestContentType: "application/json",
    ...(headers === undefined ? {} : { headers }),
  };
}
