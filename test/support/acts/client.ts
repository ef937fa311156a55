/**
 * The seam between the ACTS runner and an A2A client on one binding. The runner turns a
 * step's abstract `params` into the ProtoJSON of the RPC's request message (once, binding
 * neutral) and hands it to an `ActsClient`; the client sends it on its binding (through the
 * runner's wire tap, wire-tap.ts) and gives back its reading of the response as ProtoJSON
 * (camelCase names, enum value names, default values omitted) or the error as an `ActsError`.
 * The runner asserts on the recorded wire and checks the client's reading against it. Implementations: our generated clients
 * (`generated-clients.ts`) and @a2a-js/sdk 1.3.0's (`sdk-clients.ts`).
 */

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };
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

/**
 * An A2A error as the client surfaced it. The runner judges errors on the wire; this is the
 * client's reading, which must name the same type.
 */
export interface ActsError {
  /**
   * The abstract error name ("TaskNotFoundError", "InvalidParamsError", "UnsupportedOperationError",
   * "UnauthenticatedError", …, the v1.0.1 names), as the client identified it; "UnknownError" when
   * it could not; "ClientUnsupported" when the client cannot put the request on the wire.
   */
  readonly type: string;
  readonly message: string;
  /** The error details as ProtoJSON (`google.rpc.ErrorInfo` etc. with "@type"), when the client exposes them. */
  readonly details?: readonly JsonValue[];
}

export type OperationOutcome =
  | { readonly ok: true; readonly body: JsonValue }
  | { readonly ok: false; readonly error: ActsError };

/** Everything a stream delivered, in order, and how it ended. */
export interface StreamOutcome {
  /** StreamResponse events as ProtoJSON (`{"task":…}`, `{"statusUpdate":…}`, `{"artifactUpdate":…}`, `{"message":…}`). */
  readonly events: JsonValue[];
  /** Set when the stream (or the call opening it) ended with an error. */
  readonly error?: ActsError;
}

export interface CallOptions {
  /** Extra request headers / gRPC metadata (e.g. `authorization`, the runner's `acts-exchange`), lower-case names. The client adds `A2A-Version: 1.0` itself. */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Streams: called with each event (ProtoJSON) as soon as the client delivers it. */
  readonly onEvent?: (event: JsonValue) => void;
}

/** One A2A client on one binding, bound to one agent interface. */
export interface ActsClient {
  readonly binding: Binding;
  /** "protoc-gen-a2a" or "@a2a-js/sdk". */
  readonly implementation: string;
  call(
    operation: UnaryOperation,
    request: JsonObject,
    options: CallOptions,
  ): Promise<OperationOutcome>;
  /** Reads the whole stream (until it ends, errors or `options.signal` aborts). */
  stream(
    operation: StreamOperation,
    request: JsonObject,
    options: CallOptions,
  ): Promise<StreamOutcome>;
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

export type ActsClientFactory = (
  binding: Binding,
  endpoints: AgentEndpoints,
) => Promise<ActsClient>;

/** The result of one call made through a {@link CardConnection}: done, or the error it ended with. */
export type CardCallResult = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** A client made from an Agent Card the way an application makes one (capabilities honoured). */
export interface CardConnection {
  /** Sends a streaming message and reads the stream to its end. */
  sendStreamingMessage(): Promise<CardCallResult>;
  /** Creates a push notification config for a task. */
  createPushConfig(): Promise<CardCallResult>;
  /** Fetches the extended Agent Card and lets the connection use it from now on. */
  useExtendedCard(): Promise<CardCallResult>;
}

/** Starts a webhook receiver of the implementation; `expected` is what the application registered per task. */
export interface PushReceiverSetup {
  expected(taskId: string): { readonly scheme: string; readonly credentials: string } | undefined;
  /** Each notification the receiver accepted, as ProtoJSON. */
  onNotification(notification: JsonValue, taskId: string): void;
}

/**
 * What a client implementation offers beyond calls, for the client-side checks
 * (CLIENT-CAP-001, CLIENT-AUTH-001, SEC-PUSH-002). An absent member is a gap of the
 * implementation, reported as such.
 */
export interface ClientFeatures {
  /** A connection from `card` (ProtoJSON) on `binding`. */
  connectFromCard?(card: JsonObject, binding: Binding): Promise<CardConnection>;
  /** The implementation's webhook receiver, listening on 127.0.0.1. */
  startPushReceiver?(
    setup: PushReceiverSetup,
  ): Promise<{ readonly url: string; close(): Promise<void> }>;
}
