import { create } from "@bufbuild/protobuf";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import {
  AgentCardSchema,
  ListTaskPushNotificationConfigsResponseSchema,
  ListTasksResponseSchema,
  MessageSchema,
  Role,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Message,
  type Task,
  type TaskPushNotificationConfig,
} from "../../generated-example/gen/a2a_pb.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  TaskNotFoundError,
  UnsupportedOperationError,
} from "../../generated-example/gen/a2a_a2a_errors.js";
import type { CallContext } from "@protoc-gen-a2a/runtime";

/** An extension the test agent activates when asked for it. */
export const ECHO_EXTENSION = "https://example.com/ext/echo/v1";

/**
 * A small handler for the binding tests: behaviour chosen by the text of the first part.
 * "task" → a Task; "fail" → TaskNotFoundError; "crash" → a plain Error with a secret;
 * anything else → the text echoed back in a Message.
 */
export class TestAgent implements A2AServiceHandler<{ user: string }> {
  readonly contexts: CallContext<{ user: string }>[] = [];
  readonly configs = new Map<string, TaskPushNotificationConfig>();
  /** Set when a streaming handler saw its signal abort, and when its generator finished. */
  streamAborted = false;
  streamFinally = false;

  #record(context: CallContext<{ user: string }>): void {
    this.contexts.push(context);
    if (context.requestedExtensions.includes(ECHO_EXTENSION))
      context.activatedExtensions.add(ECHO_EXTENSION);
  }

  async sendMessage(request: { message?: Message }, context: CallContext<{ user: string }>) {
    this.#record(context);
    const text = firstText(request.message);
    if (text === "fail")
      throw new TaskNotFoundError("Task nope not found", { metadata: { taskId: "nope" } });
    if (text === "crash") throw new Error("the database password is hunter2");
    if (text === "task")
      return create(SendMessageResponseSchema, {
        payload: { case: "task", value: task("t-1", TaskState.COMPLETED) },
      });
    return create(SendMessageResponseSchema, {
      payload: { case: "message", value: reply(text, request.message?.contextId ?? "") },
    });
  }

  async *sendStreamingMessage(
    request: { message?: Message },
    context: CallContext<{ user: string }>,
  ) {
    this.#record(context);
    const text = firstText(request.message);
    try {
      if (text === "fail-early")
        throw new UnsupportedOperationError("streaming is off for this text");
      if (text === "slow") {
        yield create(StreamResponseSchema, {
          payload: { case: "task", value: task("t-slow", TaskState.WORKING) },
        });
        while (!context.signal.aborted) await new Promise((r) => setTimeout(r, 10));
        this.streamAborted = true;
        return;
      }
      const count = /^count (\d+)$/.exec(text)?.[1];
      if (count !== undefined) {
        for (let i = 0; i < Number(count); i++) {
          yield create(StreamResponseSchema, {
            payload: { case: "message", value: reply(`event ${i}`, "") },
          });
        }
        return;
      }
      yield create(StreamResponseSchema, {
        payload: { case: "task", value: task("t-2", TaskState.SUBMITTED) },
      });
      yield create(StreamResponseSchema, {
        payload: {
          case: "statusUpdate",
          value: { taskId: "t-2", contextId: "c-1", status: { state: TaskState.WORKING } },
        },
      });
      if (text === "fail-late") throw new Error("exploded with secret details");
      yield create(StreamResponseSchema, {
        payload: {
          case: "artifactUpdate",
          value: {
            taskId: "t-2",
            contextId: "c-1",
            artifact: { artifactId: "a-1", parts: [{ content: { case: "text", value: text } }] },
            lastChunk: true,
          },
        },
      });
      yield create(StreamResponseSchema, {
        payload: {
          case: "statusUpdate",
          value: { taskId: "t-2", contextId: "c-1", status: { state: TaskState.COMPLETED } },
        },
      });
    } finally {
      this.streamFinally = true;
    }
  }

  async getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<{ user: string }>,
  ) {
    this.#record(context);
    if (request.id === "missing")
      throw new TaskNotFoundError(`Task ${request.id} not found`, {
        metadata: { taskId: request.id },
      });
    return task(request.id, TaskState.WORKING);
  }

  async listTasks(_request: unknown, context: CallContext<{ user: string }>) {
    this.#record(context);
    return create(ListTasksResponseSchema, {
      tasks: [],
      nextPageToken: "",
      pageSize: 50,
      totalSize: 0,
    });
  }

  async cancelTask(request: { id: string }, context: CallContext<{ user: string }>) {
    this.#record(context);
    return task(request.id, TaskState.CANCELED);
  }

  async *subscribeToTask(request: { id: string }, context: CallContext<{ user: string }>) {
    this.#record(context);
    yield create(StreamResponseSchema, {
      payload: { case: "task", value: task(request.id, TaskState.WORKING) },
    });
    yield create(StreamResponseSchema, {
      payload: {
        case: "statusUpdate",
        value: { taskId: request.id, contextId: "c-1", status: { state: TaskState.COMPLETED } },
      },
    });
  }

  async createTaskPushNotificationConfig(
    request: TaskPushNotificationConfig,
    context: CallContext<{ user: string }>,
  ) {
    this.#record(context);
    const config = create(TaskPushNotificationConfigSchema, {
      ...request,
      id: request.id || `cfg-${this.configs.size + 1}`,
    });
    this.configs.set(`${config.taskId}/${config.id}`, config);
    return config;
  }

  async getTaskPushNotificationConfig(
    request: { taskId: string; id: string },
    context: CallContext<{ user: string }>,
  ) {
    this.#record(context);
    const config = this.configs.get(`${request.taskId}/${request.id}`);
    if (config === undefined)
      throw new TaskNotFoundError(`no push config ${request.id} for task ${request.taskId}`);
    return config;
  }

  async listTaskPushNotificationConfigs(
    request: { taskId: string },
    context: CallContext<{ user: string }>,
  ) {
    this.#record(context);
    const configs = [...this.configs.values()].filter((c) => c.taskId === request.taskId);
    return create(ListTaskPushNotificationConfigsResponseSchema, { configs });
  }

  async getExtendedAgentCard(_request: unknown, context: CallContext<{ user: string }>) {
    this.#record(context);
    return create(AgentCardSchema, {
      name: "Test agent",
      description: "Answers the binding tests",
      version: "1.0.0",
      supportedInterfaces: [
        { url: "http://127.0.0.1/", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
      capabilities: { streaming: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [{ id: "echo", name: "Echo", description: "Echoes", tags: ["echo"] }],
    });
  }

  async deleteTaskPushNotificationConfig(
    request: { taskId: string; id: string },
    context: CallContext<{ user: string }>,
  ) {
    this.#record(context);
    this.configs.delete(`${request.taskId}/${request.id}`);
    return create(EmptySchema);
  }
}

export function firstText(message: Message | undefined): string {
  const part = message?.parts[0];
  return part?.content.case === "text" ? part.content.value : "";
}

export function task(id: string, state: TaskState): Task {
  return create(TaskSchema, {
    id,
    contextId: "c-1",
    status: { state, timestamp: { seconds: 1_700_000_000n, nanos: 0 } },
    history: [
      { messageId: "m-0", role: Role.USER, parts: [{ content: { case: "text", value: "hello" } }] },
    ],
  });
}

export function reply(text: string, contextId: string): Message {
  return create(MessageSchema, {
    messageId: `reply-${text}`,
    contextId,
    role: Role.AGENT,
    parts: [{ content: { case: "text", value: text } }],
  });
}
