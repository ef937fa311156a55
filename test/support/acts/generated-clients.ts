/**
 * `ActsClient`s over OUR generated clients (generated-example/gen): `A2AServiceJsonRpcClient`,
 * `A2AServiceRestClient` and `A2AServiceGrpcClient`. The request ProtoJSON is parsed with
 * `fromJson(<RequestSchema>, json)` and the response written back with `toJson` (default options);
 * the generated error classes become `ActsError`s (catalog name, JSON-RPC code, ErrorInfo details,
 * HTTP status as seen on the wire, gRPC code).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { fromJson, toJson, type DescMessage, type JsonValue as ProtoJsonValue, type Message } from "@bufbuild/protobuf";
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
import { errorSpecs } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { isA2AError, type A2AErrorSpec } from "../../../generated-example/gen/a2a-runtime/a2a-error.js";
import { grpcBaseUrl } from "../../../generated-example/gen/a2a-runtime/grpc/client.js";
import type {
  ActsClient,
  ActsClientFactory,
  ActsError,
  AgentEndpoints,
  Binding,
  CallOptions,
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
// Shared by both implementations: the error catalog, wire recording, header handling.
// ---------------------------------------------------------------------------------------------

const CATALOG: readonly A2AErrorSpec[] = Object.values(errorSpecs);

/** The catalog entry of an `ErrorInfo.reason`, if any. */
export function specByReason(reason: string | undefined): A2AErrorSpec | undefined {
  return reason === undefined ? undefined : CATALOG.find((s) => s.reason === reason);
}

/** The catalog entry of a JSON-RPC code (codes are unique), if any. */
export function specByJsonRpcCode(code: number | undefined): A2AErrorSpec | undefined {
  return code === undefined ? undefined : CATALOG.find((s) => s.jsonRpcCode === code);
}

/** The only catalog entry with this HTTP status (e.g. 401, 403, 404), if exactly one has it. */
export function specByHttpStatus(status: number | undefined): A2AErrorSpec | undefined {
  const found = CATALOG.filter((s) => s.httpStatus === status);
  return found.length === 1 ? found[0] : undefined;
}

/** The only catalog entry with this gRPC status code, if exactly one has it. */
export function specByGrpcCode(code: number | undefined): A2AErrorSpec | undefined {
  const found = CATALOG.filter((s) => s.grpcCode === code);
  return found.length === 1 ? found[0] : undefined;
}

/** What the HTTP exchanges of one call looked like (the last response wins). */
export interface WireRecord {
  status?: number;
}

/** A per-call record of the HTTP status, kept in async context so concurrent calls do not mix. */
export class WireRecorder {
  readonly #storage = new AsyncLocalStorage<WireRecord>();

  /** A fetch that notes each response status in the current call's record. */
  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const record = this.#storage.getStore();
    if (record !== undefined) record.status = response.status;
    return response;
  };

  /** Runs `fn` with a fresh record, handing it the record. */
  run<T>(fn: (record: WireRecord) => Promise<T>): Promise<T> {
    const record: WireRecord = {};
    return this.#storage.run(record, () => fn(record));
  }
}

/** The runner's headers split into the A2A version to announce and the rest. */
export function splitVersionHeader(headers: Readonly<Record<string, string>>): { version: string; rest: Record<string, string> } {
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
export function parseRequest<T extends DescMessage>(schema: T, request: JsonObject): { ok: true; message: Message } | { ok: false; error: ActsError } {
  try {
    return { ok: true, message: fromJson(schema, request as ProtoJsonValue) };
  } catch (e) {
    return { ok: false, error: clientUnsupported(`the request is not a valid ${schema.typeName} in ProtoJSON, so a typed client cannot send it: ${messageOf(e)}`) };
  }
}

/** The request and response messages of each abstract operation (client.ts). */
export const UNARY_SCHEMAS: Record<UnaryOperation, { readonly input: DescMessage; readonly output: DescMessage }> = {
  send_message: { input: SendMessageRequestSchema, output: SendMessageResponseSchema },
  get_task: { input: GetTaskRequestSchema, output: TaskSchema },
  list_tasks: { input: ListTasksRequestSchema, output: ListTasksResponseSchema },
  cancel_task: { input: CancelTaskRequestSchema, output: TaskSchema },
  get_extended_agent_card: { input: GetExtendedAgentCardRequestSchema, output: AgentCardSchema },
  create_push_config: { input: TaskPushNotificationConfigSchema, output: TaskPushNotificationConfigSchema },
  get_push_config: { input: GetTaskPushNotificationConfigRequestSchema, output: TaskPushNotificationConfigSchema },
  list_push_configs: { input: ListTaskPushNotificationConfigsRequestSchema, output: ListTaskPushNotificationConfigsResponseSchema },
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
type AnyStream = (client: A2AServiceClient, request: never, options: object) => AsyncIterable<Message>;

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

/** A thrown value of our clients as an ActsError. */
export function generatedActsError(e: unknown, binding: Binding, wire: WireRecord): ActsError {
  const httpStatus = binding === "grpc" ? undefined : wire.status;
  if (isA2AError(e)) {
    const known = e.spec.name !== "A2AError";
    return {
      type: known ? e.spec.name : "UnknownError",
      code: e.code,
      message: e.message,
      details: e.wireDetails() as unknown as JsonValue[],
      ...(httpStatus === undefined ? {} : { httpStatus }),
      ...(binding === "grpc" ? { grpcCode: e.grpcCode } : {}),
    };
  }
  return { type: "UnknownError", message: messageOf(e), ...(httpStatus === undefined ? {} : { httpStatus }) };
}

/**
 * Our generated client for `binding` at `endpoints`. Every call sends `A2A-Version: 1.0` (or the
 * `a2a-version` of the runner's headers) and the runner's other headers as per-call headers / metadata.
 */
export const createGeneratedClient: ActsClientFactory = async (binding: Binding, endpoints: AgentEndpoints): Promise<ActsClient> => {
  const recorder = new WireRecorder();
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
          client = new A2AServiceJsonRpcClient({ url: endpoints.jsonrpc, version, fetch: recorder.fetch });
          break;
        case "rest":
          client = new A2AServiceRestClient({ url: endpoints.rest, version, fetch: recorder.fetch });
          break;
        case "grpc":
          client = new A2AServiceGrpcClient({ address: endpoints.grpc, version, ...(grpcTransport === undefined ? {} : { transport: grpcTransport }) });
          break;
      }
      clients.set(version, client);
    }
    return client;
  };

  return {
    binding,
    implementation: GENERATED_IMPLEMENTATION,

    call(operation: UnaryOperation, request: JsonObject, options: CallOptions): Promise<OperationOutcome> {
      const schemas = UNARY_SCHEMAS[operation];
      const parsed = parseRequest(schemas.input, request);
      if (!parsed.ok) return Promise.resolve({ ok: false, error: parsed.error });
      const { version, rest } = splitVersionHeader(options.headers);
      return recorder.run(async (wire) => {
        try {
          const response = await UNARY_CALLS[operation](clientFor(version), parsed.message as never, { headers: rest, signal: options.signal });
          return { ok: true, body: toJson(schemas.output, response) as JsonValue };
        } catch (e) {
          return { ok: false, error: generatedActsError(e, binding, wire) };
        }
      });
    },

    stream(operation: StreamOperation, request: JsonObject, options: CallOptions): Promise<StreamOutcome> {
      const parsed = parseRequest(STREAM_SCHEMAS[operation], request);
      if (!parsed.ok) return Promise.resolve({ events: [], error: parsed.error });
      const { version, rest } = splitVersionHeader(options.headers);
      return recorder.run(async (wire) => {
        const events: JsonValue[] = [];
        try {
          for await (const event of STREAM_CALLS[operation](clientFor(version), parsed.message as never, { headers: rest, signal: options.signal })) {
            events.push(toJson(StreamResponseSchema, event as never) as JsonValue);
          }
          return { events };
        } catch (e) {
          return { events, error: generatedActsError(e, binding, wire) };
        }
      });
    },

    async close(): Promise<void> {
      sessionManager?.abort();
      clients.clear();
    },
  };
};
