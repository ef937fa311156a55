import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TaskState } from "../generated-example/gen/a2a_pb.js";
import { A2AServiceJsonRpcClient } from "../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../generated-example/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "../generated-example/gen/a2a_a2a_grpc_client.js";
import type { A2AServiceClient } from "../generated-example/gen/a2a_a2a_handler.js";
import { startExampleAgent, type ExampleAgent } from "../generated-example/agent/echo-agent.js";

/** The example agent (`npm run example`), reached through its own Agent Card, on every binding. */
let agent: ExampleAgent;
const clients: Record<string, A2AServiceClient> = {};

beforeAll(async () => {
  agent = await startExampleAgent(0, 0);
  const card = (await (await fetch(agent.cardUrl)).json()) as { supportedInterfaces: { url: string; protocolBinding: string }[] };
  for (const i of card.supportedInterfaces) {
    if (i.protocolBinding === "JSONRPC") clients["JSONRPC"] = new A2AServiceJsonRpcClient({ url: i.url });
    if (i.protocolBinding === "HTTP+JSON") clients["HTTP+JSON"] = new A2AServiceRestClient({ url: i.url });
    if (i.protocolBinding === "GRPC") clients["GRPC"] = new A2AServiceGrpcClient({ address: i.url });
  }
});
afterAll(() => agent.close());

const message = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: Role.USER, parts: [{ content: { case: "text" as const, value: text } }] } });

describe.each(["JSONRPC", "HTTP+JSON", "GRPC"])("example agent over %s", (binding) => {
  it("is listed in the card", () => {
    expect(clients[binding]).toBeDefined();
  });

  it("answers hello with a Message and other text with a completed task", async () => {
    const client = clients[binding]!;
    const hello = await client.sendMessage(message("hello"));
    expect(hello.payload.case).toBe("message");
    const done = await client.sendMessage(message("do it"));
    if (done.payload.case !== "task") throw new Error("expected a task");
    expect(done.payload.value.status?.state).toBe(TaskState.COMPLETED);
    expect(done.payload.value.artifacts[0]?.parts[0]?.content.value).toBe("do it");
    expect((await client.getTask({ id: done.payload.value.id })).status?.state).toBe(TaskState.COMPLETED);
  });

  it("streams a task to completion and keeps input-required tasks open", async () => {
    const client = clients[binding]!;
    const kinds: string[] = [];
    for await (const e of client.sendStreamingMessage(message("stream it"))) kinds.push(e.payload.case ?? "");
    expect(kinds[0]).toBe("task");
    expect(kinds.at(-1)).toBe("statusUpdate");
    const waiting = await client.sendMessage(message("tck-input-required please"));
    expect(waiting.payload.case === "task" && waiting.payload.value.status?.state).toBe(TaskState.INPUT_REQUIRED);
  });
});
