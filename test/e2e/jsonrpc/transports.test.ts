import { connect, createServer, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { TestAgent } from "../../support/test-agent.js";

const request = (id: number, method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
const hello = { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hello" }] } };

describe("JSON-RPC over HTTP/2 (h2c) with the node adapter", () => {
  let server: Http2Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer(createA2AServiceJsonRpcServer(new TestAgent(), { keepAliveMs: 0 }).node);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function h2(body: string): Promise<{ status: number; type: string; text: string }> {
    return new Promise((resolve, reject) => {
      const session = connect(origin);
      session.on("error", reject);
      const stream = session.request({
        ":method": "POST",
        ":path": "/",
        "content-type": "application/json",
        "a2a-version": "1.0",
      });
      let status = 0;
      let type = "";
      let text = "";
      stream.on("response", (h) => {
        status = Number(h[":status"]);
        type = String(h["content-type"]);
      });
      stream.setEncoding("utf8");
      stream.on("data", (d: string) => (text += d));
      stream.on("end", () => {
        session.close();
        resolve({ status, type, text });
      });
      stream.on("error", reject);
      stream.end(body);
    });
  }

  it("answers a unary call", async () => {
    const res = await h2(request(1, "SendMessage", hello));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: { message: { parts: [{ text: "hello" }] } },
    });
  });

  it("streams SSE events", async () => {
    const res = await h2(request(2, "SendStreamingMessage", hello));
    expect(res.type).toBe("text/event-stream");
    const events = res.text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => Object.keys(JSON.parse(l.slice(6)).result)[0]);
    expect(events).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
  });
});

describe("JSON-RPC through the fetch handler (Request → Response), as Deno, Bun or a worker would call it", () => {
  const server = createA2AServiceJsonRpcServer(new TestAgent(), { keepAliveMs: 0 });
  // The generated client with the fetch handler as its fetch: no socket in between.
  const client = new A2AServiceJsonRpcClient({
    url: "http://agent.example/a2a",
    fetch: (input, init) => server.fetch(new Request(input, init)),
  });

  it("serves unary calls and typed errors", async () => {
    const res = await client.sendMessage({
      message: {
        messageId: "m",
        role: Role.USER,
        parts: [{ content: { case: "text", value: "via fetch" } }],
      },
    });
    expect(res.payload.case === "message" && res.payload.value.parts[0]?.content.value).toBe(
      "via fetch",
    );
    await expect(client.getTask({ id: "missing" })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it("serves streams", async () => {
    const cases = [];
    for await (const e of client.sendStreamingMessage({
      message: {
        messageId: "m",
        role: Role.USER,
        parts: [{ content: { case: "text", value: "s" } }],
      },
    })) {
      cases.push(e.payload.case);
    }
    expect(cases).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
  });

  it("answers 405 and content-type errors like the node adapter", async () => {
    const res = await server.fetch(new Request("http://agent.example/a2a", { method: "GET" }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    const bad = await server.fetch(
      new Request("http://agent.example/a2a", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "{}",
      }),
    );
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32005);
  });
});
