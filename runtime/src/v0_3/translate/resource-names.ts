// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The resource names of the 0.3 proto (`tasks/{id}`, `tasks/{id}/pushNotificationConfigs/{configId}`) ⇄ the plain
 * ids of 1.0. Ids must be non-empty and contain no `/`.
 */
import { V03TranslationError } from "./translation-error.js";

/** Checks one id segment. */
function checkId(id: string, path: string, what: string): string {
  if (id === "" || id.includes("/"))
    throw new V03TranslationError(
      path,
      `${what} must be non-empty and contain no "/", got ${JSON.stringify(id)}`,
    );
  return id;
}

/** `id` → `tasks/{id}`. @throws V03TranslationError on an empty id or one containing `/`. */
export function taskResourceName(taskId: string, path = "id"): string {
  return `tasks/${checkId(taskId, path, "a task id")}`;
}

/** `tasks/{id}` → `id`. @throws V03TranslationError for any other shape. */
export function parseTaskResourceName(name: string, path = "name"): string {
  const m = /^tasks\/([^/]+)$/.exec(name);
  if (m === null)
    throw new V03TranslationError(path, `must be "tasks/{id}", got ${JSON.stringify(name)}`);
  return m[1] as string;
}

/** `{taskId, id}` → `tasks/{taskId}/pushNotificationConfigs/{id}`. @throws V03TranslationError on a bad id. */
export function pushConfigResourceName(taskId: string, configId: string, path = "name"): string {
  return `tasks/${checkId(taskId, path, "a task id")}/pushNotificationConfigs/${checkId(configId, path, "a config id")}`;
}

/**
 * `tasks/{taskId}/pushNotificationConfigs/{id}` → `{taskId, id}`. `allowTaskOnly` also accepts `tasks/{taskId}`
 * (and a trailing `/pushNotificationConfigs[/]`), giving `id` `undefined`.
 * @throws V03TranslationError for any other shape.
 */
export function parsePushConfigResourceName(
  name: string,
  path = "name",
  allowTaskOnly = false,
): { taskId: string; id: string | undefined } {
  const full = /^tasks\/([^/]+)\/pushNotificationConfigs\/([^/]+)$/.exec(name);
  if (full !== null) return { taskId: full[1] as string, id: full[2] as string };
  if (allowTaskOnly) {
    const task = /^tasks\/([^/]+)(?:\/pushNotificationConfigs\/?)?$/.exec(name);
    if (task !== null) return { taskId: task[1] as string, id: undefined };
  }
  throw new V03TranslationError(
    path,
    `must be "tasks/{id}/pushNotificationConfigs/{configId}", got ${JSON.stringify(name)}`,
  );
}

/**
 * The `parent` of a 0.3 push-config create or list request → the task id. Accepts `tasks/{id}` (the field comment),
 * `task/{id}` (the 0.3 proto's HTTP rule spells `task/*`), each optionally followed by `/pushNotificationConfigs`.
 * @throws V03TranslationError for any other shape.
 */
export function parsePushConfigParent(parent: string, path = "parent"): string {
  const m = /^tasks?\/([^/]+)(?:\/pushNotificationConfigs)?\/?$/.exec(parent);
  if (m === null)
    throw new V03TranslationError(path, `must be "tasks/{id}", got ${JSON.stringify(parent)}`);
  return m[1] as string;
}
