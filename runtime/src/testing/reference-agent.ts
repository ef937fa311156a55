// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The reference agent: a deterministic handler the kit serves over every binding, so that any
 * difference between the bindings' outcomes is the bindings' doing. Its behaviour is chosen by the
 * first text part of a message (`task`, `stream`, `raise:TaskNotFoundError`, …, see
 * {@link REFERENCE_COMMANDS}) or by the ids of earlier calls; it keeps tasks and push configs in
 * memory. Messages are built from the operations' descriptors (ProtoJSON through `fromJson`).
 */
import {
  fromJson,
  toJson,
  type JsonObject,
  type JsonValue,
  type Message,
} from "@bufbuild/protobuf";
import type { A2AError } from "../errors/a2a-error.js";
import type { CallContext } from "../pipeline/call-context.js";
import type { OperationDescriptor } from "../protocol/operation.js";
import {
  errorClass,
  operationsByName,
  type A2AOperationName,
  type EquivalenceServiceSpec,
} from "./service-spec.js";

/** The extension the reference agent activates when a client asks for it (echoed in the response's `A2A-Extensions`). */
export const REFERENCE_ECHO_EXTENSION = "https://protoc-gen-a2a.dev/extensions/equivalence-echo/v1";

/** The extension the kit's second server profile marks required (`requiredExtensions`). */
export const REFERENCE_REQUIRED_EXTENSION =
  "https://protoc-gen-a2a.dev/extensions/equivalence-required/v1";

/** The secret in the message of the plain Error the `crash` command throws: it must never reach a client. */
export const REFERENCE_SECRET = "reference-agent-secret-7f3a";

/**
 * What the first text part of a SendMessage / SendStreamingMessage request asks the reference agent for.
 * Anything else is answered with a Message echoing the text.
 */
export const REFERENCE_COMMANDS = {
  /** SendMessage: a Task that is created and completed (one artifact); stored. */
  task: "task",
  /** SendMessage: a Task left WORKING (cancelable, subscribable); stored. */
  working: "working",
  /** SendMessage: a Message whose metadata `callContext` echoes tenant, version, extensions, operation and principal. */
  context: "context",
  /** SendMessage / SendStreamingMessage: throws the named error of the catalog (`raise:TaskNotFoundError`). */
  raise: "raise:",
  /** SendStreamingMessage: two events, then throws the named error (`raise-late:UnsupportedOperationError`). */
  raiseLate: "raise-late:",
  /** SendMessage: throws a plain Error whose message holds {@link REFERENCE_SECRET}. */
  crash: "crash",
  /** SendStreamingMessage: the fixed sequence task, statusUpdate WORKING, two artifact chunks, statusUpdate COMPLETED. */
  stream: "stream",
  /** SendStreamingMessage: a single Message event. */
  streamMessage: "stream-message",
  /** SendStreamingMessage: a WORKING task, then waits for the call's signal to abort (`slow:<key>`, recorded under key). */
  slow: "slow:",
} as const;

/** The task id GetTask answers with a Task whose metadata `callContext` echoes the call context. */
export const REFERENCE_CONTEXT_TASK_ID = "context";

/** How long a `slow:` stream waits for its signal before it gives up and ends (it never should). */
const SLOW_STREAM_CAP_MS = 10_000;

/** A stored task: its ProtoJSON, kept in creation order. */
type TaskJson = JsonObject & { id: string; contextId: string; status: JsonObject };

/** What the agent's handler calls look like to the kit: one method per operation, by handler method name. */
export type ReferenceHandler = Record<
  string,
  (request: Message, context: CallContext<unknown>) => Promise<Message> | AsyncIterable<Message>
>;

/** The reference agent: its handler and what the scenarios observe of it. */
export interface ReferenceAgent {
  /** The handler, to serve over a binding (the binder's factories take it as the service's handler type). */
  readonly handler: ReferenceHandler;
  /** Keys of `slow:<key>` streams whose call signal fired. */
  readonly aborted: ReadonlySet<string>;
  /** Keys of `slow:<key>` streams whose handler has finished (returned or was closed). */
  readonly finished: ReadonlySet<string>;
  /** Resolves true once the `slow:<key>` stream's signal has fired, false after `ms` without it. */
  whenAborted(key: string, ms: number): Promise<boolean>;
  /** Resolves true once the `slow:<key>` stream's handler has finished, false after `ms`. */
  whenFinished(key: string, ms: number): Promise<boolean>;
}

/** Creates a reference agent for the service; every instance starts empty, and its ids count from 1. */
export function createReferenceAgent(spec: EquivalenceServiceSpec): ReferenceAgent {
  const ops = operationsByName(spec);
  const tasks = new Map<string, TaskJson>();
  const configs = new Map<string, Map<string, JsonObject>>();
  const aborted = new Set<string>();
  const finished = new Set<string>();
  const waiters = new Set<() => void>();
  const counters = new Map<string, number>();
  const nextId = (kind: string) => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${kind}-${n}`;
  };
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const waitFor = (check: () => boolean, ms: number) =>
    new Promise<boolean>((resolve) => {
      if (check()) return resolve(true);
      const done = (result: boolean) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve(result);
      };
      const waiter = () => {
        if (check()) done(true);
      };
      const timer = setTimeout(() => done(false), ms);
      waiters.add(waiter);
    });

  const out = (op: A2AOperationName, json: JsonValue) => fromJson(ops[op].output, json);
  const event = (json: JsonObject) => out("SendStreamingMessage", json);
  const raise = (name: string): A2AError => {
    const cls = errorClass(spec, name);
    return new cls(`raised by the reference agent on request (${name})`, {
      metadata: { raisedBy: "reference-agent" },
    });
  };
  const taskNotFound = (taskId: string) =>
    new (errorClass(spec, "TaskNotFoundError"))(`task ${taskId} not found`, {
      metadata: { taskId },
    });
  const storedTask = (id: string): TaskJson => {
    const task = tasks.get(id);
    if (task === undefined) throw taskNotFound(id);
    return task;
  };
  const status = (state: string, text?: string): JsonObject => ({
    state: `TASK_STATE_${state}`,
    ...(text !== undefined
      ? { message: { messageId: nextId("status-message"), role: "ROLE_AGENT", parts: [{ text }] } }
      : {}),
    timestamp: new Date().toISOString(),
  });
  const newTask = (user: JsonObject, state: string): TaskJson => {
    const task: TaskJson = {
      id: nextId("task"),
      contextId: stringField(user, "contextId") || nextId("context"),
      status: status(state),
      history: [user],
    };
    tasks.set(task.id, task);
    return task;
  };
  const agentMessage = (text: string, contextId: string, metadata?: JsonObject): JsonObject => ({
    messageId: nextId("message"),
    ...(contextId !== "" ? { contextId } : {}),
    role: "ROLE_AGENT",
    parts: [{ text }],
    ...(metadata !== undefined ? { metadata } : {}),
  });
  const userMessage = (request: Message, op: OperationDescriptor): JsonObject => {
    const json = toJson(op.input, request) as JsonObject;
    return isObject(json["message"]) ? json["message"] : {};
  };
  const terminal = (task: TaskJson) =>
    [
      "TASK_STATE_COMPLETED",
      "TASK_STATE_FAILED",
      "TASK_STATE_CANCELED",
      "TASK_STATE_REJECTED",
    ].includes(String(task.status["state"]));
  const activate = (context: CallContext<unknown>) => {
    if (context.requestedExtensions.includes(REFERENCE_ECHO_EXTENSION))
      context.activatedExtensions.add(REFERENCE_ECHO_EXTENSION);
  };
  const echo = (context: CallContext<unknown>): JsonObject => ({
    callContext: {
      operation: context.operation,
      tenant: context.tenant,
      version: context.requestedVersion,
      requestedExtensions: [...context.requestedExtensions],
      activatedExtensions: [...context.activatedExtensions],
      principal: context.principal === undefined ? null : String(context.principal),
    },
  });
  const request = (op: A2AOperationName, message: Message) =>
    toJson(ops[op].input, message) as JsonObject;

  const handler: ReferenceHandler = {};
  const define = (op: A2AOperationName, fn: ReferenceHandler[string]) => {
    handler[ops[op].localName] = fn;
  };

  define("SendMessage", async (req, context) => {
    activate(context);
    const user = userMessage(req, ops.SendMessage);
    const text = firstText(user);
    if (text.startsWith(REFERENCE_COMMANDS.raise))
      throw raise(text.slice(REFERENCE_COMMANDS.raise.length));
    if (text === REFERENCE_COMMANDS.crash)
      throw new Error(`the reference agent crashed on purpose (${REFERENCE_SECRET})`);
    if (text === REFERENCE_COMMANDS.task) {
      const task = newTask(user, "COMPLETED");
      task["artifacts"] = [
        { artifactId: nextId("artifact"), name: "result", parts: [{ text: "done" }] },
      ];
      return out("SendMessage", { task });
    }
    if (text === REFERENCE_COMMANDS.working)
      return out("SendMessage", { task: newTask(user, "WORKING") });
    const contextId = stringField(user, "contextId");
    if (text === REFERENCE_COMMANDS.context)
      return out("SendMessage", { message: agentMessage("context", contextId, echo(context)) });
    return out("SendMessage", { message: agentMessage(`echo: ${text}`, contextId) });
  });

  define("SendStreamingMessage", (req, context) => {
    activate(context);
    const user = userMessage(req, ops.SendStreamingMessage);
    const text = firstText(user);
    return (async function* () {
      if (text.startsWith(REFERENCE_COMMANDS.raise))
        throw raise(text.slice(REFERENCE_COMMANDS.raise.length));
      if (text === REFERENCE_COMMANDS.streamMessage) {
        yield event({ message: agentMessage("streamed message", stringField(user, "contextId")) });
        return;
      }
      if (text.startsWith(REFERENCE_COMMANDS.slow)) {
        const key = text.slice(REFERENCE_COMMANDS.slow.length);
        try {
          yield event({ task: newTask(user, "WORKING") });
          const signal = context.signal;
          const fired = await new Promise<boolean>((resolve) => {
            if (signal.aborted) return resolve(true);
            const timer = setTimeout(() => resolve(false), SLOW_STREAM_CAP_MS);
            signal.addEventListener(
              "abort",
              () => {
                clearTimeout(timer);
                resolve(true);
              },
              { once: true },
            );
          });
          if (fired) {
            aborted.add(key);
            notify();
          }
        } finally {
          finished.add(key);
          notify();
        }
        return;
      }
      const task = newTask(user, "SUBMITTED");
      const { id: taskId, contextId } = task;
      yield event({ task });
      task.status = status("WORKING", "working on it");
      yield event({ statusUpdate: { taskId, contextId, status: task.status } });
      if (text.startsWith(REFERENCE_COMMANDS.raiseLate))
        throw raise(text.slice(REFERENCE_COMMANDS.raiseLate.length));
      const artifactId = nextId("artifact");
      yield event({
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId, name: "result", parts: [{ text: "chunk 1" }] },
          lastChunk: false,
        },
      });
      yield event({
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId, parts: [{ text: "chunk 2" }] },
          append: true,
          lastChunk: true,
        },
      });
      task["artifacts"] = [
        { artifactId, name: "result", parts: [{ text: "chunk 1" }, { text: "chunk 2" }] },
      ];
      task.status = status("COMPLETED");
      yield event({ statusUpdate: { taskId, contextId, status: task.status } });
    })();
  });

  define("GetTask", async (req, context) => {
    activate(context);
    const { id, historyLength } = request("GetTask", req);
    if (id === REFERENCE_CONTEXT_TASK_ID)
      return out("GetTask", {
        id,
        contextId: "context",
        status: { state: "TASK_STATE_COMPLETED" },
        metadata: echo(context),
      });
    return out(
      "GetTask",
      view(
        storedTask(String(id)),
        typeof historyLength === "number" ? historyLength : undefined,
        true,
      ),
    );
  });

  define("ListTasks", async (req, context) => {
    activate(context);
    const r = request("ListTasks", req);
    const contextId = stringField(r, "contextId");
    const state = stringField(r, "status");
    const matching = [...tasks.values()].filter(
      (t) =>
        (contextId === "" || t.contextId === contextId) &&
        (state === "" || t.status["state"] === state),
    );
    const pageSize = typeof r["pageSize"] === "number" && r["pageSize"] > 0 ? r["pageSize"] : 50;
    const offset = /^\d+$/.test(stringField(r, "pageToken")) ? Number(r["pageToken"]) : 0;
    const page = matching.slice(offset, offset + pageSize);
    const next = offset + pageSize < matching.length ? String(offset + pageSize) : "";
    const historyLength = typeof r["historyLength"] === "number" ? r["historyLength"] : undefined;
    return out("ListTasks", {
      tasks: page.map((t) => view(t, historyLength, r["includeArtifacts"] === true)),
      nextPageToken: next,
      pageSize,
      totalSize: matching.length,
    });
  });

  define("CancelTask", async (req, context) => {
    activate(context);
    const task = storedTask(stringField(request("CancelTask", req), "id"));
    if (terminal(task)) {
      throw new (errorClass(spec, "TaskNotCancelableError"))(
        `task ${task.id} is ${String(task.status["state"])}`,
        { metadata: { taskId: task.id } },
      );
    }
    task.status = status("CANCELED");
    return out("CancelTask", task);
  });

  define("SubscribeToTask", (req, context) => {
    activate(context);
    const id = stringField(request("SubscribeToTask", req), "id");
    return (async function* () {
      const task = storedTask(id);
      if (terminal(task)) {
        throw new (errorClass(spec, "UnsupportedOperationError"))(
          `task ${id} is in a terminal state and cannot be subscribed to`,
          { metadata: { taskId: id } },
        );
      }
      const { contextId } = task;
      yield event({ task });
      task.status = status("WORKING", "resumed");
      yield event({ statusUpdate: { taskId: id, contextId, status: task.status } });
      const artifactId = nextId("artifact");
      task["artifacts"] = [{ artifactId, parts: [{ text: "from the subscription" }] }];
      yield event({
        artifactUpdate: {
          taskId: id,
          contextId,
          artifact: { artifactId, parts: [{ text: "from the subscription" }] },
          lastChunk: true,
        },
      });
      task.status = status("COMPLETED");
      yield event({ statusUpdate: { taskId: id, contextId, status: task.status } });
    })();
  });

  define("CreateTaskPushNotificationConfig", async (req, context) => {
    activate(context);
    const r = request("CreateTaskPushNotificationConfig", req);
    const taskId = stringField(r, "taskId");
    storedTask(taskId);
    const config: JsonObject = { ...r, id: stringField(r, "id") || nextId("config"), taskId };
    delete config["tenant"];
    const forTask = configs.get(taskId) ?? new Map<string, JsonObject>();
    forTask.set(String(config["id"]), config);
    configs.set(taskId, forTask);
    return out("CreateTaskPushNotificationConfig", config);
  });

  const storedConfig = (taskId: string, id: string): JsonObject => {
    const config = configs.get(taskId)?.get(id);
    if (config === undefined) {
      throw new (errorClass(spec, "TaskNotFoundError"))(
        `push notification config ${id} of task ${taskId} not found`,
        { metadata: { taskId, configId: id } },
      );
    }
    return config;
  };

  define("GetTaskPushNotificationConfig", async (req, context) => {
    activate(context);
    const r = request("GetTaskPushNotificationConfig", req);
    return out(
      "GetTaskPushNotificationConfig",
      storedConfig(stringField(r, "taskId"), stringField(r, "id")),
    );
  });

  define("ListTaskPushNotificationConfigs", async (req, context) => {
    activate(context);
    const taskId = stringField(request("ListTaskPushNotificationConfigs", req), "taskId");
    storedTask(taskId);
    return out("ListTaskPushNotificationConfigs", {
      configs: [...(configs.get(taskId)?.values() ?? [])],
    });
  });

  define("DeleteTaskPushNotificationConfig", async (req, context) => {
    activate(context);
    const r = request("DeleteTaskPushNotificationConfig", req);
    const taskId = stringField(r, "taskId");
    const id = stringField(r, "id");
    storedConfig(taskId, id);
    configs.get(taskId)?.delete(id);
    return out("DeleteTaskPushNotificationConfig", {});
  });

  define("GetExtendedAgentCard", async (_req, context) => {
    activate(context);
    return out("GetExtendedAgentCard", REFERENCE_AGENT_CARD);
  });

  return {
    handler,
    aborted,
    finished,
    whenAborted: (key, ms) => waitFor(() => aborted.has(key), ms),
    whenFinished: (key, ms) => waitFor(() => finished.has(key), ms),
  };
}

/** The extended Agent Card the reference agent returns (ProtoJSON). */
const REFERENCE_AGENT_CARD: JsonObject = {
  name: "Reference agent",
  description: "The binding-equivalence kit's reference agent",
  supportedInterfaces: [
    { url: "http://127.0.0.1/reference", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
  ],
  version: "1.0.0",
  capabilities: {
    streaming: true,
    pushNotifications: true,
    extendedAgentCard: true,
    extensions: [
      { uri: REFERENCE_ECHO_EXTENSION, description: "Echoes its activation", required: false },
    ],
  },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [
    {
      id: "reference",
      name: "Reference",
      description: "Answers the equivalence scenarios",
      tags: ["testing"],
    },
  ],
};

/** A task as GetTask / ListTasks return it: the last `historyLength` history entries, artifacts only when asked. */
function view(
  task: TaskJson,
  historyLength: number | undefined,
  withArtifacts: boolean,
): JsonObject {
  const copy: JsonObject = { ...task };
  const history = Array.isArray(task["history"]) ? task["history"] : [];
  if (historyLength !== undefined)
    copy["history"] = historyLength === 0 ? [] : history.slice(-historyLength);
  if (!withArtifacts) delete copy["artifacts"];
  return copy;
}

/** The text of the first part of a message (ProtoJSON), "" when it has none. */
function firstText(message: JsonObject): string {
  const parts = message["parts"];
  const first = Array.isArray(parts) ? parts[0] : undefined;
  return isObject(first) && typeof first["text"] === "string" ? first["text"] : "";
}

function stringField(json: JsonObject, name: string): string {
  const value = json[name];
  return typeof value === "string" ? value : "";
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
