// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a dropped A2A stream's last event says about resuming it (stream-resume.ts): a stream
 * whose caller already got its last event (a Message, a Task or status update in a terminal
 * state) is complete, and resuming it would only get UnsupportedOperationError for the terminal
 * task; a SendStreamingMessage stream that got to an interrupted state (INPUT_REQUIRED,
 * AUTH_REQUIRED) is at the end of its turn, where the task runtime closes it, and resuming it with
 * SubscribeToTask (which stays open across turns) would not end where the call would have.
 *
 * Read through the event's schema (`StreamResponse` of a2a.proto: the `payload` oneof with `task`,
 * `message`, `status_update`; `TaskState` values by name), so nothing depends on enum numbers.
 */
import type { DescEnum, DescMessage } from "@bufbuild/protobuf";

/** What a drop right after an event calls for: resuming, ending the stream normally, failing with the drop's error. */
export type AfterDrop = "resume" | "end" | "fail";

const TERMINAL = [
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
];
const INTERRUPTED = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];

interface StateNumbers {
  readonly terminal: ReadonlySet<number>;
  readonly interrupted: ReadonlySet<number>;
}

const cache = new WeakMap<DescMessage, StateNumbers | null>();

/** The terminal and interrupted `TaskState` numbers of a `StreamResponse`-shaped schema; undefined for another schema. */
function stateNumbers(output: DescMessage): StateNumbers | undefined {
  let numbers = cache.get(output);
  if (numbers === undefined) {
    const states: DescEnum | undefined =
      output.field["task"]?.message?.field["status"]?.message?.field["state"]?.enum;
    const values = states?.values ?? [];
    const pick = (names: readonly string[]) =>
      new Set(values.filter((v) => names.includes(v.name)).map((v) => v.number));
    numbers =
      states === undefined ? null : { terminal: pick(TERMINAL), interrupted: pick(INTERRUPTED) };
    cache.set(output, numbers);
  }
  return numbers ?? undefined;
}

/** The parts of a `StreamResponse` read here, as protobuf-es shapes it (a plain object). */
interface StreamEventShape {
  readonly payload?:
    | { readonly case?: string | undefined; readonly value?: { readonly status?: TaskStatusShape } }
    | undefined;
}

/** The part of a `TaskStatus` read here. */
interface TaskStatusShape {
  readonly state?: number;
}

/**
 * What a drop of a stream of `operation` (SendStreamingMessage or SubscribeToTask) right after `event`
 * (of schema `output`) calls for: "end" after a terminal state or a SendStreamingMessage's Message,
 * "fail" after an interrupted state of SendStreamingMessage, else "resume".
 */
export function afterDrop(operation: string, output: DescMessage, event: unknown): AfterDrop {
  const numbers = stateNumbers(output);
  if (numbers === undefined) return "resume";
  const payload = (event as StreamEventShape).payload;
  if (payload?.case === "message") return operation === "SendStreamingMessage" ? "end" : "resume";
  if (payload?.case !== "task" && payload?.case !== "statusUpdate") return "resume";
  const state = payload.value?.status?.state;
  if (state === undefined) return "resume";
  if (numbers.terminal.has(state)) return "end";
  if (operation === "SendStreamingMessage" && numbers.interrupted.has(state)) return "fail";
  return "resume";
}
