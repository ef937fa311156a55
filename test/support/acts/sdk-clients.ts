/**
 * `ActsClient`s over @a2a-js/sdk 1.3.0's client transports: the `Transport` its
 * `JsonRpcTransportFactory`, `RestTransportFactory` and `GrpcTransportFactory` create (what a
 * `ClientFactory` wraps in a `Client`). The transport is used directly, not through `Client`, so
 * the request goes out as the runner wrote it: `Client` would add client-side behaviour (default
 * `configuration`, refusing push-config calls locally from the card's capabilities, falling back to
 * SendMessage when the card has no streaming). As `Client` does, every call carries the SDK's
 * `withA2AVersion` service parameter (`A2A-Version: 1.0`).
 *
 * Requests: our ProtoJSON → the SDK's ts-proto message with its own `X.fromJSON`. Results: the
 * SDK's `X.toJSON`, then canonicalized through our protobuf-es schema (`toJson(fromJson(json))`,
 * strict: an unknown field fails), so timestamps, int64s and default omission read the same as our
 * clients' output. Errors: the SDK's error classes (@a2a-js/sdk/errors, /errors/grpc) named after the
 * spec table (spec-errors.ts) by what the SDK exposes: the JSON-RPC `envelopeCode`, the ErrorInfo in
 * the gRPC `google.rpc.Status` it keeps as `statusDetailsBin`, its own reason for the REST error, else
 * its class; the HTTP status only for errors the SDK did not read at all.
 */
import {
  fromBinary,
  toJson,
  fromJson,
  createRegistry,
  type DescMessage,
  type JsonValue as ProtoJsonValue,
} from "@bufbuild/protobuf";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import {
  AgentCard as SdkAgentCard,
  CancelTaskRequest as SdkCancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest as SdkDeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest as SdkGetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest as SdkGetTaskPushNotificationConfigRequest,
  GetTaskRequest as SdkGetTaskRequest,
  ListTaskPushNotificationConfigsRequest as SdkListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse as SdkListTaskPushNotificationConfigsResponse,
  ListTasksRequest as SdkListTasksRequest,
  ListTasksResponse as SdkListTasksResponse,
  Message as SdkMessage,
  SendMessageRequest as SdkSendMessageRequest,
  StreamResponse as SdkStreamResponse,
  SubscribeToTaskRequest as SdkSubscribeToTaskRequest,
  Task as SdkTask,
  TaskPushNotificationConfig as SdkTaskPushNotificationConfig,
  type JsonInput,
  type SendMessageResult,
} from "@a2a-js/sdk";
import {
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
  ServiceParameters,
  withA2AVersion,
  type RequestOptions,
  type Transport,
} from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { A2AError as SdkA2AError, isJsonRpcError, isRestError } from "@a2a-js/sdk/errors";
import { isGrpcError } from "@a2a-js/sdk/errors/grpc";
import { StreamResponseSchema } from "../../../generated-example/gen/a2a_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { file_google_rpc_error_details } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { GRPC_CODES } from "./spec-errors.js";
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
  JsonObject,
  JsonValue,
  OperationOutcome,
  StreamOperation,
  StreamOutcome,
  UnaryOperation,
} from "./client.js";
import {
  STREAM_SCHEMAS,
  UNARY_SCHEMAS,
  clientUnsupported,
  messageOf,
  parseRequest,
  splitVersionHeader,
} from "./generated-clients.js";
import {
  SPEC_ERRORS,
  specErrorByJsonRpcCode as specByJsonRpcCode,
  specErrorByReason as specByReason,
  type SpecError,
} from "./spec-errors.js";

/** The only spec error with this HTTP status (401, 403, 404), if exactly one has it. */
function specByHttpStatus(status: number | undefined): SpecError | undefined {
  const found = SPEC_ERRORS.filter((s) => s.httpStatus === status);
  return found.length === 1 ? found[0] : undefined;
}

/** The only spec error with this gRPC status code, if exactly one has it. */
function specByGrpcCode(code: number | undefined): SpecError | undefined {
  const found = SPEC_ERRORS.filter((s) => GRPC_CODES[s.grpcStatus] === code);
  return found.length === 1 ? found[0] : undefined;
}

export const SDK_IMPLEMENTATION = "@a2a-js/sdk";

/** The SDK's error class names that stand for a reason read from the wire (its §5.4 table); anything else is generic. */
const SDK_SEMANTIC_ERRORS = new Set([
  "TaskNotFoundError",
  "TaskNotCancelableError",
  "PushNotificationNotSupportedError",
  "UnsupportedOperationError",
  "ContentTypeNotSupportedError",
  "InvalidAgentResponseError",
  "ExtendedAgentCardNotConfiguredError",
  "ExtensionSupportRequiredError",
  "VersionNotSupportedError",
  "RequestMalformedError",
]);

const ERROR_DETAIL_TYPES = createRegistry(file_google_rpc_error_details);

/**
 * Requests the SDK transport cannot put on the wire as given (it drops the field), per binding and
 * operation: the reason, or undefined when it can. Checked on the runner's ProtoJSON.
 */
function unsupportedBySdk(
  binding: Binding,
  operation: UnaryOperation | StreamOperation,
  request: JsonObject,
): string | undefined {
  if (binding !== "rest") return undefined;
  const has = (field: string) => request[field] !== undefined && request[field] !== null;
  if (operation === "cancel_task" && has("metadata")) {
    return "@a2a-js/sdk 1.3.0 RestTransport.cancelTask POSTs /tasks/{id}:cancel without a body, so CancelTaskRequest.metadata cannot be sent";
  }
  if (operation === "list_push_configs" && (has("pageSize") || has("pageToken"))) {
    return "@a2a-js/sdk 1.3.0 RestTransport.listTaskPushNotificationConfig sends no query string, so pageSize / pageToken cannot be sent";
  }
  return undefined;
}

/** Our ProtoJSON of `schema` from the SDK's toJSON output (strict: an unknown field is an error). */
function canonical(schema: DescMessage, sdkJson: unknown): JsonValue {
  return toJson(schema, fromJson(schema, (sdkJson ?? {}) as ProtoJsonValue)) as JsonValue;
}

/** The SendMessage result (the SDK hands back the payload's value only) as SendMessageResponse ProtoJSON. */
function sendMessageResult(result: SendMessageResult): unknown {
  return "messageId" in result
    ? { message: SdkMessage.toJSON(result) }
    : { task: SdkTask.toJSON(result) };
}

type UnaryCall = (
  transport: Transport,
  request: JsonInput,
  options: RequestOptions,
) => Promise<unknown>;

/** Each operation on the SDK Transport: request via the SDK's fromJSON, result via its toJSON. */
const UNARY_CALLS: Record<UnaryOperation, UnaryCall> = {
  send_message: async (t, r, o) =>
    sendMessageResult(await t.sendMessage(SdkSendMessageRequest.fromJSON(r), o)),
  get_task: async (t, r, o) => SdkTask.toJSON(await t.getTask(SdkGetTaskRequest.fromJSON(r), o)),
  list_tasks: async (t, r, o) =>
    SdkListTasksResponse.toJSON(await t.listTasks(SdkListTasksRequest.fromJSON(r), o)),
  cancel_task: async (t, r, o) =>
    SdkTask.toJSON(await t.cancelTask(SdkCancelTaskRequest.fromJSON(r), o)),
  get_extended_agent_card: async (t, r, o) =>
    SdkAgentCard.toJSON(
      await t.getExtendedAgentCard(SdkGetExtendedAgentCardRequest.fromJSON(r), o),
    ),
  create_push_config: async (t, r, o) =>
    SdkTaskPushNotificationConfig.toJSON(
      await t.createTaskPushNotificationConfig(SdkTaskPushNotificationConfig.fromJSON(r), o),
    ),
  get_push_config: async (t, r, o) =>
    SdkTaskPushNotificationConfig.toJSON(
      await t.getTaskPushNotificationConfig(SdkGetTaskPushNotificationConfigRequest.fromJSON(r), o),
    ),
  list_push_configs: async (t, r, o) =>
    SdkListTaskPushNotificationConfigsResponse.toJSON(
      await t.listTaskPushNotificationConfig(
        SdkListTaskPushNotificationConfigsRequest.fromJSON(r),
        o,
      ),
    ),
  // The SDK resolves with void (google.protobuf.Empty).
  delete_push_config: async (t, r, o) => {
    await t.deleteTaskPushNotificationConfig(
      SdkDeleteTaskPushNotificationConfigRequest.fromJSON(r),
      o,
    );
    return {};
  },
};

const STREAM_CALLS: Record<
  StreamOperation,
  (
    transport: Transport,
    request: JsonInput,
    options: RequestOptions,
  ) => AsyncIterable<SdkStreamResponse>
> = {
  send_streaming_message: (t, r, o) => t.sendMessageStream(SdkSendMessageRequest.fromJSON(r), o),
  subscribe_to_task: (t, r, o) => t.resubscribeTask(SdkSubscribeToTaskRequest.fromJSON(r), o),
};

/** `google.rpc.Status.details` of a `grpc-status-details-bin` blob as ProtoJSON `Any`s ("@type" + fields). */
function grpcStatusDetails(bin: Uint8Array | undefined): {
  details: JsonValue[];
  reason: string | undefined;
} {
  if (bin === undefined) return { details: [], reason: undefined };
  try {
    const status = fromBinary(StatusSchema, bin);
    const details: JsonValue[] = [];
    let reason: string | undefined;
    for (const any of status.details) {
      const typeName = any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
      const unpacked = anyUnpack(any, ERROR_DETAIL_TYPES);
      if (unpacked === undefined) {
        details.push({ "@type": any.typeUrl });
        continue;
      }
      const desc = ERROR_DETAIL_TYPES.getMessage(typeName);
      const json = desc === undefined ? {} : (toJson(desc, unpacked) as JsonObject);
      if (
        typeName === "google.rpc.ErrorInfo" &&
        reason === undefined &&
        typeof json["reason"] === "string"
      )
        reason = json["reason"];
      details.push({ "@type": any.typeUrl, ...json });
    }
    return { details, reason };
  } catch {
    return { details: [], reason: undefined };
  }
}

/** Anything the SDK threw as an ActsError. `httpStatus`: the status of the response, for errors the SDK did not read. */
export function sdkActsError(thrown: unknown, httpStatus?: number): ActsError {
  // JSON-RPC: an error event inside the SSE stream is a plain Error whose `cause` is the SDK error.
  const e =
    !(thrown instanceof SdkA2AError) &&
    thrown instanceof Error &&
    thrown.cause instanceof SdkA2AError
      ? thrown.cause
      : thrown;
  if (e instanceof SdkA2AError) {
    const semantic = SDK_SEMANTIC_ERRORS.has(e.name);
    if (isJsonRpcError(e)) {
      const spec =
        specByJsonRpcCode(e.envelopeCode) ?? (semantic ? specByReason(e.reason) : undefined);
      const data = e.data;
      const details = Array.isArray(data)
        ? (data as JsonValue[])
        : data === undefined
          ? undefined
          : [data as JsonValue];
      return {
        type: spec?.name ?? "UnknownError",
        message: e.message,
        ...(details === undefined ? {} : { details }),
      };
    }
    if (isRestError(e)) {
      const spec = semantic ? specByReason(e.reason) : specByHttpStatus(e.statusCode);
      // The SDK keeps only the ErrorInfo (reason, metadata) of a REST error body.
      return {
        type: spec?.name ?? "UnknownError",
        message: e.message,
        ...(semantic ? { details: [e.toErrorInfo() as unknown as JsonValue] } : {}),
      };
    }
    if (isGrpcError(e)) {
      const { details, reason } = grpcStatusDetails(e.statusDetailsBin);
      const spec =
        specByReason(reason) ??
        (semantic ? specByReason(e.reason) : undefined) ??
        specByGrpcCode(e.status);
      return {
        type: spec?.name ?? "UnknownError",
        message: e.message,
        ...(details.length > 0 ? { details } : {}),
      };
    }
    // A transport-neutral SDK error (e.g. thrown by the SDK itself before sending).
    const spec = semantic ? specByReason(e.reason) : undefined;
    return { type: spec?.name ?? "UnknownError", message: e.message };
  }
  // Plain errors: HTTP errors without a JSON-RPC body, bad content types, network failures, aborts.
  const spec =
    httpStatus !== undefined && httpStatus >= 400 ? specByHttpStatus(httpStatus) : undefined;
  return { type: spec?.name ?? "UnknownError", message: messageOf(e) };
}

/** A fetch that remembers the status of the last response (for errors the SDK throws without reading the body). */
function statusRecordingFetch(): { fetch: typeof globalThis.fetch; last(): number | undefined } {
  let status: number | undefined;
  return {
    fetch: async (input, init) => {
      const response = await globalThis.fetch(input, init);
      status = response.status;
      return response;
    },
    last: () => status,
  };
}

/** A minimal card naming the one interface the transport is created for (the factories only read it for v0.3 compat). */
function cardFor(binding: Binding, url: string): SdkAgentCard {
  const protocolBinding =
    binding === "jsonrpc" ? "JSONRPC" : binding === "rest" ? "HTTP+JSON" : "GRPC";
  return SdkAgentCard.fromJSON({
    name: "ACTS agent under test",
    description: "",
    version: "",
    supportedInterfaces: [{ url, protocolBinding, protocolVersion: "1.0" }],
    capabilities: {},
  });
}

/**
 * @a2a-js/sdk's client transport for `binding` at `endpoints`. Operations its transport cannot
 * express answer an ActsError of type "ClientUnsupported".
 */
export const createSdkClient: ActsClientFactory = async (
  binding: Binding,
  endpoints: AgentEndpoints,
): Promise<ActsClient> => {
  // The client is used one call at a time per adapter call; the status is only a fallback name for unread errors.
  const recorder = statusRecordingFetch();
  let url: string;
  let transport: Transport;
  switch (binding) {
    case "jsonrpc":
      url = endpoints.jsonrpc;
      transport = await new JsonRpcTransportFactory({ fetchImpl: recorder.fetch }).create(
        url,
        cardFor(binding, url),
      );
      break;
    case "rest":
      url = endpoints.rest;
      transport = await new RestTransportFactory({ fetchImpl: recorder.fetch }).create(
        url,
        cardFor(binding, url),
      );
      break;
    case "grpc":
      url = endpoints.grpc;
      transport = await new GrpcTransportFactory().create(url, cardFor(binding, url));
      break;
  }
  const requestOptions = (options: CallOptions): RequestOptions => {
    const { version, rest } = splitVersionHeader(options.headers);
    return {
      signal: options.signal,
      serviceParameters: ServiceParameters.createFrom(rest, withA2AVersion(version)),
    };
  };

  return {
    binding,
    implementation: SDK_IMPLEMENTATION,

    async call(
      operation: UnaryOperation,
      request: JsonObject,
      options: CallOptions,
    ): Promise<OperationOutcome> {
      const parsed = parseRequest(UNARY_SCHEMAS[operation].input, request);
      if (!parsed.ok) return { ok: false, error: parsed.error };
      const unsupported = unsupportedBySdk(binding, operation, request);
      if (unsupported !== undefined) return { ok: false, error: clientUnsupported(unsupported) };
      let result: unknown;
      try {
        result = await UNARY_CALLS[operation](transport, request, requestOptions(options));
      } catch (e) {
        return {
          ok: false,
          error: sdkActsError(e, binding === "grpc" ? undefined : recorder.last()),
        };
      }
      try {
        return { ok: true, body: canonical(UNARY_SCHEMAS[operation].output, result) };
      } catch (e) {
        return {
          ok: false,
          error: {
            type: "UnknownError",
            message: `the SDK's result is not ProtoJSON of ${UNARY_SCHEMAS[operation].output.typeName}: ${messageOf(e)}`,
          },
        };
      }
    },

    async stream(
      operation: StreamOperation,
      request: JsonObject,
      options: CallOptions,
    ): Promise<StreamOutcome> {
      const parsed = parseRequest(STREAM_SCHEMAS[operation], request);
      if (!parsed.ok) return { events: [], error: parsed.error };
      const unsupported = unsupportedBySdk(binding, operation, request);
      if (unsupported !== undefined) return { events: [], error: clientUnsupported(unsupported) };
      const events: JsonValue[] = [];
      try {
        for await (const event of STREAM_CALLS[operation](
          transport,
          request,
          requestOptions(options),
        )) {
          const json = canonicalStreamEvent(event);
          events.push(json);
          options.onEvent?.(json);
        }
        return { events };
      } catch (e) {
        return { events, error: sdkActsError(e, binding === "grpc" ? undefined : recorder.last()) };
      }
    },

    async close(): Promise<void> {
      // The SDK's transports have no close(); the gRPC one holds a grpc-js channel.
      (transport as unknown as { grpcClient?: { close(): void } }).grpcClient?.close();
    },
  };
};

function canonicalStreamEvent(event: SdkStreamResponse): JsonValue {
  return canonical(StreamResponseSchema, SdkStreamResponse.toJSON(event));
}

/** What @a2a-js/sdk 1.3.0 offers beyond calls: its `Client` from an Agent Card (it has no webhook receiver). */
export const sdkClientFeatures: ClientFeatures = {
  async connectFromCard(card: JsonObject, binding: Binding): Promise<CardConnection> {
    const transports =
      binding === "grpc"
        ? [new GrpcTransportFactory()]
        : binding === "jsonrpc"
          ? [new JsonRpcTransportFactory()]
          : [new RestTransportFactory()];
    const client = await new ClientFactory({ transports }).createFromAgentCard(
      SdkAgentCard.fromJSON(card),
    );
    // Bounded: the SDK's gRPC transport throws inside a grpc-js callback on some malformed answers and never settles.
    const outcome = async (call: () => Promise<unknown>): Promise<CardCallResult> => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          call(),
          new Promise(
            (_, reject) =>
              (timer = setTimeout(() => reject(new Error("no answer within 10 s")), 10_000)),
          ),
        ]);
        return { ok: true };
      } catch (e) {
        return { ok: false, error: `${e instanceof Error ? e.name : "Error"}: ${messageOf(e)}` };
      } finally {
        clearTimeout(timer);
      }
    };
    return {
      sendStreamingMessage: () =>
        outcome(async () => {
          for await (const _ of client.sendMessageStream(
            SdkSendMessageRequest.fromJSON({
              message: { messageId: "acts-card", role: "ROLE_USER", parts: [{ text: "x" }] },
            }),
          ))
            void _;
        }),
      createPushConfig: () =>
        outcome(() =>
          client.createTaskPushNotificationConfig(
            SdkTaskPushNotificationConfig.fromJSON({
              taskId: "acts-card",
              url: "https://example.com/hook",
            }),
          ),
        ),
      // Client.getAgentCard fetches the extended card when the card advertises one and keeps it.
      useExtendedCard: () => outcome(() => client.getAgentCard()),
    };
  },
};
