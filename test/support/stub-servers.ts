/**
 * The generated JSON-RPC and HTTP+JSON servers over a handler that accepts whatever reaches it
 * and answers something valid, called in-process through their fetch handlers: what they
 * refuse, only the servers' own decoding and validation refused. Used to get "the server's
 * verdict" on a payload.
 */
import { create } from "@bufbuild/protobuf";
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
} from "../../generated-example/gen/a2a_pb.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";

const task = () =>
  create(TaskSchema, { id: "t-1", contextId: "c-1", status: { state: TaskState.WORKING } });
const reply = () =>
  create(MessageSchema, {
    messageId: "m-1",
    role: Role.AGENT,
    parts: [{ content: { case: "text", value: "ok" } }],
  });
const config = () =>
  create(TaskPushNotificationConfigSchema, {
    taskId: "t-1",
    id: "c-1",
    url: "https://example.com/hook",
  });

/** A handler that accepts whatever reached it and answers something valid: only the server's own validation says no. */
export const acceptingHandler: A2AServiceHandler = {
  sendMessage: async () =>
    create(SendMessageResponseSchema, { payload: { case: "message", value: reply() } }),
  async *sendStreamingMessage() {
    yield create(StreamResponseSchema, { payload: { case: "message", value: reply() } });
  },
  getTask: async () => task(),
  listTasks: async () =>
    create(ListTasksResponseSchema, { tasks: [], nextPageToken: "", pageSize: 50, totalSize: 0 }),
  cancelTask: async () => task(),
  async *subscribeToTask() {
    yield create(StreamResponseSchema, { payload: { case: "task", value: task() } });
  },
  createTaskPushNotificationConfig: async () => config(),
  getTaskPushNotificationConfig: async () => config(),
  listTaskPushNotificationConfigs: async () =>
    create(ListTaskPushNotificationConfigsResponseSchema, {
      configs: [config()],
      nextPageToken: "",
    }),
  getExtendedAgentCard: async () =>
    create(AgentCardSchema, {
      name: "a",
      description: "d",
      version: "1",
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
    }),
  deleteTaskPushNotificationConfig: async () => ({ $typeName: "google.protobuf.Empty" }),
};

const jsonrpc = createA2AServiceJsonRpcServer(acceptingHandler, { logger: { error() {} } });
const rest = createA2AServiceRestServer(acceptingHandler, { logger: { error() {} } });
const HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };

export type Verdict = "accepted" | "rejected";

/** The server's verdict on a JSON-RPC request: a result (or a stream of them), or InvalidParams; anything else fails the test. */
export async function jsonRpcVerdict(
  envelope: unknown,
): Promise<{ verdict: Verdict; detail: string }> {
  const response = await jsonrpc.fetch(
    new Request("http://agent.test/", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify(envelope),
    }),
  );
  const text = await response.text();
  const first = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? /^data: ?(.*)$/m.exec(text)?.[1]
    : text;
  const body = JSON.parse(first ?? "null") as {
    result?: unknown;
    error?: { code: number; message: string };
  };
  if (body.result !== undefined) return { verdict: "accepted", detail: "result" };
  if (body.error?.code === -32602) return { verdict: "rejected", detail: body.error.message };
  throw new Error(`unexpected JSON-RPC answer ${response.status}: ${text.slice(0, 300)}`);
}

/** The server's verdict on an HTTP+JSON request: 200, or 400 INVALID_ARGUMENT; anything else fails the test. */
export async function restVerdict(
  method: string,
  path: string,
  body: unknown,
): Promise<{ verdict: Verdict; detail: string }> {
  const response = await rest.fetch(
    new Request(`http://agent.test${path}`, {
      method,
      headers: HEADERS,
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  if (response.status === 200) return { verdict: "accepted", detail: "200" };
  const error = (JSON.parse(text) as { error?: { status?: string; message?: string } }).error;
  if (response.status === 400 && error?.status === "INVALID_ARGUMENT")
    return { verdict: "rejected", detail: error.message ?? "" };
  throw new Error(`unexpected HTTP+JSON answer ${response.status}: ${text.slice(0, 300)}`);
}
