/**
 * The seam between the ACTS runner and an A2A client on one binding. The runner turns a
 * step's abstract `params` into the ProtoJSON of the RPC's request message (once, binding
 * neutral) and hands it to an `ActsClient`; the client sends it on its binding and gives
 * back the response as ProtoJSON (camelCase names, enum value names, default values
 * omitted) or the error as an `ActsError`. Implementations: our generated clients
 * (`generated-clients.ts`) and @a2a-js/sdk 1.3.0's (`sdk-clients.ts`).
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** The three bindings of A2A v1.0, by their ACTS names. */
export type Binding = "jsonrpc" | "rest" | "grpc";
export const BINDINGS: readonly Binding[] = ["jsonrpc", "rest", "grpc"];

/**
 * Abstract operations with one response. The request is the ProtoJSON of:
 *   send_message → SendMessageRequest            (response SendMessageResponse)
 *   get_task → GetTaskRequest                     (Task)
 *   list_tasks → ListTasksRequest                 (ListTasksResponse)
 *   cancel_task → CancelTaskRequest               (Task)
 *   get_extended_agent_card → GetExtendedAgentCardRequest (AgentCard)
 *   create_push_config → TaskPushNotificationConfig (TaskPushNotificationConfig)
 *   get_push_config → GetTaskPushNotificationConfigRequest (TaskPushNotificationConfig)
 *   list_push_configs → ListTaskPushNotificationConfigsRequest (ListTaskPushNotificationConfigsResponse)
 *   delete_push_config → DeleteTaskPushNotificationConfigRequest (google.protobuf.Empty → `{}`)
 * (get_agent_card is plain HTTP, done by the runner.)
 */
export type UnaryOperation =
  | "send_message"
  | "get_task"
  | "list_tasks"
  | "cancel_task"
  | "get_extended_agent_card"
  | "create_push_config"
  | "get_push_config"
  | "list_push_configs"
  | "delete_push_config";

/** Abstract operations answered by a stream of StreamResponse. Requests: SendMessageRequest, SubscribeToTaskRequest. */
export type StreamOperation = "send_streaming_message" | "subscribe_to_task";

/** An A2A error as the client surfaced it. */
export interface ActsError {
  /**
   * The abstract error name ("TaskNotFoundError", "InvalidParamsError", "UnsupportedOperationError",
   * "UnauthenticatedError", …, the names of our error catalog), as the client identified it
   * (ErrorInfo reason, else the binding's code); "UnknownError" when it could not.
   */
  readonly type: string;
  /** The JSON-RPC code of that error type (for JSON-RPC: the code on the wire). */
  readonly code?: number;
  readonly message: string;
  /** The error details as ProtoJSON (`google.rpc.ErrorInfo` etc. with "@type"), when the client exposes them. */
  readonly details?: readonly JsonValue[];
  /** HTTP status (JSON-RPC: 200; REST: the response status), when known. */
  readonly httpStatus?: number;
  /** gRPC status code, when the binding is gRPC. */
  readonly grpcCode?: number;
}

export type OperationOutcome = { readonly ok: true; readonly body: JsonValue } | { readonly ok: false; readonly error: ActsError };

/** Everything a stream delivered, in order, and how it ended. */
export interface StreamOutcome {
  /** StreamResponse events as ProtoJSON (`{"task":…}`, `{"statusUpdate":…}`, `{"artifactUpdate":…}`, `{"message":…}`). */
  readonly events: JsonValue[];
  /** Set when the stream (or the call opening it) ended with an error. */
  readonly error?: ActsError;
}

export interface CallOptions {
  /** Extra request headers / gRPC metadata (e.g. `authorization`), lower-case names. The client adds `A2A-Version: 1.0` itself. */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

/** One A2A client on one binding, bound to one agent interface. */
export interface ActsClient {
  readonly binding: Binding;
  /** "protoc-gen-a2a" or "@a2a-js/sdk". */
  readonly implementation: string;
  call(operation: UnaryOperation, request: JsonObject, options: CallOptions): Promise<OperationOutcome>;
  /** Reads the whole stream (until it ends, errors or `options.signal` aborts). */
  stream(operation: StreamOperation, request: JsonObject, options: CallOptions): Promise<StreamOutcome>;
  close(): Promise<void>;
}

/** Where the agent under test serves each binding (from its Agent Card). */
export interface AgentEndpoints {
  readonly cardUrl: string;
  /** JSON-RPC endpoint URL. */
  readonly jsonrpc: string;
  /** HTTP+JSON base URL (no trailing slash). */
  readonly rest: string;
  /** gRPC address, host:port (h2c). */
  readonly grpc: string;
}

export type ActsClientFactory = (binding: Binding, endpoints: AgentEndpoints) => Promise<ActsClient>;
