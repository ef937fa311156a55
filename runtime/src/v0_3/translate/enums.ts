// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Task states and roles across the three shapes: 1.0 ProtoJSON (`TASK_STATE_CANCELED`, `ROLE_USER`), the 0.3
 * JSON-RPC wire (`canceled`, `user`) and 0.3 ProtoJSON (`TASK_STATE_CANCELLED` with a double L, `ROLE_USER`).
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { V03TranslationError } from "./translation-error.js";

/** A 0.3 JSON-RPC task state (the `TaskState` enum of the 0.3 JSON Schema). */
export type V03TaskState =
  | "submitted"
  | "working"
  | "input-required"
  | "completed"
  | "canceled"
  | "failed"
  | "rejected"
  | "auth-required"
  | "unknown";

/** 1.0 enum names by number (`lf.a2a.v1.TaskState`). */
const V1_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;

/** 0.3 JSON-RPC names by the same number; 0.3 `unknown` stands for 1.0 `TASK_STATE_UNSPECIFIED`. */
const V03_STATES: readonly V03TaskState[] = [
  "unknown",
  "submitted",
  "working",
  "completed",
  "failed",
  "canceled",
  "input-required",
  "rejected",
  "auth-required",
];

/** 0.3 proto names by the same number (`a2a.v1.TaskState`, `CANCELLED` with a double L). */
const V03_PROTO_STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELLED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
] as const;

/** Index of a ProtoJSON enum value given by name or number; absent reads as 0 (UNSPECIFIED). */
function protoEnumIndex(
  value: JsonValue | undefined,
  names: readonly string[],
  path: string,
): number {
  if (value === undefined || value === null) return 0;
  const i = typeof value === "number" ? value : names.indexOf(value as string);
  if (!Number.isInteger(i) || i < 0 || i >= names.length) {
    throw new V03TranslationError(
      path,
      `must be one of ${names.join(", ")}, got ${JSON.stringify(value)}`,
    );
  }
  return i;
}

/**
 * 0.3 JSON-RPC state → 1.0 enum name. `unknown` becomes `TASK_STATE_UNSPECIFIED` (which 1.0 ProtoJSON omits).
 * @throws V03TranslationError for anything not in the 0.3 `TaskState` enum.
 */
export function taskStateFromV03(state: JsonValue | undefined, path = "state"): string {
  const i = V03_STATES.indexOf(state as V03TaskState);
  if (i < 0)
    throw new V03TranslationError(
      path,
      `must be one of ${V03_STATES.join(", ")}, got ${JSON.stringify(state)}`,
    );
  return V1_STATES[i] as string;
}

/**
 * 1.0 state (enum name or number; absent = UNSPECIFIED) → 0.3 JSON-RPC state; UNSPECIFIED becomes `unknown`.
 * @throws V03TranslationError for an unknown enum value.
 */
export function taskStateToV03(state: JsonValue | undefined, path = "state"): V03TaskState {
  return V03_STATES[protoEnumIndex(state, V1_STATES, path)] as V03TaskState;
}

/** 0.3 proto state (name or number) → 1.0 enum name (`TASK_STATE_CANCELLED` → `TASK_STATE_CANCELED`). */
export function taskStateFromV03Proto(state: JsonValue | undefined, path = "state"): string {
  return V1_STATES[protoEnumIndex(state, V03_PROTO_STATES, path)] as string;
}

/** 1.0 state (name or number) → 0.3 proto enum name (`TASK_STATE_CANCELED` → `TASK_STATE_CANCELLED`). */
export function taskStateToV03Proto(state: JsonValue | undefined, path = "state"): string {
  return V03_PROTO_STATES[protoEnumIndex(state, V1_STATES, path)] as string;
}

/** The 1.0 states after which a task never changes again. */
const TERMINAL = new Set([
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_REJECTED",
]);
/** The 1.0 states in which a task waits for the client (a 1.0 stream closes on them). */
const INTERRUPTED = new Set(["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"]);

/**
 * True when a status update in this 1.0 state is the last event of a stream: the state is terminal
 * (completed, failed, canceled, rejected) or interrupted (input-required, auth-required). A 1.0 server closes the
 * stream there; a 0.3 peer expects `final: true` instead.
 */
export function isFinalV1State(state: JsonValue | undefined): boolean {
  const name = V1_STATES[protoEnumIndex(state, V1_STATES, "state")] as string;
  return TERMINAL.has(name) || INTERRUPTED.has(name);
}

const V1_ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] as const;

/** 0.3 JSON-RPC role (`user` | `agent`) → 1.0 enum name; anything else throws V03TranslationError. */
export function roleFromV03(role: JsonValue | undefined, path = "role"): string {
  if (role === "user") return "ROLE_USER";
  if (role === "agent") return "ROLE_AGENT";
  throw new V03TranslationError(
    path,
    `must be "user" or "agent", got ${JSON.stringify(role ?? null)}`,
  );
}

/** 1.0 role (name or number) → 0.3 JSON-RPC role; `ROLE_UNSPECIFIED` / absent throws (0.3 requires a role). */
export function roleToV03(role: JsonValue | undefined, path = "role"): "user" | "agent" {
  const i = protoEnumIndex(role, V1_ROLES, path);
  if (i === 0) throw new V03TranslationError(path, "is required (ROLE_USER or ROLE_AGENT)");
  return i === 1 ? "user" : "agent";
}

/** A role between 1.0 and 0.3 ProtoJSON (same enum names); UNSPECIFIED / absent throws. */
export function roleProto(role: JsonValue | undefined, path = "role"): string {
  const i = protoEnumIndex(role, V1_ROLES, path);
  if (i === 0) throw new V03TranslationError(path, "is required (ROLE_USER or ROLE_AGENT)");
  return V1_ROLES[i] as string;
}
