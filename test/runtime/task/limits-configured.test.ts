/**
 * The task handler's limit options reach the engine (createA2AServiceTaskHandler → TaskHandlerOptions):
 * maxSubscribersPerTask and maxActiveTasksPerOwner configured small, refused with UnsupportedOperation.
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  Role,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { UnsupportedOperationError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { createCallContext } from "@protoc-gen-a2a/runtime";

const executor: A2AServiceExecutor<string> = {
  async execute(_context, emitter) {
    await emitter.requireInput({ parts: [{ content: { case: "text", value: "more?" } }] });
  },
};
const request = () =>
  create(SendMessageRequestSchema, {
    message: {
      messageId: crypto.randomUUID(),
      role: Role.USER,
      parts: [{ content: { case: "text", value: "x" } }],
    },
  });
const call = (principal?: string) =>
  createCallContext<string>({ operation: "SendMessage", binding: "JSONRPC", principal });

describe("TaskHandlerOptions limits", () => {
  it("maxActiveTasksPerOwner: 2", async () => {
    const handler = createA2AServiceTaskHandler<string>({ executor, maxActiveTasksPerOwner: 2 });
    await handler.sendMessage(request(), call("a"));
    await handler.sendMessage(request(), call("a"));
    await expect(handler.sendMessage(request(), call("a"))).rejects.toBeInstanceOf(
      UnsupportedOperationError,
    );
    await handler.sendMessage(request(), call("b"));
  });

  it("maxSubscribersPerTask: 2", async () => {
    const handler = createA2AServiceTaskHandler<string>({
      executor,
      capabilities: { streaming: true },
      maxSubscribersPerTask: 2,
    });
    const created = await handler.sendMessage(request(), call());
    const id = created.payload.case === "task" ? created.payload.value.id : "";
    const open = async () => {
      const it = handler
        .subscribeToTask(create(SubscribeToTaskRequestSchema, { id }), call())
        [Symbol.asyncIterator]();
      await it.next();
      return it;
    };
    const streams = [await open(), await open()];
    await expect(open()).rejects.toBeInstanceOf(UnsupportedOperationError);
    for (const s of streams) await s.return?.();
  });
});
