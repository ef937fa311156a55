// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Requests the scenarios send, as ProtoJSON: a valid request per operation, and the invalid
 * variants derived from the REQUIRED table (the generated `<Service>RequiredFields`): for every
 * REQUIRED field the valid request sets, the request without it; for every range, a value just
 * outside it. Nothing here is a hand list of fields: a field marked REQUIRED in the proto gets
 * its scenario.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { RequirementTable } from "../pipeline/required-fields.js";
import type { A2AOperationName } from "./service-spec.js";

/** A user message (ProtoJSON) with one text part. */
export function userMessage(text: string, extra?: JsonObject): JsonObject {
  return {
    messageId: `kit-message-${text.replace(/[^A-Za-z0-9]+/g, "-")}`,
    role: "ROLE_USER",
    parts: [{ text }],
    ...extra,
  };
}

/**
 * A valid request of each operation, for the validation scenarios (the ids need not exist:
 * validation comes before the handler, and a binding that let the request through gets the
 * agent's TaskNotFoundError, which differs from the expected InvalidParamsError).
 */
export const VALID_REQUESTS: Readonly<Record<A2AOperationName, JsonObject>> = {
  SendMessage: {
    message: userMessage("hello"),
    configuration: { acceptedOutputModes: ["text/plain"] },
  },
  SendStreamingMessage: {
    message: userMessage("stream"),
    configuration: { acceptedOutputModes: ["text/plain"] },
  },
  GetTask: { id: "kit-task" },
  ListTasks: { pageSize: 10 },
  CancelTask: { id: "kit-task" },
  SubscribeToTask: { id: "kit-task" },
  CreateTaskPushNotificationConfig: {
    taskId: "kit-task",
    url: "https://example.com/webhook",
    authentication: { scheme: "Bearer", credentials: "kit-secret" },
  },
  GetTaskPushNotificationConfig: { taskId: "kit-task", id: "kit-config" },
  ListTaskPushNotificationConfigs: { taskId: "kit-task" },
  GetExtendedAgentCard: {},
  DeleteTaskPushNotificationConfig: { taskId: "kit-task", id: "kit-config" },
};

/** An invalid request derived from a valid one. */
export interface InvalidRequest {
  /** The violation's field path, as the pipelines name it (`message.parts[0].content`). */
  readonly field: string;
  /** "missing": a REQUIRED field left out; "range": a number just outside its allowed range. */
  readonly kind: "missing" | "range";
  /** For "range": the value sent. */
  readonly value?: number;
  /** The request. */
  readonly request: JsonObject;
}

/**
 * Every invalid variant of `valid` (a request of type `typeName`) the table gives: one per REQUIRED
 * field the request sets (nested messages included, the first element of lists), and one per bound of
 * every range of a message the request holds.
 */
export function invalidRequests(
  table: RequirementTable,
  typeName: string,
  valid: JsonObject,
): InvalidRequest[] {
  const out: InvalidRequest[] = [];
  collect(table, typeName, valid, [], "", (path, field, kind, mutate, value) => {
    const request = structuredClone(valid);
    mutate(locate(request, path));
    out.push(value === undefined ? { field, kind, request } : { field, kind, value, request });
  });
  return out;
}

type Emit = (
  path: readonly (string | number)[],
  field: string,
  kind: "missing" | "range",
  mutate: (node: JsonObject) => void,
  value?: number,
) => void;

function collect(
  table: RequirementTable,
  typeName: string,
  node: JsonObject,
  path: readonly (string | number)[],
  prefix: string,
  emit: Emit,
): void {
  for (const rule of table[typeName] ?? []) {
    const field = prefix === "" ? rule.json : `${prefix}.${rule.json}`;
    if (rule.check === "oneof") {
      const members = rule.members ?? [];
      if (members.some((m) => node[m] !== undefined))
        emit(path, field, "missing", (n) => {
          for (const m of members) delete n[m];
        });
      continue;
    }
    const value = node[rule.json];
    if (rule.check !== undefined && value !== undefined) {
      emit(path, field, "missing", (n) => {
        delete n[rule.json];
      });
    }
    if (rule.min !== undefined) {
      const v = rule.min - 1;
      emit(path, field, "range", (n) => (n[rule.json] = v), v);
    }
    if (rule.max !== undefined) {
      const v = rule.max + 1;
      emit(path, field, "range", (n) => (n[rule.json] = v), v);
    }
    if (rule.nested === undefined || rule.map === true) continue;
    if (isObject(value)) collect(table, rule.nested, value, [...path, rule.json], field, emit);
    else if (Array.isArray(value) && isObject(value[0]))
      collect(table, rule.nested, value[0], [...path, rule.json, 0], `${field}[0]`, emit);
  }
}

function locate(root: JsonObject, path: readonly (string | number)[]): JsonObject {
  let node: JsonValue = root;
  for (const step of path) node = (node as Record<string | number, JsonValue>)[step] as JsonValue;
  return node as JsonObject;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
