/**
 * The assertion root as the spec writes it on the wire. A client hands back a parsed
 * message; ProtoJSON leaves out implicit-presence fields at their zero value, but A2A
 * requires REQUIRED fields to be present (§5.7, e.g. "nextPageToken MUST always be present
 * … set to an empty string" on the last page of ListTasks). So the runner adds every
 * REQUIRED (google.api.field_behavior) field that a parsed value leaves out, at its zero
 * value, recursively: computed here from the descriptors of a2a.proto alone, not from the
 * code under test.
 */
import { getOption, hasOption, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { EmptySchema, FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { FieldBehavior, field_behavior } from "../../../generated-example/gen/google/api/field_behavior_pb.js";
import {
  AgentCardSchema,
  ListTaskPushNotificationConfigsResponseSchema,
  ListTasksResponseSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import type { JsonObject, JsonValue, StreamOperation, UnaryOperation } from "./client.js";

/** The response message of each abstract operation. */
export const RESPONSE_SCHEMAS: Readonly<Record<UnaryOperation | StreamOperation, DescMessage>> = {
  send_message: SendMessageResponseSchema,
  send_streaming_message: StreamResponseSchema,
  subscribe_to_task: StreamResponseSchema,
  get_task: TaskSchema,
  cancel_task: TaskSchema,
  list_tasks: ListTasksResponseSchema,
  get_extended_agent_card: AgentCardSchema,
  create_push_config: TaskPushNotificationConfigSchema,
  get_push_config: TaskPushNotificationConfigSchema,
  list_push_configs: ListTaskPushNotificationConfigsResponseSchema,
  delete_push_config: EmptySchema,
};

const isMap = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

const required = (field: DescField) => hasOption(field, field_behavior) && getOption(field, field_behavior).includes(FieldBehavior.REQUIRED);

function zeroValue(field: DescField): JsonValue | undefined {
  if (field.fieldKind === "list") return [];
  if (field.fieldKind === "map") return {};
  // An absent enum stays absent: its zero value is *_UNSPECIFIED, never a valid REQUIRED value, so `exists` must still fail.
  if (field.fieldKind !== "scalar" || field.oneof !== undefined || field.presence !== FeatureSet_FieldPresence.IMPLICIT) return undefined;
  switch (field.scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return "0";
    default:
      return 0;
  }
}

/** `json` (a ProtoJSON value of `schema`) with the REQUIRED fields it leaves out added at their zero value. */
export function withRequiredFields(schema: DescMessage, json: JsonValue, depth = 0): JsonValue {
  if (!isMap(json) || depth > 64 || schema.typeName.startsWith("google.protobuf.")) return json;
  const out: JsonObject = { ...json };
  for (const field of schema.fields) {
    const value = out[field.jsonName];
    if (value === undefined) {
      if (required(field)) {
        const zero = zeroValue(field);
        if (zero !== undefined) out[field.jsonName] = zero;
      }
      continue;
    }
    if (field.fieldKind === "message") out[field.jsonName] = withRequiredFields(field.message, value, depth + 1);
    else if (field.fieldKind === "list" && field.listKind === "message" && Array.isArray(value)) out[field.jsonName] = value.map((v) => withRequiredFields(field.message, v, depth + 1));
  }
  return out;
}
