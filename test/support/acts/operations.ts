/**
 * Abstract operations (§4.1) and their request messages (§4.3). Step `params` use the
 * abstract data model; this module turns them into the ProtoJSON of the RPC's request
 * message, once for every binding:
 *
 * - the published suite also spells the push operations `set_/get_/list_/delete_push_notification_config(s)`;
 * - send: a `message` without `messageId` gets a fresh UUID (§4.3, §12.4); `taskId` and
 *   `contextId` written beside `message` (as several suite files do) move into the message,
 *   where A2A v1.0 carries them (SendMessageRequest has no such fields);
 * - create push config: `{taskId, pushNotificationConfig: {...}}` becomes the flat v1.0
 *   TaskPushNotificationConfig `{taskId, url, token, authentication, ...}`;
 * - list_tasks: `cursor` is `pageToken`.
 * Params that the request message does not have are reported back so the runner can say
 * they were not sent.
 */
import { randomUUID } from "node:crypto";
import type { JsonObject, JsonValue, StreamOperation, UnaryOperation } from "./client.js";

export type AbstractOperation = UnaryOperation | StreamOperation | "get_agent_card";

const ALIASES: Readonly<Record<string, AbstractOperation>> = {
  send_message: "send_message",
  send_streaming_message: "send_streaming_message",
  get_task: "get_task",
  list_tasks: "list_tasks",
  cancel_task: "cancel_task",
  subscribe_to_task: "subscribe_to_task",
  get_agent_card: "get_agent_card",
  get_extended_agent_card: "get_extended_agent_card",
  create_push_config: "create_push_config",
  set_push_notification_config: "create_push_config",
  create_push_notification_config: "create_push_config",
  get_push_config: "get_push_config",
  get_push_notification_config: "get_push_config",
  list_push_configs: "list_push_configs",
  list_push_notification_configs: "list_push_configs",
  delete_push_config: "delete_push_config",
  delete_push_notification_config: "delete_push_config",
};

/** The canonical abstract operation for a name used in a step, or undefined. */
export const resolveOperation = (name: string): AbstractOperation | undefined =>
  Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;

export const isStreamOperation = (op: AbstractOperation): op is StreamOperation =>
  op === "send_streaming_message" || op === "subscribe_to_task";

/** Request fields per operation (ProtoJSON names), beyond the special cases handled below. */
const FIELDS: Readonly<Record<Exclude<AbstractOperation, "get_agent_card">, readonly string[]>> = {
  send_message: ["tenant", "message", "configuration", "metadata"],
  send_streaming_message: ["tenant", "message", "configuration", "metadata"],
  get_task: ["tenant", "id", "historyLength"],
  list_tasks: [
    "tenant",
    "contextId",
    "status",
    "pageSize",
    "pageToken",
    "historyLength",
    "statusTimestampAfter",
    "includeArtifacts",
  ],
  cancel_task: ["tenant", "id", "metadata"],
  subscribe_to_task: ["tenant", "id"],
  get_extended_agent_card: ["tenant"],
  create_push_config: ["tenant", "id", "taskId", "url", "token", "authentication"],
  get_push_config: ["tenant", "taskId", "id"],
  list_push_configs: ["tenant", "taskId", "pageSize", "pageToken"],
  delete_push_config: ["tenant", "taskId", "id"],
};

export interface BuiltRequest {
  readonly request: JsonObject;
  /** Params the request message has no field for (not sent). */
  readonly dropped: readonly string[];
}

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Builds the request message of `operation` from interpolated step params. */
export function buildRequest(
  operation: Exclude<AbstractOperation, "get_agent_card">,
  params: JsonObject,
): BuiltRequest {
  const input: JsonObject = { ...params };
  if (operation === "send_message" || operation === "send_streaming_message") {
    // Only a message the test wrote is completed: a test without one gets none (so "missing message" stays testable).
    if (isMap(input["message"])) {
      const message: JsonObject = { ...input["message"] };
      for (const key of ["taskId", "contextId"]) {
        if (input[key] !== undefined && message[key] === undefined) message[key] = input[key]!;
        delete input[key];
      }
      if (message["messageId"] === undefined) message["messageId"] = randomUUID();
      input["message"] = message;
    }
  }
  if (operation === "create_push_config" && isMap(input["pushNotificationConfig"])) {
    Object.assign(input, input["pushNotificationConfig"]);
    delete input["pushNotificationConfig"];
  }
  if (operation === "list_tasks" && input["cursor"] !== undefined) {
    input["pageToken"] = input["cursor"]!;
    delete input["cursor"];
  }
  const request: JsonObject = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (FIELDS[operation].includes(key)) request[key] = value as JsonValue;
    else dropped.push(key);
  }
  return { request, dropped };
}
