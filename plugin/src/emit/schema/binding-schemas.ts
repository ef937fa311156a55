// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Schemas of what travels on the JSON bindings, whole: JSON-RPC 2.0 request and response
 * envelopes and SSE events (spec §9), HTTP+JSON bodies, SSE events and the §11.6 error
 * body, named per operation so that a payload seen on the wire can be validated as it is.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import type { ErrorCatalogEntry } from "../../model/error-catalog.js";
import { ERROR_DOMAIN, grpcCodes } from "../../model/error-catalog.js";
import type { HttpBinding } from "../../model/http-binding.js";
import type { OperationModel, ServiceModel } from "../../model/service-model.js";
import { exactlyOneRule } from "../../model/oneof-rules.js";
import { requiredRule } from "../../model/required-fields.js";
import {
  messageRef,
  messageSchema,
  requiredKey,
  type JsonSchema,
  type RefStyle,
} from "./message-schema.js";
import { hasObjectJson } from "../../model/json-form.js";
import { withErrorLocation } from "../../generation-error.js";

const ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";
const BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest";

/** Names of the binding-level definitions (beside the messages' full names). */
export const bindingDefNames = {
  jsonRpcId: "jsonrpc.Id",
  jsonRpcError: "jsonrpc.Error",
  jsonRpcErrorResponse: "jsonrpc.ErrorResponse",
  httpErrorResponse: "http.ErrorResponse",
  errorDetail: "google.rpc.ErrorDetail",
  errorInfo: "google.rpc.ErrorInfo",
  badRequest: "google.rpc.BadRequest",
} as const;

/** The per-operation definitions: `<service>.<Rpc>.<kind>`. */
export type OperationDefKind =
  | "JsonRpcRequest"
  | "JsonRpcResponse"
  | "JsonRpcStreamEvent"
  | "HttpRequestBody"
  | "HttpResponse"
  | "HttpStreamEvent";

export function operationDefName(
  service: ServiceModel,
  op: OperationModel,
  kind: OperationDefKind,
): string {
  return `${service.typeName}.${op.name}.${kind}`;
}

/** The definitions shared by every operation: ids, error objects and bodies, error details. */
export function sharedBindingDefs(
  errors: readonly ErrorCatalogEntry[],
  ref: RefStyle,
): Record<string, JsonSchema> {
  const reasons = errors.map((e) => e.reason);
  const statusNames = Object.keys(grpcCodes);
  const jsonRpcCodes = errors.map((e) => `${e.jsonRpcCode} ${e.name}`).join(", ");
  return {
    [bindingDefNames.jsonRpcId]: {
      description: "A JSON-RPC 2.0 request id: a string, a number or null.",
      anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }],
    },
    [bindingDefNames.errorInfo]: {
      type: "object",
      description: `google.rpc.ErrorInfo in ProtoJSON Any form (§9.5, §10.6, §11.6): the A2A error type as \`reason\` (${reasons.join(", ")}), domain "${ERROR_DOMAIN}".`,
      properties: {
        "@type": { const: ERROR_INFO_TYPE },
        reason: { type: "string" },
        domain: { type: "string" },
        metadata: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["@type", "reason", "domain"],
    },
    [bindingDefNames.badRequest]: {
      type: "object",
      description:
        "google.rpc.BadRequest in ProtoJSON Any form: the fields that failed validation.",
      properties: {
        "@type": { const: BAD_REQUEST_TYPE },
        fieldViolations: {
          type: "array",
          items: {
            type: "object",
            properties: { field: { type: "string" }, description: { type: "string" } },
            required: ["field", "description"],
          },
        },
      },
      required: ["@type"],
    },
    [bindingDefNames.errorDetail]: {
      description:
        "An error detail: a google.protobuf.Any in ProtoJSON form, ErrorInfo and BadRequest as defined, others any object with @type.",
      anyOf: [
        { $ref: ref(bindingDefNames.errorInfo) },
        { $ref: ref(bindingDefNames.badRequest) },
        {
          type: "object",
          properties: {
            "@type": { type: "string", not: { enum: [ERROR_INFO_TYPE, BAD_REQUEST_TYPE] } },
          },
          required: ["@type"],
        },
      ],
    },
    [bindingDefNames.jsonRpcError]: {
      type: "object",
      description: `A JSON-RPC 2.0 error object (§9.5): the code of the error (${jsonRpcCodes}, or an agent's own), a message, and as data the error details, ErrorInfo first.`,
      properties: {
        code: { type: "integer" },
        message: { type: "string" },
        data: { type: "array", items: { $ref: ref(bindingDefNames.errorDetail) } },
      },
      required: ["code", "message"],
    },
    [bindingDefNames.jsonRpcErrorResponse]: {
      type: "object",
      description: "A JSON-RPC 2.0 error response (§9.5).",
      properties: {
        jsonrpc: { const: "2.0" },
        id: { $ref: ref(bindingDefNames.jsonRpcId) },
        error: { $ref: ref(bindingDefNames.jsonRpcError) },
      },
      required: ["jsonrpc", "id", "error"],
      not: requiredKey("result"),
    },
    [bindingDefNames.httpErrorResponse]: {
      type: "object",
      description:
        "The HTTP+JSON error body (§11.6, google.rpc.Status in the AIP-193 envelope): `code` is the HTTP status, `status` the google.rpc.Code name, `details` the error details, ErrorInfo first.",
      properties: {
        error: {
          type: "object",
          properties: {
            code: { type: "integer", minimum: 400, maximum: 599 },
            status: { type: "string", enum: statusNames },
            message: { type: "string" },
            details: { type: "array", items: { $ref: ref(bindingDefNames.errorDetail) } },
          },
          required: ["code", "status", "message"],
        },
      },
      required: ["error"],
    },
  };
}

/** Whether `{}` is a valid request: an object type with no REQUIRED field and no exactly-one oneof at the top. */
export function acceptsEmpty(
  message: DescMessage,
  inPath: ReadonlySet<string> = new Set(),
): boolean {
  if (!hasObjectJson(message)) return false;
  return (
    message.fields.every((f) => inPath.has(f.name) || requiredRule(f) === undefined) &&
    message.oneofs.every((o) => exactlyOneRule(o) === undefined)
  );
}

/** The per-operation definitions of one service, by name. */
export function operationDefs(service: ServiceModel, ref: RefStyle): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = {};
  for (const op of service.operations) {
    withErrorLocation(
      { file: service.desc.file.proto.name, rpc: `${service.typeName}.${op.name}` },
      () => addOperationDefs(defs, service, op, ref),
    );
  }
  return defs;
}

/** Adds the definitions of one operation. */
function addOperationDefs(
  defs: Record<string, JsonSchema>,
  service: ServiceModel,
  op: OperationModel,
  ref: RefStyle,
): void {
  const name = (kind: OperationDefKind) => operationDefName(service, op, kind);
  const streaming = op.kind === "server_streaming";
  defs[name("JsonRpcRequest")] = {
    type: "object",
    description: `A JSON-RPC 2.0 request of ${op.name} (§9.4): params is a ${op.input.typeName}${acceptsEmpty(op.input) ? ", {} when left out" : ""}.`,
    properties: {
      jsonrpc: { const: "2.0" },
      id: { $ref: ref(bindingDefNames.jsonRpcId) },
      // The qualified name of an RPC name two services of the file have, or the RPC name (model/operation-names.ts).
      method:
        op.jsonRpcMethod === op.name ? { const: op.name } : { enum: [op.jsonRpcMethod, op.name] },
      // A request whose ProtoJSON is not an object travels by position: `[value]` (runtime jsonrpc/params.ts).
      params: hasObjectJson(op.input)
        ? messageRef(op.input, ref)
        : { type: "array", prefixItems: [messageRef(op.input, ref)], minItems: 1, maxItems: 1 },
    },
    required: acceptsEmpty(op.input)
      ? ["jsonrpc", "id", "method"]
      : ["jsonrpc", "id", "method", "params"],
  };
  const success = (what: string): JsonSchema => ({
    type: "object",
    description: what,
    properties: {
      jsonrpc: { const: "2.0" },
      id: { $ref: ref(bindingDefNames.jsonRpcId) },
      result: messageRef(op.output, ref),
    },
    required: ["jsonrpc", "id", "result"],
    not: requiredKey("error"),
  });
  if (streaming) {
    defs[name("JsonRpcStreamEvent")] = {
      description: `The data of one SSE event of ${op.name} (§9.4.2): a JSON-RPC response whose result is a ${op.output.typeName}, or an error response that ends the stream.`,
      oneOf: [
        success(`A ${op.output.typeName} of the stream.`),
        { $ref: ref(bindingDefNames.jsonRpcErrorResponse) },
      ],
    };
  } else {
    defs[name("JsonRpcResponse")] = {
      description: `The JSON-RPC 2.0 response of ${op.name}: a ${op.output.typeName} result, or an error.`,
      oneOf: [
        success(`The result of ${op.name}.`),
        { $ref: ref(bindingDefNames.jsonRpcErrorResponse) },
      ],
    };
  }
  const primary = op.httpBindings[0];
  // The body of the first binding that has one (SubscribeToTask: its POST alias).
  const withBody = op.httpBindings.find((b) => b.body !== "");
  if (withBody !== undefined) defs[name("HttpRequestBody")] = httpBodySchema(op, withBody, ref);
  if (primary !== undefined) {
    defs[name(streaming ? "HttpStreamEvent" : "HttpResponse")] = {
      description: streaming
        ? `The data of one SSE event of ${op.name} over HTTP+JSON (§11.7): a ${op.output.typeName}.`
        : `The 200 body of ${op.name} over HTTP+JSON: a ${op.output.typeName}.`,
      ...messageRef(op.output, ref),
    };
  }
}

/** The JSON body of an HTTP binding: the request without the fields the path carries (body "*"), or the one body field's message. */
export function httpBodySchema(
  op: OperationModel,
  binding: HttpBinding,
  ref: RefStyle,
): JsonSchema {
  if (binding.body === "*") {
    const inPath = new Set(
      binding.variables.filter((v) => v.path.length === 1).map((v) => v.field),
    );
    if (inPath.size === 0) return messageRef(op.input, ref);
    return messageSchema(op.input, ref, { omit: inPath });
  }
  const field = op.input.fields.find((f) => f.name === binding.body);
  if (field === undefined || field.fieldKind !== "message") return { type: "object" };
  return messageRef(field.message, ref);
}
