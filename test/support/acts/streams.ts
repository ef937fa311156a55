/**
 * Streaming expectations (§7): `expect_stream` over the events of
 * send_streaming_message / subscribe_to_task (StreamResponse ProtoJSON) or of a raw SSE
 * response (JSON-RPC envelopes around a StreamResponse).
 *
 * An event is matched through its *view*: the event itself plus the fields of its payload
 * (the one of task / message / statusUpdate / artifactUpdate, inside `result` for a JSON-RPC
 * envelope). So `status: {state: …}` holds for a Task snapshot and a status update alike,
 * and `artifact: {exists: true}` for an artifact update, as the published suite writes them;
 * `task:` / `message:` / `status_update:` / `artifact_update:` keys require that payload kind.
 */
import type { JsonObject, JsonValue } from "./client.js";
import { check, show, type AssertionFailure } from "./assertions.js";

const PAYLOAD_KEYS: Readonly<Record<string, string>> = {
  task: "task",
  message: "message",
  status_update: "statusUpdate",
  statusUpdate: "statusUpdate",
  artifact_update: "artifactUpdate",
  artifactUpdate: "artifactUpdate",
};
const META_KEYS = new Set(["description", "match", "index"]);
const TERMINAL = new Set([
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
]);

const isMap = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The StreamResponse inside an event (unwrapping a JSON-RPC envelope). */
function streamResponseOf(event: JsonValue): JsonObject | undefined {
  if (!isMap(event)) return undefined;
  if (isMap(event["result"])) return event["result"];
  return event;
}

/** The payload kind and value of an event ("statusUpdate", {...}), if it has one. */
export function payloadOf(event: JsonValue): [string, JsonObject] | undefined {
  const response = streamResponseOf(event);
  if (response === undefined) return undefined;
  for (const kind of ["task", "message", "statusUpdate", "artifactUpdate"])
    if (isMap(response[kind])) return [kind, response[kind]];
  return undefined;
}

/** The event with its payload's fields lifted to the top (event keys win). */
export function eventView(event: JsonValue): JsonObject {
  const payload = payloadOf(event)?.[1] ?? {};
  return isMap(event) ? { ...payload, ...event } : payload;
}

/** The task state an event reports (Task snapshot or status update), if any. */
export function stateOf(event: JsonValue): string | undefined {
  const payload = payloadOf(event);
  if (payload === undefined || (payload[0] !== "task" && payload[0] !== "statusUpdate"))
    return undefined;
  const status = payload[1]["status"];
  return isMap(status) && typeof status["state"] === "string" ? status["state"] : undefined;
}

/** Checks one event against an event assertion (payload keys + generic keys on the view). */
export function checkEvent(
  event: JsonValue,
  assertion: JsonObject,
  path: string,
): AssertionFailure[] {
  const failures: AssertionFailure[] = [];
  const generic: JsonObject = {};
  for (const [key, value] of Object.entries(assertion)) {
    if (META_KEYS.has(key)) continue;
    const kind = PAYLOAD_KEYS[key];
    if (kind === undefined) {
      generic[key] = value;
      continue;
    }
    const payload = payloadOf(event);
    if (payload === undefined || payload[0] !== kind)
      failures.push({
        path: `${path}.${kind}`,
        message: `expected a ${kind} event, got ${show(event)}`,
      });
    else failures.push(...check(payload[1], value, `${path}.${kind}`));
  }
  if (Object.keys(generic).length > 0) {
    // `one_of`/`any_of` alternatives at event level may themselves name payload kinds.
    const { one_of: oneOf, any_of: anyOf, ...rest } = generic;
    for (const alternatives of [oneOf, anyOf]) {
      if (alternatives === undefined) continue;
      const list = Array.isArray(alternatives) ? alternatives : [alternatives];
      if (!list.some((alt) => (isMap(alt) ? checkEvent(event, alt, path).length === 0 : false))) {
        failures.push({ path, message: `no alternative of ${show(list)} matched ${show(event)}` });
      }
    }
    failures.push(...check(eventView(event), rest, path));
  }
  return failures;
}

/** §7.1 monotonic_state: nothing moves back to SUBMITTED, nothing leaves a terminal state (repeats allowed). */
export function checkMonotonic(events: readonly JsonValue[]): AssertionFailure[] {
  let previous: string | undefined;
  const failures: AssertionFailure[] = [];
  events.forEach((event, i) => {
    const state = stateOf(event);
    if (state === undefined) return;
    if (previous !== undefined && state !== previous) {
      if (TERMINAL.has(previous))
        failures.push({
          path: `events[${i}]`,
          message: `state ${state} after terminal ${previous}`,
        });
      else if (state === "TASK_STATE_SUBMITTED")
        failures.push({
          path: `events[${i}]`,
          message: `state regressed from ${previous} to SUBMITTED`,
        });
    }
    previous = state;
  });
  return failures;
}

/** Evaluates an `expect_stream` block against the events of a stream. */
export function checkStream(
  events: readonly JsonValue[],
  expectation: JsonObject,
): AssertionFailure[] {
  const failures: AssertionFailure[] = [];
  const min = expectation["min_count"];
  const max = expectation["max_count"];
  if (typeof min === "number" && events.length < min)
    failures.push({
      path: "events",
      message: `expected at least ${min} events, got ${events.length}`,
      expected: `>= ${min}`,
      actual: String(events.length),
    });
  if (typeof max === "number" && events.length > max)
    failures.push({
      path: "events",
      message: `expected at most ${max} events, got ${events.length}`,
      expected: `<= ${max}`,
      actual: String(events.length),
    });
  if (expectation["ordering"] !== undefined) {
    if (expectation["ordering"] !== "monotonic_state")
      throw new Error(`unknown ordering rule ${show(expectation["ordering"])}`);
    failures.push(...checkMonotonic(events));
  }
  const list = expectation["events"];
  if (Array.isArray(list)) {
    list.forEach((raw, i) => {
      if (!isMap(raw)) throw new Error(`events[${i}] must be a map`);
      const label = typeof raw["description"] === "string" ? ` (${raw["description"]})` : "";
      if (raw["match"] === "any_position") {
        if (!events.some((event) => checkEvent(event, raw, "").length === 0))
          failures.push({ path: `events[*]`, message: `no event matched assertion #${i}${label}` });
        return;
      }
      const index = typeof raw["index"] === "number" ? raw["index"] : i;
      if (index >= events.length)
        failures.push({
          path: `events[${index}]`,
          message: `no event at index ${index}${label} (${events.length} events)`,
        });
      else failures.push(...checkEvent(events[index]!, raw, `events[${index}]`));
    });
  }
  if (isMap(expectation["final_event"])) {
    if (events.length === 0)
      failures.push({ path: "final_event", message: "the stream had no events" });
    else
      failures.push(
        ...checkEvent(events[events.length - 1]!, expectation["final_event"], "final_event"),
      );
  }
  if (isMap(expectation["each_event"])) {
    const each = expectation["each_event"];
    events.forEach((event, i) => {
      failures.push(...checkEvent(event, each, `events[${i}]`));
    });
  }
  return failures;
}
