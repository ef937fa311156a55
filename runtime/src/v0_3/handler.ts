// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A2A 0.3's gRPC and HTTP+JSON bindings served by a 1.0 handler: the handler of the 0.3 proto's
 * service (`a2a.v1.A2AService`, generated from the 0.3.0 a2a.proto like any proto) whose every
 * method translates the 0.3 request to 1.0, calls the 1.0 handler, and translates the answer back.
 */
import {
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
} from "@bufbuild/protobuf";
import { A2AError, type A2AErrorSpec } from "../errors/a2a-error.js";
import type { CallContext } from "../pipeline/call-context.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import { eventIdOf, setEventId } from "../task/event-ids.js";
import { agentCardToV03Proto } from "./translate/agent-card.js";
import { sendMessageResponseToV03Proto, streamResponseToV03Proto } from "./translate/events.js";
import { taskPushConfigToV03Proto } from "./translate/push-configs.js";
import {
  createPushConfigRequestFromV03Proto,
  getTaskRequestFromV03Proto,
  listPushConfigsRequestFromV03Proto,
  listPushConfigsResponseToV03Proto,
  pushConfigNameRequestFromV03Proto,
  sendMessageRequestFromV03Proto,
  taskNameRequestFromV03Proto,
} from "./translate/requests.js";
import { taskToV03Proto } from "./translate/tasks.js";
import { V03TranslationError } from "./translate/translation-error.js";

/** How one 0.3 RPC is served by a 1.0 operation. */
interface V03ProtoOperation {
  /** The 1.0 RPC. */
  readonly operation: string;
  /**
   * The request's ProtoJSON → 1.0's. A decoded proto3 message has no presence for `blocking`: a configuration
   * without it is non-blocking (what the 0.3 SDKs' gRPC and HTTP+JSON clients mean by omitting `false`); no
   * configuration at all is blocking (1.0's default, and 0.3's).
   */
  readonly request: (json: JsonValue, binding: string) => JsonObject;
  readonly response: (json: JsonValue) => JsonValue;
}

/** The 0.3 proto's RPCs → the 1.0 RPCs that serve them. */
export const V03_PROTO_OPERATIONS: Readonly<Record<string, V03ProtoOperation>> = {
  SendMessage: {
    operation: "SendMessage",
    request: (j) => sendMessageRequestFromV03Proto(j),
    response: (j) => sendMessageResponseToV03Proto(j),
  },
  SendStreamingMessage: {
    operation: "SendStreamingMessage",
    request: (j) => sendMessageRequestFromV03Proto(j),
    response: (j) => streamResponseToV03Proto(j),
  },
  GetTask: {
    operation: "GetTask",
    request: (j) => getTaskRequestFromV03Proto(j),
    response: (j) => taskToV03Proto(j),
  },
  CancelTask: {
    operation: "CancelTask",
    request: (j) => taskNameRequestFromV03Proto(j),
    response: (j) => taskToV03Proto(j),
  },
  TaskSubscription: {
    operation: "SubscribeToTask",
    request: (j) => taskNameRequestFromV03Proto(j),
    response: (j) => streamResponseToV03Proto(j),
  },
  CreateTaskPushNotificationConfig: {
    operation: "CreateTaskPushNotificationConfig",
    request: (j) => createPushConfigRequestFromV03Proto(j),
    response: (j) => taskPushConfigToV03Proto(j),
  },
  GetTaskPushNotificationConfig: {
    operation: "GetTaskPushNotificationConfig",
    request: (j) => pushConfigNameRequestFromV03Proto(j),
    response: (j) => taskPushConfigToV03Proto(j),
  },
  ListTaskPushNotificationConfig: {
    operation: "ListTaskPushNotificationConfigs",
    request: (j) => listPushConfigsRequestFromV03Proto(j),
    response: (j) => listPushConfigsResponseToV03Proto(j),
  },
  DeleteTaskPushNotificationConfig: {
    operation: "DeleteTaskPushNotificationConfig",
    request: (j) => pushConfigNameRequestFromV03Proto(j),
    response: () => ({}),
  },
  GetAgentCard: {
    operation: "GetExtendedAgentCard",
    request: () => ({}),
    response: (j) => agentCardToV03Proto(j as JsonObject),
  },
};

/** The 1.0 service a 0.3 handler forwards to: the generated tables of its handler file. */
export interface V1ServiceBinding<Principal> {
  /** The 1.0 service's operations by RPC name: the generated `<Service>OperationsByName`. */
  readonly operations: Readonly<Record<string, OperationDescriptor>>;
  /** Calls the 1.0 handler: `(operation, request, context) => dispatch<Service>(handler, operation, request, context)`. */
  readonly dispatch: (
    operation: string,
    request: Message,
    context: CallContext<Principal>,
  ) => Promise<Message> | AsyncIterable<Message>;
  /** The 1.0 error table (the generated `errorSpecs`): a 0.3 request that does not translate is its InvalidParamsError. */
  readonly errors: {
    readonly InvalidParamsError: A2AErrorSpec;
    readonly UnsupportedOperationError: A2AErrorSpec;
  };
  /**
   * The public Agent Card (1.0 JSON, as served): 0.3's GetAgentCard (`GET /v1/card`) answers it
   * when the 1.0 GetExtendedAgentCard is refused (no extended card, or not for this caller).
   */
  readonly publicCard?: (() => JsonObject | undefined) | undefined;
}

/**
 * The handler of A2A 0.3's service (the generated `A2AServiceHandler` of the 0.3 proto, passed as
 * `Handler`), served by a 1.0 handler: give it to the 0.3 proto's generated servers
 * (`createA2AServiceRestServer`, `createA2AServiceGrpcJsService`/`createA2AServiceGrpcRoutes`).
 * `operations` is the 0.3 service's generated `A2AServiceOperationsByName`.
 */
export function createV03Handler<Handler, Principal = unknown>(
  v1: V1ServiceBinding<Principal>,
  operations: Readonly<Record<string, OperationDescriptor>>,
): Handler {
  const handler: Record<string, unknown> = {};
  for (const [name, op03] of Object.entries(operations)) {
    const route = V03_PROTO_OPERATIONS[name];
    const op1 = route === undefined ? undefined : v1.operations[route.operation];
    if (route === undefined || op1 === undefined) {
      handler[op03.localName] = () =>
        Promise.reject(new A2AError(v1.errors.UnsupportedOperationError, `${name} is not served`));
      continue;
    }
    const translateRequest = (request: Message, context: CallContext<Principal>): Message => {
      let json: JsonObject;
      try {
        json = route.request(toJson(op03.input, request), context.binding);
      } catch (e) {
        if (e instanceof V03TranslationError)
          throw new A2AError(v1.errors.InvalidParamsError, `Invalid parameters: ${e.message}`);
        throw e;
      }
      return fromJson(op1.input, json, { ignoreUnknownFields: true });
    };
    const translateResponse = (response: Message): Message =>
      translateMessage(op1.output, op03.output, route.response, response);
    if (op03.kind === "server_streaming") {
      handler[op03.localName] = (request: Message, context: CallContext<Principal>) =>
        streamV03(
          v1.dispatch(
            op1.name,
            translateRequest(request, context),
            context,
          ) as AsyncIterable<Message>,
          translateResponse,
        );
    } else if (name === "GetAgentCard") {
      handler[op03.localName] = async (request: Message, context: CallContext<Principal>) => {
        try {
          return translateResponse(
            await (v1.dispatch(
              op1.name,
              translateRequest(request, context),
              context,
            ) as Promise<Message>),
          );
        } catch (e) {
          const card = v1.publicCard?.();
          if (card === undefined || !(e instanceof A2AError)) throw e;
          return fromJson(op03.output, agentCardToV03Proto(card), { ignoreUnknownFields: true });
        }
      };
    } else {
      handler[op03.localName] = async (request: Message, context: CallContext<Principal>) =>
        translateResponse(
          await (v1.dispatch(
            op1.name,
            translateRequest(request, context),
            context,
          ) as Promise<Message>),
        );
    }
  }
  return handler as Handler;
}

/** A 1.0 message as the 0.3 one, through their ProtoJSON; the stream event id (SSE `id:`) kept. */
function translateMessage(
  from: DescMessage,
  to: DescMessage,
  translate: (json: JsonValue) => JsonValue,
  message: Message,
): Message {
  const translated = fromJson(to, translate(toJson(from, message)), { ignoreUnknownFields: true });
  const id = eventIdOf(message);
  if (id !== undefined) setEventId(translated, id);
  return translated;
}

async function* streamV03(
  events: AsyncIterable<Message>,
  translate: (event: Message) => Message,
): AsyncIterable<Message> {
  for await (const event of events) yield translate(event);
}
