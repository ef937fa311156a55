// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * How one event changes a task. The task is a copy-on-write copy (see
 * `TaskFactory.copyTask`): fields and array elements are replaced, never mutated in
 * place. A status replaces the status and, when it carries a message, appends that
 * message to the history; an artifact replaces the artifact of the same id or is added;
 * an `append` chunk extends (a copy of) the artifact of its id.
 */
import type { ArtifactShape, MessageShape, TaskShape, TaskStatusShape } from "./shapes.js";

/** Sets the status; an agent status message also goes to the history. */
export function applyStatus(task: TaskShape, status: TaskStatusShape): void {
  task.status = status;
  if (status.message !== undefined) task.history.push(status.message);
}

/** Appends a user message to the history. */
export function appendHistory(task: TaskShape, message: MessageShape): void {
  task.history.push(message);
}

/**
 * Adds or replaces an artifact, or (append) replaces the one with the same id by a copy
 * (`copy`, a deep copy) whose parts get the chunk's parts, non-empty name/description and metadata keys of the chunk win,
 * extensions are merged. Returns false when `append` names an artifact the task lacks.
 */
export function applyArtifact(
  task: TaskShape,
  artifact: ArtifactShape,
  append: boolean,
  copy: (artifact: ArtifactShape) => ArtifactShape,
): boolean {
  const index = task.artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
  if (!append) {
    if (index >= 0) task.artifacts[index] = artifact;
    else task.artifacts.push(artifact);
    return true;
  }
  const stored = task.artifacts[index];
  if (stored === undefined) return false;
  const existing = copy(stored);
  task.artifacts[index] = existing;
  existing.parts.push(...artifact.parts);
  if (artifact.name !== "") existing.name = artifact.name;
  if (artifact.description !== "") existing.description = artifact.description;
  if (artifact.metadata !== undefined)
    existing.metadata = { ...existing.metadata, ...artifact.metadata };
  for (const uri of artifact.extensions)
    if (!existing.extensions.includes(uri)) existing.extensions.push(uri);
  return true;
}
