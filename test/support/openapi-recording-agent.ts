/**
 * A handler of lf.a2a.v1.A2AService for the API-document tests (test/plugin/emit/schema/openapi.test.ts,
 * test/plugin/emit/schema/openrpc.test.ts): every method records the operation it was called for (its RPC
 * name, from the handler method, not from the call context) with the request and context,
 * and answers a minimal valid response; the streaming methods yield one valid StreamResponse.
 * Also a reader of a text/event-stream body into the data of its events.
 */
import { create } from "@bufbuild/protobuf";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import {
  A2AServiceOperations,
  type A2AServiceHandler,
} from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  AgentCardSchema,
  ListTaskPushNotificationConfigsResponseSchema,
  ListTasksResponseSchema,
  SendMessageResponseSchema,
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../generated-example/gen/a2a_pb.js";

export interface RecordedCall {
  /** The RPC name of the handler method that was called. */
  readonly operation: string;
  readonly request: Record<string, unknown>;
  readonly context: CallContext;
}

const minimalTask = (id: string): Task =>
  create(TaskSchema, { id: id || "t-1", contextId: "c-1", status: { state: TaskState.WORKING } });

export class RecordingAgent implements A2AServiceHandler {
  readonly calls: RecordedCall[] = [];

  #record(method: keyof typeof A2AServiceOperations, request: object, context: CallContext): void {
    this.calls.push({
      operation: A2AServiceOperations[method].name,
      request: request as Record<string, unknown>,
      context,
    });
  }

  async sendMessage(request: object, context: CallContext) {
    this.#record("sendMessage", request, context);
    return create(SendMessageResponseSchema, {
      payload: { case: "task", value: minimalTask("t-1") },
    });
  }

  async *sendStreamingMessage(request: object, context: CallContext) {
    this.#record("sendStreamingMessage", request, context);
    yield create(StreamResponseSchema, { payload: { case: "task", value: minimalTask("t-1") } });
  }

  async getTask(request: { id: string }, context: CallContext) {
    this.#record("getTask", request, context);
    return minimalTask(request.id);
  }

  async listTasks(request: object, context: CallContext) {
    this.#record("listTasks", request, context);
    return create(ListTasksResponseSchema, {
      tasks: [],
      nextPageToken: "",
      pageSize: 50,
      totalSize: 0,
    });
  }

  async cancelTask(request: { id: string }, context: CallContext) {
    this.#record("cancelTask", request, context);
    return create(TaskSchema, {
      id: request.id || "t-1",
      contextId: "c-1",
      status: { state: TaskState.CANCELED },
    });
  }

  async *subscribeToTask(request: { id: string }, context: CallContext) {
    this.#record("subscribeToTask", request, context);
    yield create(StreamResponseSchema, {
      payload: {
        case: "statusUpdate",
        value: {
          taskId: request.id || "t-1",
          contextId: "c-1",
          status: { state: TaskState.WORKING },
        },
      },
    });
  }

  async createTaskPushNotificationConfig(
    request: { taskId: string; url: string },
    context: CallContext,
  ) {
    this.#record("createTaskPushNotificationConfig", request, context);
    return create(TaskPushNotificationConfigSchema, {
      id: "cfg-1",
      taskId: request.taskId,
      url: request.url || "https://example.com/hook",
    });
  }

  async getTaskPushNotificationConfig(
    request: { taskId: string; id: string },
    context: CallContext,
  ) {
    this.#record("getTaskPushNotificationConfig", request, context);
    return create(TaskPushNotificationConfigSchema, {
      id: request.id,
      taskId: request.taskId,
      url: "https://example.com/hook",
    });
  }

  async listTaskPushNotificationConfigs(request: object, context: CallContext) {
    this.#record("listTaskPushNotificationConfigs", request, context);
    return create(ListTaskPushNotificationConfigsResponseSchema, { configs: [] });
  }

  async getExtendedAgentCard(request: object, context: CallContext) {
    this.#record("getExtendedAgentCard", request, context);
    return create(AgentCardSchema, {
      name: "Recording agent",
      description: "Records the operation of every call.",
      supportedInterfaces: [
        { url: "http://127.0.0.1/", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
      ],
      version: "1.0.0",
      capabilities: { streaming: true },
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [],
    });
  }

  async deleteTaskPushNotificationConfig(request: object, context: CallContext) {
    this.#record("deleteTaskPushNotificationConfig", request, context);
    return create(EmptySchema, {});
  }
}

/** The data of every event of a text/event-stream body, read to its end. */
export async function readEventStream(response: Response): Promise<string[]> {
  const text = await response.text();
  const events: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0) events.push(data.join("\n"));
  }
  return events;
}
