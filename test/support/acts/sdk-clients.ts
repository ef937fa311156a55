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
 * clients' output. Errors: the SDK's error classes (@a2a-js/sdk/errors, /errors/grpc) mapped to the
 * names of our catalog by the wire code the SDK exposes (JSON-RPC `envelopeCode`, the gRPC
 * `google.rpc.Status` it keeps as `statusDetailsBin`), else its ErrorInfo reason, else the HTTP status.
 */
import { fromBinary, toJson, fromJson, createRegistry, type DescMessage, type JsonValue as ProtoJsonValue } from "@bufbuild/protobuf";
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
import { JsonRpcTransportFactory, RestTransportFactory, ServiceParameters, withA2AVersion, type RequestOptions, type Transport } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { A2AError as SdkA2AError, isJsonRpcError, isRestError } from "@a2a-js/sdk/errors";
import { isGrpcError } from "@a2a-js/sdk/errors/grpc";
import { StreamResponseSchema } from "../../../generated-example/gen/a2a_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { file_google_rpc_error_details } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
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
import {
  STREAM_SCHEMAS,
  UNARY_SCHEMAS,
  WireRecorder,
  clientUnsupported,
  messageOf,
  parseRequest,
  specByGrpcCode,
  specByHttpStatus,
  specByJsonRpcCode,
  specByReason,
  splitVersionHeader,
  type WireRecord,
} from "./generated-clients.js";

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
function unsupportedBySdk(binding: Binding, operation: UnaryOperation | StreamOperation, request: JsonObject): string | undefined {
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
  return "messageId" in result ? { message: SdkMessage.toJSON(result) } : { task: SdkTask.toJSON(result) };
}

type UnaryCall = (transport: Transport, request: JsonInput, options: RequestOptions) => Promise<unknown>;

/** Each operation on the SDK Transport: request via the SDK's fromJSON, result via its toJSON. */
const UNARY_CALLS: Record<UnaryOperation, UnaryCall> = {
  send_message: async (t, r, o) => sendMessageResult(await t.sendMessage(SdkSendMessageRequest.fromJSON(r), o)),
  get_task: async (t, r, o) => SdkTask.toJSON(await t.getTask(SdkGetTaskRequest.fromJSON(r), o)),
  list_tasks: async (t, r, o) => SdkListTasksResponse.toJSON(await t.listTasks(SdkListTasksRequest.fromJSON(r), o)),
  cancel_task: async (t, r, o) => SdkTask.toJSON(await t.cancelTask(SdkCancelTaskRequest.fromJSON(r), o)),
  get_extended_agent_card: async (t, r, o) => SdkAgentCard.toJSON(await t.getExtendedAgentCard(SdkGetExtendedAgentCardRequest.fromJSON(r), o)),
  create_push_config: async (t, r, o) =>
    SdkTaskPushNotificationConfig.toJSON(await t.createTaskPushNotificationConfig(SdkTaskPushNotificationConfig.fromJSON(r), o)),
  get_push_config: async (t, r, o) =>
    SdkTaskPushNotificationConfig.toJSON(await t.getTaskPushNotificationConfig(SdkGetTaskPushNotificationConfigRequest.fromJSON(r), o)),
  list_push_configs: async (t, r, o) =>
    SdkListTaskPushNotificationConfigsResponse.toJSON(await t.listTaskPushNotificationConfig(SdkListTaskPushNotificationConfigsRequest.fromJSON(r), o)),
  // The SDK resolves with void (google.protobuf.Empty).
  delete_push_config: async (t, r, o) => {
    await t.deleteTaskPushNotificationConfig(SdkDeleteTaskPushNotificationConfigRequest.fromJSON(r), o);
    return {};
  },
};

const STREAM_CALLS: Record<StreamOperation, (transport: Transport, request: JsonInput, options: RequestOptions) => AsyncIterable<SdkStreamResponse>> = {
  send_streaming_message: (t, r, o) => t.sendMessageStream(SdkSendMessageRequest.fromJSON(r), o),
  subscribe_to_task: (t, r, o) => t.resubscribeTask(SdkSubscribeToTaskRequest.fromJSON(r), o),
};

/** `google.rpc.Status.details` of a `grpc-status-details-bin` blob as ProtoJSON `Any`s ("@type" + fields). */
function grpcStatusDetails(bin: Uint8Array | undefined): { details: JsonValue[]; reason: string | undefined } {
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
      if (typeName === "google.rpc.ErrorInfo" && reason === undefined && typeof json["reason"] === "string") reason = json["reason"];
      details.push({ "@type": any.typeUrl, ...json });
    }
    return { details, reason };
  } catch {
    return { details: [], reason: undefined };
  }
}

/** Anything the SDK threw as an ActsError. */
export function sdkActsError(thrown: unknown, binding: Binding, wire: WireRecord): ActsError {
  // JSON-RPC: an error event inside the SSE stream is a plain Error whose `cause` is the SDK error.
  const e = !(thrown instanceof SdkA2AError) && thrown instanceof Error && thrown.cause instanceof SdkA2AError ? thrown.cause : thrown;
  const httpStatus = binding === "grpc" ? undefined : wire.status;
  const withHttp = httpStatus === undefined ? {} : { httpStatus };
  if (e instanceof SdkA2AError) {
    const semantic = SDK_SEMANTIC_ERRORS.has(e.name);
    if (isJsonRpcError(e)) {
      const spec = specByJsonRpcCode(e.envelopeCode) ?? (semantic ? specByReason(e.reason) : undefined);
      const data = e.data;
      const details = Array.isArray(data) ? (data as JsonValue[]) : data === undefined ? undefined : [data as JsonValue];
      return { type: spec?.name ?? "UnknownError", code: e.envelopeCode, message: e.message, ...(details === undefined ? {} : { details }), ...withHttp };
    }
    if (isRestError(e)) {
      const spec = semantic ? specByReason(e.reason) : specByHttpStatus(e.statusCode);
      return {
        type: spec?.name ?? "UnknownError",
        ...(spec === undefined ? {} : { code: spec.jsonRpcCode }),
        message: e.message,
        // The SDK keeps only the ErrorInfo (reason, metadata) of a REST error body.
        ...(semantic ? { details: [e.toErrorInfo() as unknown as JsonValue] } : {}),
        httpStatus: e.statusCode,
      };
    }
    if (isGrpcError(e)) {
      const { details, reason } = grpcStatusDetails(e.statusDetailsBin);
      const spec = specByReason(reason) ?? (semantic ? specByReason(e.reason) : undefined) ?? specByGrpcCode(e.status);
      return {
        type: spec?.name ?? "UnknownError",
        ...(spec === undefined ? {} : { code: spec.jsonRpcCode }),
        message: e.message,
        ...(details.length > 0 ? { details } : {}),
        grpcCode: e.status,
      };
    }
    // A transport-neutral SDK error (e.g. thrown by the SDK itself before sending).
    const spec = semantic ? specByReason(e.reason) : undefined;
    return { type: spec?.name ?? "UnknownError", ...(spec === undefined ? {} : { code: spec.jsonRpcCode }), message: e.message, ...withHttp };
  }
  // Plain errors: HTTP errors without a JSON-RPC body, bad content types, network failures, aborts.
  const spec = httpStatus !== undefined && httpStatus >= 400 ? specByHttpStatus(httpStatus) : undefined;
  return { type: spec?.name ?? "UnknownError", ...(spec === undefined ? {} : { code: spec.jsonRpcCode }), message: messageOf(e), ...withHttp };
}

/** A minimal card naming the one interface the transport is created for (the factories only read it for v0.3 compat). */
function cardFor(binding: Binding, url: string): SdkAgentCard {
  const protocolBinding = binding === "jsonrpc" ? "JSONRPC" : binding === "rest" ? "HTTP+JSON" : "GRPC";
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
export const createSdkClient: ActsClientFactory = async (binding: Binding, endpoints: AgentEndpoints): Promise<ActsClient> => {
  const recorder = new WireRecorder();
  let url: string;
  let transport: Transport;
  switch (binding) {
    case "jsonrpc":
      url = endpoints.jsonrpc;
      transport = await new JsonRpcTransportFactory({ fetchImpl: recorder.fetch }).create(url, cardFor(binding, url));
      break;
    case "rest":
      url = endpoints.rest;
      transport = await new RestTransportFactory({ fetchImpl: recorder.fetch }).create(url, cardFor(binding, url));
      break;
    case "grpc":
      url = endpoints.grpc;
      transport = await new GrpcTransportFactory().create(url, cardFor(binding, url));
      break;
  }
  const requestOptions = (options: CallOptions): RequestOptions => {
    const { version, rest } = splitVersionHeader(options.headers);
    return { signal: options.signal, serviceParameters: ServiceParameters.createFrom(rest, withA2AVersion(version)) };
  };

  return {
    binding,
    implementation: SDK_IMPLEMENTATION,

    call(operation: UnaryOperation, request: JsonObject, options: CallOptions): Promise<OperationOutcome> {
      const parsed = parseRequest(UNARY_SCHEMAS[operation].input, request);
      if (!parsed.ok) return Promise.resolve({ ok: false, error: parsed.error });
      const unsupported = unsupportedBySdk(binding, operation, request);
      if (unsupported !== undefined) return Promise.resolve({ ok: false, error: clientUnsupported(unsupported) });
      return recorder.run(async (wire) => {
        let result: unknown;
        try {
          result = await UNARY_CALLS[operation](transport, request, requestOptions(options));
        } catch (e) {
          return { ok: false, error: sdkActsError(e, binding, wire) };
        }
        try {
          return { ok: true, body: canonical(UNARY_SCHEMAS[operation].output, result) };
        } catch (e) {
          return { ok: false, error: { type: "UnknownError", message: `the SDK's result is not ProtoJSON of ${UNARY_SCHEMAS[operation].output.typeName}: ${messageOf(e)}` } };
        }
      });
    },

    stream(operation: StreamOperation, request: JsonObject, options: CallOptions): Promise<StreamOutcome> {
      const parsed = parseRequest(STREAM_SCHEMAS[operation], request);
      if (!parsed.ok) return Promise.resolve({ events: [], error: parsed.error });
      const unsupported = unsupportedBySdk(binding, operation, request);
      if (unsupported !== undefined) return Promise.resolve({ events: [], error: clientUnsupported(unsupported) });
      return recorder.run(async (wire) => {
        const events: JsonValue[] = [];
        try {
          for await (const event of STREAM_CALLS[operation](transport, request, requestOptions(options))) {
            events.push(canonicalStreamEvent(event));
          }
          return { events };
        } catch (e) {
          return { events, error: sdkActsError(e, binding, wire) };
        }
      });
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
