/**
 * `ActsClient`s over OUR generated clients (generated-example/gen): `A2AServiceJsonRpcClient`,
 * `A2AServiceRestClient` and `A2AServiceGrpcClient`. The request ProtoJSON is parsed with
 * `fromJson(<RequestSchema>, json)` and the response written back with `toJson` (default options);
 * the generated error classes become `ActsError`s (the class the client chose, its details).
 */
import {
  fromJson,
  toJson,
  type DescMessage,
  type JsonValue as ProtoJsonValue,
  type Message,
} from "@bufbuild/protobuf";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import type { Transport as ConnectTransport } from "@connectrpc/connect";
import {
  AgentCardSchema,
  CancelTaskRequestSchema,
  DeleteTaskPushNotificationConfigRequestSchema,
  GetExtendedAgentCardRequestSchema,
  GetTaskPushNotificationConfigRequestSchema,
  GetTaskRequestSchema,
  ListTaskPushNotificationConfigsRequestSchema,
  ListTaskPushNotificationConfigsResponseSchema,
  ListTasksRequestSchema,
  ListTasksResponseSchema,
  SendMessageRequestSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  SubscribeToTaskRequestSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { isA2AError } from "@protoc-gen-a2a/runtime";
import { grpcBaseUrl } from "@protoc-gen-a2a/runtime/grpc";
import {
  connectA2AService,
  type A2AServiceBinding,
} from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import { createPushNotificationReceiver } from "@protoc-gen-a2a/runtime/http";
import { serveNode } from "@protoc-gen-a2a/runtime/http";
import { listen } from "../servers.js";
import type {
  ActsClient,
  ActsClientFactory,
  ActsError,
  AgentEndpoints,
  Binding,
  CallOptions,
  CardCallResult,
  CardConnection,
  ClientFeatures,
  PushReceiverSetup,
  JsonObject,
  JsonValue,
  OperationOutcome,
  StreamOperation,
  StreamOutcome,
  UnaryOperation,
} from "./client.js";

export const GENERATED_IMPLEMENTATION = "protoc-gen-a2a";

/** The A2A version every call announces unless the runner's headers name another one. */
export const DEFAULT_A2A_VERSION = "1.0";

// ---------------------------------------------------------------------------------------------
// Shared by both implementations: header handling, request parsing, the operation tables.
// ---------------------------------------------------------------------------------------------

/** The runner's headers split into the A2A version to announce and the rest. */
export function splitVersionHeader(headers: Readonly<Record<string, string>>): {
  version: string;
  rest: Record<string, string>;
} {
  let version = DEFAULT_A2A_VERSION;
  const rest: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === "a2a-version") version = value;
    else rest[name] = value;
  }
  return { version, rest };
}

/** A client-side refusal: the implementation cannot put this request on the wire. */
export function clientUnsupported(message: string): ActsError {
  return { type: "ClientUnsupported", message };
}

/** The message of anything thrown. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Parses the runner's request ProtoJSON; a request the schema cannot hold is not expressible by a typed client. */
export function parseRequest<T extends DescMessage>(
  schema: T,
  request: JsonObject,
): { ok: true; message: Message } | { ok: false; error: ActsError } {
  try {
    return { ok: true, message: fromJson(schema, request as ProtoJsonValue) };
  } catch (e) {
    return {
      ok: false,
      error: clientUnsupported(
        `the request is not a valid ${schema.typeName} in ProtoJSON, so a typed client cannot send it: ${messageOf(e)}`,
      ),
    };
  }
}

/** The request and response messages of each abstract operation (client.ts). */
export const UNARY_SCHEMAS: Record<
  UnaryOperation,
  { readonly input: DescMessage; readonly output: DescMessage }
> = {
  send_message: { input: SendMessageRequestSchema, output: SendMessageResponseSchema },
  get_task: { input: GetTaskRequestSchema, output: TaskSchema },
  list_tasks: { input: ListTasksRequestSchema, output: ListTasksResponseSchema },
  cancel_task: { input: CancelTaskRequestSchema, output: TaskSchema },
  get_extended_agent_card: { input: GetExtendedAgentCardRequestSchema, output: AgentCardSchema },
  create_push_config: {
    input: TaskPushNotificationConfigSchema,
    output: TaskPushNotificationConfigSchema,
  },
  get_push_config: {
    input: GetTaskPushNotificationConfigRequestSchema,
    output: TaskPushNotificationConfigSchema,
  },
  list_push_configs: {
    input: ListTaskPushNotificationConfigsRequestSchema,
    output: ListTaskPushNotificationConfigsResponseSchema,
  },
  delete_push_config: { input: DeleteTaskPushNotificationConfigRequestSchema, output: EmptySchema },
};

export const STREAM_SCHEMAS: Record<StreamOperation, DescMessage> = {
  send_streaming_message: SendMessageRequestSchema,
  subscribe_to_task: SubscribeToTaskRequestSchema,
};

// ---------------------------------------------------------------------------------------------
// Our generated clients.
// ---------------------------------------------------------------------------------------------

type AnyCall = (client: A2AServiceClient, request: never, options: object) => Promise<Message>;
type AnyStream = (
  client: A2AServiceClient,
  request: never,
  options: object,
) => AsyncIterable<Message>;

const UNARY_CALLS: Record<UnaryOperation, AnyCall> = {
  send_message: (c, r, o) => c.sendMessage(r, o),
  get_task: (c, r, o) => c.getTask(r, o),
  list_tasks: (c, r, o) => c.listTasks(r, o),
  cancel_task: (c, r, o) => c.cancelTask(r, o),
  get_extended_agent_card: (c, r, o) => c.getExtendedAgentCard(r, o),
  create_push_config: (c, r, o) => c.createTaskPushNotificationConfig(r, o),
  get_push_config: (c, r, o) => c.getTaskPushNotificationConfig(r, o),
  list_push_configs: (c, r, o) => c.listTaskPushNotificationConfigs(r, o),
  delete_push_config: (c, r, o) => c.deleteTaskPushNotificationConfig(r, o),
};

const STREAM_CALLS: Record<StreamOperation, AnyStream> = {
  send_streaming_message: (c, r, o) => c.sendStreamingMessage(r, o),
  subscribe_to_task: (c, r, o) => c.subscribeToTask(r, o),
};

/** A thrown value of our clients as an ActsError: the error class the client chose. */
export function generatedActsError(e: unknown): ActsError {
  if (isA2AError(e))
    return {
      type: e.spec.name !== "A2AError" ? e.spec.name : "UnknownError",
      message: e.message,
      details: e.wireDetails() as unknown as JsonValue[],
    };
  return { type: "UnknownError", message: messageOf(e) };
}

/**
 * Our generated client for `binding` at `endpoints`. Every call sends `A2A-Version: 1.0` (or the
 * `a2a-version` of the runner's headers) and the runner's other headers as per-call headers / metadata.
 */
export const createGeneratedClient: ActsClientFactory = async (
  binding: Binding,
  endpoints: AgentEndpoints,
): Promise<ActsClient> => {
  let sessionManager: Http2SessionManager | undefined;
  let grpcTransport: ConnectTransport | undefined;
  if (binding === "grpc") {
    const baseUrl = grpcBaseUrl(endpoints.grpc);
    sessionManager = new Http2SessionManager(baseUrl);
    grpcTransport = createGrpcTransport({ baseUrl, sessionManager });
  }
  const clients = new Map<string, A2AServiceClient>();
  /** One client per announced version (the version is a client option); they share the connection. */
  const clientFor = (version: string): A2AServiceClient => {
    let client = clients.get(version);
    if (client === undefined) {
      switch (binding) {
        case "jsonrpc":
          client = new A2AServiceJsonRpcClient({ url: endpoints.jsonrpc, version });
          break;
        case "rest":
          client = new A2AServiceRestClient({ url: endpoints.rest, version });
          break;
        case "grpc":
          client = new A2AServiceGrpcClient({
            address: endpoints.grpc,
            version,
            ...(grpcTransport === undefined ? {} : { transport: grpcTransport }),
          });
          break;
      }
      clients.set(version, client);
    }
    return client;
  };

  return {
    binding,
    implementation: GENERATED_IMPLEMENTATION,

    async call(
      operation: UnaryOperation,
      request: JsonObject,
      options: CallOptions,
    ): Promise<OperationOutcome> {
      const schemas = UNARY_SCHEMAS[operation];
      const parsed = parseRequest(schemas.input, request);
      if (!parsed.ok) return { ok: false, error: parsed.error };
      const { version, rest } = splitVersionHeader(options.headers);
      try {
        const response = await UNARY_CALLS[operation](clientFor(version), parsed.message as never, {
          headers: rest,
          signal: options.signal,
        });
        return { ok: true, body: toJson(schemas.output, response) as JsonValue };
      } catch (e) {
        return { ok: false, error: generatedActsError(e) };
      }
    },

    async stream(
      operation: StreamOperation,
      request: JsonObject,
      options: CallOptions,
    ): Promise<StreamOutcome> {
      const parsed = parseRequest(STREAM_SCHEMAS[operation], request);
      if (!parsed.ok) return { events: [], error: parsed.error };
      const { version, rest } = splitVersionHeader(options.headers);
      const events: JsonValue[] = [];
      try {
        for await (const event of STREAM_CALLS[operation](
          clientFor(version),
          parsed.message as never,
          { headers: rest, signal: options.signal },
        )) {
          const json = toJson(StreamResponseSchema, event as never) as JsonValue;
          events.push(json);
          options.onEvent?.(json);
        }
        return { events };
      } catch (e) {
        return { events, error: generatedActsError(e) };
      }
    },

    async close(): Promise<void> {
      sessionManager?.abort();
      clients.clear();
    },
  };
};

// ---------------------------------------------------------------------------------------------
// Beyond calls: a connection from an Agent Card, and the webhook receiver.
// ---------------------------------------------------------------------------------------------

const BINDING_NAMES: Readonly<Record<Binding, A2AServiceBinding>> = {
  jsonrpc: "JSONRPC",
  rest: "HTTP+JSON",
  grpc: "GRPC",
};

const outcomeOf = async (call: () => Promise<unknown>): Promise<CardCallResult> => {
  try {
    await call();
    return { ok: true };
  } catch (e) {
    return { ok: false, error: isA2AError(e) ? `${e.spec.name}: ${e.message}` : messageOf(e) };
  }
};

/** What our generated code offers beyond calls: `connectA2AService` and `createPushNotificationReceiver`. */
export const generatedClientFeatures: ClientFeatures = {
  async connectFromCard(card: JsonObject, binding: Binding): Promise<CardConnection> {
    const connection = await connectA2AService(
      fromJson(AgentCardSchema, card as ProtoJsonValue, { ignoreUnknownFields: true }),
      { bindings: [BINDING_NAMES[binding]] },
    );
    return {
      sendStreamingMessage: () =>
        outcomeOf(async () => {
          for await (const _ of connection.client.sendStreamingMessage({
            message: {
              messageId: "acts-card",
              role: 1,
              parts: [{ content: { case: "text", value: "x" } }],
            },
          }))
            void _;
        }),
      createPushConfig: () =>
        outcomeOf(() =>
          connection.client.createTaskPushNotificationConfig({
            taskId: "acts-card",
            url: "https://example.com/hook",
          }),
        ),
      useExtendedCard: () => outcomeOf(() => connection.client.getExtendedAgentCard({})),
    };
  },
  async startPushReceiver(setup: PushReceiverSetup) {
    const receiver = createPushNotificationReceiver({
      schema: StreamResponseSchema,
      expected: (taskId) => {
        const auth = setup.expected(taskId);
        return auth === undefined ? undefined : { authentication: auth };
      },
      onNotification: (event, { taskId }) =>
        setup.onNotification(toJson(StreamResponseSchema, event) as JsonValue, taskId),
    });
    const server = await listen(serveNode(receiver) as never);
    return { url: server.url, close: () => server.close() };
  },
};
