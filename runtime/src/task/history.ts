// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What a response shows of a task: `historyLength` (spec §3.2.4) and ListTasks'
 * `includeArtifacts` (§3.1.4). Both act on a copy; an emptied repeated field is
 * omitted by ProtoJSON, which is what the spec asks for ("history SHOULD be omitted",
 * "artifacts MUST be omitted entirely").
 */
import type { TaskShape } from "./shapes.js";

/** How much of a task a response shows. */
export interface TaskView {
  /** Unset = the whole history; 0 = none; N = the N most recent messages. */
  readonly historyLength?: number | undefined;
  /** false = no artifacts (ListTasks default); unset or true = all of them. */
  readonly includeArtifacts?: boolean | undefined;
}

/** The problem with a `historyLength` value, or undefined when it is acceptable (unset or ≥ 0). */
export function historyLengthProblem(historyLength: number | undefined): string | undefined {
  if (historyLength === undefined) return undefined;
  if (!Number.isInteger(historyLength) || historyLength < 0)
    return `historyLength must be zero or positive, got ${historyLength}`;
  return undefined;
}

/** Trims `task` (a copy the caller owns) in place to the view, and returns it. */
export function applyView(task: TaskShape, view: TaskView): TaskShape {
  const { historyLength, includeArtifacts } = view;
  if (historyLength !== undefined && task.history.length > historyLength) {
    task.history =
      historyLength === 0 ? [] : task.history.slice(task.history.length - historyLength);
  }
  if (includeArtifacts === false) task.artifacts = [];
  return task;
}

/** Whether {@link applyView} would change `task` (else a caller that only reads may have the task itself). */
export function viewTrims(task: TaskShape, view: TaskView): boolean {
  const { historyLength, includeArtifacts } = view;
  return (
    (historyLength !== undefined && task.history.length > historyLength) ||
    (includeArtifacts === false && task.artifacts.length > 0)
  );
}
