// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Errors of the task runtime: the A2A errors it answers with (constructed by the
 * generated error classes, which the binder hands in), and its own two error classes.
 */
import type { A2AErrorOptions } from "../errors/a2a-error.js";

/** Builds one generated A2A error, e.g. `(m, o) => new TaskNotFoundError(m, o)`. */
export type A2AErrorFactory = (message?: string, options?: A2AErrorOptions) => Error;

/** The generated A2A errors the task runtime raises. */
export interface TaskRuntimeErrors {
  /** Unknown task, or one of another principal or tenant (§3.4.2, §13.1); missing push config (§3.1.8). */
  readonly TaskNotFound: A2AErrorFactory;
  /** CancelTask on a task in a terminal state other than CANCELED (§3.1.5). */
  readonly TaskNotCancelable: A2AErrorFactory;
  /** Message to or subscription on a terminal task; streaming without the capability; extended card not declared (§3.3.4). */
  readonly UnsupportedOperation: A2AErrorFactory;
  /** Push config operations without the capability (§3.3.4). */
  readonly PushNotificationNotSupported: A2AErrorFactory;
  /** GetExtendedAgentCard declared but no card configured (§3.3.4). */
  readonly ExtendedAgentCardNotConfigured: A2AErrorFactory;
  /** Bad page token, page size or history length; contextId that contradicts the task (§3.4.3). */
  readonly InvalidParams: A2AErrorFactory;
  /** The executor produced nothing for a new conversation turn. */
  readonly Internal: A2AErrorFactory;
  /** GetExtendedAgentCard without an authenticated principal (§3.1.11, §13.3). */
  readonly Unauthenticated: A2AErrorFactory;
}

/** What an executor did wrong, as {@link ExecutorMisuseError.code}. */
export type ExecutorMisuseCode =
  /** A second stateless Message. */
  | "second-message"
  /** A task event after a stateless Message. */
  | "event-after-message"
  /** A stateless Message after task events, or for a message that continues a task. */
  | "message-for-task"
  /** Any event after the task reached a terminal state. */
  | "event-after-terminal"
  /** Any event after `execute()` settled. */
  | "event-after-end"
  /** An event, message or artifact naming another task or context. */
  | "wrong-task"
  /** An artifact or message that breaks the data model (no parts, append to an unknown or finished artifact, …). */
  | "invalid-event"
  /** Any event after the task was canceled through CancelTask. */
  | "task-canceled";

/**
 * Thrown synchronously by the emitter when an executor breaks the event protocol,
 * before anything is stored: the task is never corrupted by a misused emitter.
 */
export class ExecutorMisuseError extends Error {
  override name = "ExecutorMisuseError";

  /** Which rule was broken. */
  readonly code: ExecutorMisuseCode;

  /** Builds the error; `code` says which rule was broken. */
  constructor(code: ExecutorMisuseCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Thrown by a {@link TaskStore} for a page token it did not issue (or issued for another query); answered with InvalidParams. */
export class InvalidPageTokenError extends Error {
  override name = "InvalidPageTokenError";
}

/** Which quota of a bounded task store a refused save would have broken. */
export type TaskStoreLimit =
  /** Tasks in the store (`InMemoryTaskStore` `maxTasks`). */
  | "maxTasks"
  /** Bytes of all tasks and push configs in the store. */
  | "maxBytes"
  /** Bytes of the tasks and push configs of one owner (tenant and owner key). */
  | "maxBytesPerOwner";

/**
 * Thrown by a bounded {@link TaskStore} (./task-store.ts) when a save needs room it cannot make:
 * every task that could be dropped is not terminal. Nothing was stored. The task runtime answers
 * the client whose request needed the room (a per-owner quota as UnsupportedOperation naming the
 * limit, a full store as InternalError); an executor's event gets it thrown from its emit.
 */
export class TaskStoreFullError extends Error {
  override name = "TaskStoreFullError";

  /** Which quota. */
  readonly limit: TaskStoreLimit;
  /** Its value. */
  readonly maximum: number;

  /** Builds the error: `message` says what is full (no task content). */
  constructor(message: string, limit: TaskStoreLimit = "maxTasks", maximum = 0) {
    super(message);
    this.limit = limit;
    this.maximum = maximum;
  }
}
