/**
 * Request bytes and a tiny raw gRPC caller for bench/grpc.mjs (bundled by it with esbuild
 * into node_modules/.cache/bench/). The request messages are built with protobuf-es
 * `toBinary` from the generated a2a_pb schemas and wrapped in the gRPC length prefix, so
 * h2load and the grpc-js loop send byte-identical bodies to both servers.
 */
import { connect } from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  GetTaskRequestSchema,
  Role,
  SendMessageRequestSchema,
  SendMessageResponseSchema,
  TaskSchema,
  TaskState,
  type Task,
} from "../../generated-example/gen/a2a_pb.js";

export const SERVICE_PATH = "/lf.a2a.v1.A2AService";
/** The text every SendMessage of the benchmark carries (echoed back in a Message). */
export const ECHO_TEXT = "hello, benchmark";
/** The task path: the example agent answers this with a Message (behaviour tck-message-response). */
export const MESSAGE_TEXT = "tck-message-response bench";
/** The task path: a task WORKING → artifact "response" ("Completed: <text>") → COMPLETED. */
export const TASK_TEXT = "tck-complete-task bench";

/** SendMessageRequest{message{messageId, role USER, parts[text]}}, serialized. */
export function sendMessageRequest(text: string = ECHO_TEXT): Uint8Array {
  return toBinary(
    SendMessageRequestSchema,
    create(SendMessageRequestSchema, {
      message: {
        messageId: "bench-m-1",
        role: Role.USER,
        parts: [{ content: { case: "text", value: text } }],
      },
    }),
  );
}

/** GetTaskRequest{id}, serialized. */
export function getTaskRequest(id: string): Uint8Array {
  return toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }));
}

/** The gRPC length-prefixed message (uncompressed). */
export function frame(message: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  Buffer.from(message).copy(out, 5);
  return out;
}

export interface RawAnswer {
  readonly grpcStatus: string | undefined;
  readonly grpcMessage: string | undefined;
  /** The response messages, unframed. */
  readonly messages: Buffer[];
}

/** One unary call over a fresh h2c session to 127.0.0.1:port (a2a-version 1.0). */
export function rawCall(
  port: number,
  method: string,
  message: Uint8Array,
  timeoutMs = 10_000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const req = session.request({
      ":method": "POST",
      ":path": `${SERVICE_PATH}/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
    });
    let meta: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (meta = { ...h }));
    req.on("trailers", (t) => (meta = { ...meta, ...t }));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", (e) => {
      session.destroy();
      reject(e);
    });
    req.setTimeout(timeoutMs, () => req.close());
    req.on("close", () => {
      session.close();
      const body = Buffer.concat(chunks);
      const messages: Buffer[] = [];
      for (let at = 0; at + 5 <= body.length; ) {
        const length = body.readUInt32BE(at + 1);
        messages.push(body.subarray(at + 5, at + 5 + length));
        at += 5 + length;
      }
      const text = (v: unknown) => (v === undefined ? undefined : String(v));
      resolve({
        grpcStatus: text(meta["grpc-status"]),
        grpcMessage: text(meta["grpc-message"]),
        messages,
      });
    });
    req.end(frame(message));
  });
}

/** What a SendMessageResponse holds, for the benchmark's checks (`artifactText`: the first part of the first artifact). */
export function describeSendMessageResponse(bytes: Uint8Array): {
  kind: string;
  text: string;
  taskId: string;
  state: string;
  artifactText: string;
} {
  const res = fromBinary(SendMessageResponseSchema, bytes);
  if (res.payload.case === "message") {
    const content = res.payload.value.parts[0]?.content;
    return {
      kind: "message",
      text: content?.case === "text" ? content.value : "",
      taskId: "",
      state: "",
      artifactText: "",
    };
  }
  if (res.payload.case === "task") {
    const t = describeTaskMessage(res.payload.value);
    return { kind: "task", text: "", taskId: t.id, state: t.state, artifactText: t.artifactText };
  }
  return { kind: String(res.payload.case), text: "", taskId: "", state: "", artifactText: "" };
}

/** What a Task holds, for the benchmark's checks. */
export function describeTask(bytes: Uint8Array): {
  id: string;
  state: string;
  history: number;
  artifacts: number;
  artifactText: string;
} {
  return describeTaskMessage(fromBinary(TaskSchema, bytes));
}

function describeTaskMessage(task: Task): {
  id: string;
  state: string;
  history: number;
  artifacts: number;
  artifactText: string;
} {
  const content = task.artifacts[0]?.parts[0]?.content;
  return {
    id: task.id,
    state: TaskState[task.status?.state ?? 0] ?? "?",
    history: task.history.length,
    artifacts: task.artifacts.length,
    artifactText: content?.case === "text" ? content.value : "",
  };
}
