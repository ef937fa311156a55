/**
 * Deliberately wrong agents for the runner's mutation tests: each mutation breaks one thing
 * in what the example agent puts on the wire (applied by the wire tap, or to the push
 * deliveries reaching the runner's webhook), and names the ACTS tests that must then fail
 * on each binding it applies to. test/conformance/acts-mutations.test.ts runs the whole suite per
 * mutation and binding, asserts those tests fail, and prints which tests caught what.
 *
 * JSON mutations edit the RPC's response as ProtoJSON, typed by the descriptors of
 * a2a.proto; gRPC mutations decode the message, apply the same edit and encode it again
 * (or edit the bytes or trailers directly where ProtoJSON cannot express the fault).
 */
import {
  createRegistry,
  fromBinary,
  fromJson,
  toBinary,
  toJson,
  type DescMessage,
  type JsonValue as PbJson,
} from "@bufbuild/protobuf";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { file_google_rpc_error_details } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import type { Binding, JsonObject, JsonValue } from "./client.js";
import { responseSchemaOf, restRouteOf } from "./wire-judge.js";
import { END_STREAM, type MutationContext, type WireMutation } from "./wire-tap.js";

export interface RunnerMutation {
  readonly name: string;
  /** What is wrong, for the table. */
  readonly description: string;
  readonly bindings: readonly Binding[];
  readonly wire?: WireMutation;
  readonly webhookHeaders?: (headers: Record<string, string>) => Record<string, string>;
  /** ACTS tests that must fail under the mutation, on every binding of `bindings` (where the test applies to that binding). */
  readonly mustCatch: readonly string[];
}

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const ERROR_DETAIL_TYPES = createRegistry(file_google_rpc_error_details);

/** The RPC a request names on its binding. */
function rpcOf(ctx: MutationContext): string | undefined {
  if (ctx.binding === "grpc") return ctx.path.split("/").pop();
  if (ctx.binding === "jsonrpc")
    return isMap(ctx.requestJson) && typeof ctx.requestJson["method"] === "string"
      ? ctx.requestJson["method"]
      : undefined;
  if (ctx.binding === "rest") return restRouteOf(ctx.method, ctx.interfacePath);
  return undefined;
}

/** `json` (ProtoJSON of `desc`) with `edit` applied to every message of type `typeName` in it (depth first, children before parents). */
export function editMessages(
  desc: DescMessage,
  json: JsonValue,
  typeName: string,
  edit: (message: JsonObject) => JsonObject,
): JsonValue {
  if (!isMap(json) || desc.typeName.startsWith("google.protobuf.")) return json;
  const out: JsonObject = { ...json };
  for (const field of desc.fields) {
    const value = out[field.jsonName];
    if (value === undefined) continue;
    if (field.fieldKind === "message")
      out[field.jsonName] = editMessages(field.message, value, typeName, edit);
    else if (field.fieldKind === "list" && field.listKind === "message" && Array.isArray(value))
      out[field.jsonName] = value.map((v) => editMessages(field.message, v, typeName, edit));
    else if (field.fieldKind === "map" && field.mapKind === "message" && isMap(value))
      out[field.jsonName] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, editMessages(field.message, v, typeName, edit)]),
      );
  }
  return desc.typeName === typeName ? edit(out) : out;
}

/** Edits results of successful responses, as ProtoJSON of their RPC's response (or StreamResponse events), on every binding. */
function resultEdit(
  name: string,
  edit: (desc: DescMessage, result: JsonValue) => JsonValue,
): WireMutation {
  const schemaOf = (ctx: MutationContext) => {
    const rpc = rpcOf(ctx);
    return rpc === undefined ? undefined : responseSchemaOf(rpc);
  };
  return {
    name,
    json(body, status, ctx) {
      const schema = schemaOf(ctx);
      if (schema === undefined || status >= 400) return undefined;
      if (ctx.binding === "jsonrpc")
        return isMap(body) && body["result"] !== undefined
          ? { body: { ...body, result: edit(schema, body["result"]) } }
          : undefined;
      return { body: edit(schema, body) };
    },
    sseEvent(data, _index, ctx, event) {
      const schema = schemaOf(ctx);
      if (schema === undefined || event === "error") return undefined;
      if (ctx.binding === "jsonrpc")
        return isMap(data) && data["result"] !== undefined
          ? { ...data, result: edit(schema, data["result"]) }
          : undefined;
      return edit(schema, data);
    },
    grpcMessage(bytes, _index, ctx) {
      const schema = schemaOf(ctx);
      if (schema === undefined) return undefined;
      const json = toJson(schema, fromBinary(schema, bytes)) as JsonValue;
      return toBinary(schema, fromJson(schema, edit(schema, json) as PbJson));
    },
  };
}

/** Every string enum value in a ProtoJSON value, lowercased. */
function lowercaseEnums(desc: DescMessage, json: JsonValue): JsonValue {
  if (!isMap(json) || desc.typeName.startsWith("google.protobuf.")) return json;
  const out: JsonObject = { ...json };
  for (const field of desc.fields) {
    const value = out[field.jsonName];
    if (value === undefined) continue;
    if (field.fieldKind === "enum" && typeof value === "string")
      out[field.jsonName] = value.toLowerCase();
    else if (field.fieldKind === "message")
      out[field.jsonName] = lowercaseEnums(field.message, value);
    else if (field.fieldKind === "list" && field.listKind === "message" && Array.isArray(value))
      out[field.jsonName] = value.map((v) => lowercaseEnums(field.message, v));
  }
  return out;
}

/** camelCase keys of messages as their proto (snake_case) names, where they differ. */
function protoNames(desc: DescMessage, json: JsonValue): JsonValue {
  if (!isMap(json) || desc.typeName.startsWith("google.protobuf.")) return json;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f.jsonName === key);
    if (field === undefined) {
      out[key] = value;
      continue;
    }
    const inner =
      field.fieldKind === "message"
        ? protoNames(field.message, value)
        : field.fieldKind === "list" && field.listKind === "message" && Array.isArray(value)
          ? value.map((v) => protoNames(field.message, v))
          : value;
    out[field.name] = inner;
  }
  return out;
}

/** Every TaskState in a gRPC message set to a number the enum does not define. */
function outOfRangeStates(desc: DescMessage, json: JsonValue): JsonValue {
  return editMessages(desc, json, "lf.a2a.v1.TaskStatus", (status) => ({
    ...status,
    state: 99 as unknown as JsonValue,
  }));
}

/** An unknown field (number 999, varint 1) appended to a binary message. */
function withUnknownField(bytes: Uint8Array): Uint8Array {
  const tag = [0xb8, 0x3e]; // (999 << 3) | 0 as a varint
  return new Uint8Array([...bytes, ...tag, 0x01]);
}

/** Error details without their ErrorInfo. */
const withoutErrorInfo = (details: JsonValue): JsonValue =>
  Array.isArray(details)
    ? details.filter(
        (d) =>
          !(
            isMap(d) &&
            typeof d["@type"] === "string" &&
            d["@type"].endsWith("google.rpc.ErrorInfo")
          ),
      )
    : details;

export const MUTATIONS: readonly RunnerMutation[] = [
  {
    name: "lowercase-enum",
    description: "enum values as lowercase names (task_state_completed, role_agent)",
    bindings: ["jsonrpc", "rest"],
    wire: resultEdit("lowercase-enum", lowercaseEnums),
    mustCatch: ["DM-FMT-002"],
  },
  {
    name: "enum-out-of-range",
    description:
      "TaskState 99, a number the enum does not define (the binary form of a wrong enum)",
    bindings: ["grpc"],
    wire: resultEdit("enum-out-of-range", outOfRangeStates),
    mustCatch: ["DM-FMT-002"],
  },
  {
    name: "missing-required",
    description: "Task.status (REQUIRED) left out of every task",
    bindings: ["jsonrpc", "rest", "grpc"],
    wire: resultEdit("missing-required", (desc, json) =>
      editMessages(desc, json, "lf.a2a.v1.Task", ({ status: _status, ...task }) => task),
    ),
    mustCatch: ["CORE-SEND-001", "DM-SERIAL-002"],
  },
  {
    name: "next-page-token-omitted",
    description:
      "ListTasksResponse.nextPageToken left out (JSON only: proto3 binary cannot tell an empty string from none)",
    bindings: ["jsonrpc", "rest"],
    wire: resultEdit("next-page-token-omitted", (desc, json) =>
      editMessages(
        desc,
        json,
        "lf.a2a.v1.ListTasksResponse",
        ({ nextPageToken: _token, ...page }) => page,
      ),
    ),
    mustCatch: ["CORE-LIST-003"],
  },
  {
    name: "wrong-jsonrpc-code",
    description: "JSON-RPC errors with code -32603 (InternalError), the ErrorInfo reason unchanged",
    bindings: ["jsonrpc"],
    wire: {
      name: "wrong-jsonrpc-code",
      json: (body) =>
        isMap(body) && isMap(body["error"])
          ? {
              body: {
                ...body,
                error: {
                  ...body["error"],
                  code: body["error"]["code"] === -32603 ? -32600 : -32603,
                },
              },
            }
          : undefined,
      sseEvent: (data) =>
        isMap(data) && isMap(data["error"])
          ? {
              ...data,
              error: { ...data["error"], code: data["error"]["code"] === -32603 ? -32600 : -32603 },
            }
          : undefined,
    },
    mustCatch: ["CORE-ERR-001"],
  },
  {
    name: "wrong-http-status",
    description: "HTTP+JSON errors answered 500, the §11.6 body unchanged",
    bindings: ["rest"],
    wire: {
      name: "wrong-http-status",
      json: (body, status) =>
        status >= 400 ? { body, status: status === 500 ? 400 : 500 } : undefined,
    },
    mustCatch: ["CORE-ERR-001", "REST-STATUS-001"],
  },
  {
    name: "wrong-grpc-status",
    description: "gRPC errors with status INTERNAL (13), the status details unchanged",
    bindings: ["grpc"],
    wire: {
      name: "wrong-grpc-status",
      grpcTrailers: (t) =>
        t["grpc-status"] !== undefined && t["grpc-status"] !== "0"
          ? { ...t, "grpc-status": t["grpc-status"] === "13" ? "2" : "13" }
          : undefined,
    },
    mustCatch: ["GRPC-STATUS-001"],
  },
  {
    name: "error-info-missing",
    description: "errors without their google.rpc.ErrorInfo detail",
    bindings: ["jsonrpc", "rest", "grpc"],
    wire: {
      name: "error-info-missing",
      json: (body, status) => {
        if (!isMap(body) || !isMap(body["error"])) return undefined;
        const error = body["error"];
        const key = error["data"] !== undefined ? "data" : "details";
        return {
          body: { ...body, error: { ...error, [key]: withoutErrorInfo(error[key] ?? []) } },
          status,
        };
      },
      sseEvent: (data) =>
        isMap(data) && isMap(data["error"])
          ? {
              ...data,
              error: {
                ...data["error"],
                data: withoutErrorInfo(data["error"]["data"] ?? []),
                details: withoutErrorInfo(data["error"]["details"] ?? []),
              },
            }
          : undefined,
      grpcTrailers: (t) => {
        const bin = t["grpc-status-details-bin"];
        if (bin === undefined) return undefined;
        const status = fromBinary(StatusSchema, Buffer.from(bin, "base64"));
        const json = toJson(StatusSchema, status, { registry: ERROR_DETAIL_TYPES }) as JsonObject;
        const stripped = fromJson(
          StatusSchema,
          { ...json, details: withoutErrorInfo(json["details"] ?? []) } as PbJson,
          { registry: ERROR_DETAIL_TYPES },
        );
        return {
          ...t,
          "grpc-status-details-bin": Buffer.from(toBinary(StatusSchema, stripped)).toString(
            "base64",
          ),
        };
      },
    },
    mustCatch: ["CORE-ERR-001", "JSONRPC-ERR-003"],
  },
  {
    name: "unknown-field",
    description: 'an extra field the message does not have ("unexpectedField": 1; gRPC: field 999)',
    bindings: ["jsonrpc", "rest", "grpc"],
    wire: {
      ...resultEdit("unknown-field", (_desc, json) =>
        isMap(json) ? { ...json, unexpectedField: 1 } : json,
      ),
      grpcMessage: (bytes) => withUnknownField(bytes),
    },
    mustCatch: ["DM-SERIAL-002"],
  },
  {
    name: "proto-field-names",
    description: "snake_case (proto) field names instead of camelCase (context_id)",
    bindings: ["jsonrpc", "rest"],
    wire: resultEdit("proto-field-names", protoNames),
    mustCatch: ["DM-FMT-001", "DM-SERIAL-002"],
  },
  {
    name: "stream-ends-early",
    description: "every stream ends cleanly after its first event",
    bindings: ["jsonrpc", "rest", "grpc"],
    wire: {
      name: "stream-ends-early",
      sseEvent: (_d, index) => (index >= 1 ? END_STREAM : undefined),
      grpcMessage: (_b, index, ctx) =>
        index >= 1 && /Streaming|Subscribe/.test(ctx.path) ? END_STREAM : undefined,
    },
    mustCatch: ["STREAM-SSE-001", "JSONRPC-SSE-001", "GRPC-STREAM-001"],
  },
  {
    name: "push-wrong-token",
    description: "push deliveries carry Authorization: Bearer wrong-token",
    bindings: ["jsonrpc", "rest", "grpc"],
    webhookHeaders: (h) => ({ ...h, authorization: "Bearer wrong-token" }),
    mustCatch: ["SEC-PUSH-001", "PUSH-DELIV-001"],
  },
];
