/**
 * Test helpers for the task runtime, over the GENERATED binder (generated-example's
 * a2a_a2a_task_handler.ts): the tests drive exactly what an agent author gets.
 */
import { create } from "@bufbuild/protobuf";
import { createCallContext, type CallContext } from "@protoc-gen-a2a/runtime";
import type {
  Message,
  SendMessageConfiguration,
  StreamResponse,
  Task,
} from "../../generated-example/gen/a2a_pb.js";
import {
  MessageSchema,
  Role,
  SendMessageRequestSchema,
  TaskState,
} from "../../generated-example/gen/a2a_pb.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceSqliteTaskStore } from "../../generated-example/gen/a2a_a2a_sqlite_task_store.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
  type A2AServiceRequestContext,
  type A2AServiceTaskEmitter,
  type A2AServiceTaskSchemas,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import type { TaskHandlerIntrospection, TaskHandlerOptions } from "@protoc-gen-a2a/runtime/task";

/** The generated binder's types, under the names the task tests use. */
export type A2ASchemas = A2AServiceTaskSchemas;
/** An executor of generated-example's messages. */
export type A2AExecutor<P = unknown> = A2AServiceExecutor<P>;
/** Its request context. */
export type A2ARequestContext<P = unknown> = A2AServiceRequestContext<P>;
/** Its emitter. */
export type A2AEmitter = A2AServiceTaskEmitter;

/** The PostgreSQL test stores, loaded only for the vitest project "postgres-store". */
const postgres =
  process.env["A2A_TEST_TASK_STORE"] === "postgres"
    ? await import("./postgres-task-store.js")
    : undefined;

/**
 * The handler of generated-example's service, driven by `options.executor`: the generated binder
 * itself. Without an explicit store it uses the in-memory store, or a fresh SQLite store when
 * A2A_TEST_TASK_STORE=sqlite, or a fresh PostgreSQL store (an empty schema of its own, closed when
 * the test ends: ./postgres-task-store.ts) when A2A_TEST_TASK_STORE=postgres (the vitest projects
 * "sqlite-store" and "postgres-store" rerun the task suites that way).
 */
export function createA2ATaskHandler<P = unknown>(
  options: TaskHandlerOptions<P, A2ASchemas>,
): A2AServiceHandler<P> & TaskHandlerIntrospection {
  if (options.store === undefined && process.env["A2A_TEST_TASK_STORE"] === "sqlite") {
    return createA2AServiceTaskHandler({
      ...options,
      store: createA2AServiceSqliteTaskStore(":memory:"),
    });
  }
  if (options.store === undefined && postgres !== undefined) {
    return createA2AServiceTaskHandler({ ...options, store: postgres.postgresTaskStore() });
  }
  return createA2AServiceTaskHandler(options);
}

// ---------------------------------------------------------------------------------------------
// Test helpers.

/** A call context as a binding would build it. */
export function callOf<P = unknown>(
  operation: string,
  init: { principal?: P; tenant?: string; signal?: AbortSignal } = {},
): CallContext<P> {
  return createCallContext<P>({ operation, binding: "JSONRPC", ...init });
}

let messageCounter = 0;

/** A one-part user text message. */
export function userMessage(
  text: string,
  ids: { taskId?: string; contextId?: string; referenceTaskIds?: string[] } = {},
): Message {
  return create(MessageSchema, {
    messageId: `user-${++messageCounter}`,
    role: Role.USER,
    parts: [{ content: { case: "text", value: text } }],
    ...ids,
  });
}

/** A SendMessageRequest init. */
export function sendRequest(
  text: string,
  ids: { taskId?: string; contextId?: string; referenceTaskIds?: string[] } = {},
  configuration?: Partial<Omit<SendMessageConfiguration, "$typeName">>,
) {
  return create(SendMessageRequestSchema, {
    message: userMessage(text, ids),
    ...(configuration === undefined ? {} : { configuration }),
  });
}

/** The text of the first part of a message (or ""). */
export function textOf(message: Message | undefined): string {
  const content = message?.parts[0]?.content;
  return content?.case === "text" ? content.value : "";
}

/** Reads a stream to its end. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** A promise with its resolver, to hold an executor at a point. */
export class Gate {
  readonly promise: Promise<void>;
  open!: () => void;
  constructor() {
    this.promise = new Promise((resolve) => {
      this.open = resolve;
    });
  }
}

/** Lets queued work (promise jobs and I/O callbacks) run, `rounds` times. */
export async function drain(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits, without a clock, until `check` holds (bounded number of event-loop turns). On the PostgreSQL
 * store (A2A_TEST_TASK_STORE=postgres), whose every step is a round trip to the server, it then waits
 * on a clock too, up to 10 s.
 */
export async function until(check: () => boolean, rounds = 10_000): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (process.env["A2A_TEST_TASK_STORE"] === "postgres") {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      if (check()) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  throw new Error("condition not reached");
}

/** The task of a SendMessage response (throws for a Message). */
export function taskOf(response: {
  payload:
    | { case: "task"; value: Task }
    | { case: "message"; value: Message }
    | { case: undefined; value?: undefined };
}): Task {
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  return response.payload.value;
}

/** The message of a SendMessage response (throws for a Task). */
export function messageOf(response: {
  payload:
    | { case: "task"; value: Task }
    | { case: "message"; value: Message }
    | { case: undefined; value?: undefined };
}): Message {
  if (response.payload.case !== "message")
    throw new Error(`expected a message, got ${response.payload.case}`);
  return response.payload.value;
}

/** A compact description of a stream event, e.g. "status:WORKING:text of its message". */
export function describeEvent(event: StreamResponse): string {
  const p = event.payload;
  switch (p.case) {
    case "task":
      return `task:${TaskState[p.value.status?.state ?? 0]}`;
    case "message":
      return `message:${textOf(p.value)}`;
    case "statusUpdate":
      return `status:${TaskState[p.value.status?.state ?? 0]}:${textOf(p.value.status?.message)}`;
    case "artifactUpdate":
      return `artifact:${p.value.artifact?.artifactId ?? ""}`;
    default:
      return "none";
  }
}
