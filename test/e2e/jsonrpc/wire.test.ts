import { connect } from "node:net";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { TestAgent } from "../../support/test-agent.js";
import { eventually, listen, type Listening } from "../../support/servers.js";

/** Raw-wire tests of the JSON-RPC server with plain fetch and sockets: nothing of ours on the client side. */
const agent = new TestAgent();
let server: Listening;
let small: Listening;

beforeAll(async () => {
  server = await listen(
    createA2AServiceJsonRpcServer(agent, { keepAliveMs: 20, logger: { error() {} } }).node,
  );
  small = await listen(
    createA2AServiceJsonRpcServer(agent, { maxBodyBytes: 1024, logger: { error() {} } }).node,
  );
});
afterAll(async () => {
  await server.close();
  await small.close();
});

const send = (message: unknown) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: { message },
});
const ok = { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] };

async function post(
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  url = server.url,
) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0", ...headers },
    body,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

describe("JSON-RPC error codes on the wire", () => {
  it.each([
    ["truncated JSON", '{"jsonrpc":"2.0","id":1,"method":"Send', -32700, null],
    ["not JSON at all", "hello", -32700, null],
    ["a JSON array (batch)", JSON.stringify([send(ok), send(ok)]), -32600, null],
    ["an empty batch", "[]", -32600, null],
    ["a JSON string", '"x"', -32600, null],
    ["jsonrpc 1.0", JSON.stringify({ ...send(ok), jsonrpc: "1.0" }), -32600, 1],
    [
      "no id (notification)",
      JSON.stringify({ jsonrpc: "2.0", method: "GetTask", params: { id: "t" } }),
      -32600,
      null,
    ],
    ["an object id", JSON.stringify({ ...send(ok), id: { a: 1 } }), -32600, null],
    ["a numeric method", JSON.stringify({ ...send(ok), method: 7 }), -32600, 1],
    ["an unknown method", JSON.stringify({ ...send(ok), method: "message/send" }), -32601, 1],
    ["a prototype method name", JSON.stringify({ ...send(ok), method: "constructor" }), -32601, 1],
    ["positional params", JSON.stringify({ ...send(ok), params: [ok] }), -32602, 1],
    ["a wrong field type", JSON.stringify(send({ ...ok, messageId: 5 })), -32602, 1],
    ["an unknown enum name", JSON.stringify(send({ ...ok, role: "ROLE_GOD" })), -32602, 1],
    [
      "two oneof members",
      JSON.stringify(send({ ...ok, parts: [{ text: "a", url: "b" }] })),
      -32602,
      1,
    ],
    [
      "a missing required field",
      JSON.stringify(send({ role: "ROLE_USER", parts: [{ text: "a" }] })),
      -32602,
      1,
    ],
    [
      "a bad timestamp",
      JSON.stringify({
        jsonrpc: "2.0",
        id: "x",
        method: "ListTasks",
        params: { statusTimestampAfter: "yesterday" },
      }),
      -32602,
      "x",
    ],
  ])("%s → %i", async (_name, body, code, id) => {
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
    expect(typeof res.json.error.message).toBe("string");
    expect(res.json.error.data[0]["@type"]).toBe("type.googleapis.com/google.rpc.ErrorInfo");
    expect(res.text).not.toMatch(/\n\s+at /);
  });

  it("names the missing field and sends a BadRequest", async () => {
    const res = await post(JSON.stringify(send({ messageId: "m", role: "ROLE_USER", parts: [] })));
    expect(res.json.error.message).toBe("Invalid parameters: message.parts is required");
    expect(res.json.error.data[1]).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [{ field: "message.parts", description: "message.parts is required" }],
    });
  });

  it("names the field of a wrong type", async () => {
    const res = await post(JSON.stringify(send({ ...ok, role: "ROLE_GOD" })));
    expect(res.json.error.message).toContain("lf.a2a.v1.Role");
    expect(res.json.error.message).toContain("ROLE_GOD");
  });

  it("ignores unknown fields (spec §5.7) but still validates the rest", async () => {
    const res = await post(
      JSON.stringify({
        ...send({ ...ok, futureField: { x: 1 } }),
        params: { message: { ...ok, futureField: 1 }, alsoNew: true },
      }),
    );
    expect(res.json.result.message.parts[0].text).toBe("hi");
    const bad = await post(JSON.stringify(send({ ...ok, futureField: 1, role: "ROLE_GOD" })));
    expect(bad.json.error.code).toBe(-32602);
  });

  it("accepts snake_case field names too (ProtoJSON)", async () => {
    const res = await post(
      JSON.stringify(send({ message_id: "m-9", role: "ROLE_USER", parts: [{ text: "snake" }] })),
    );
    expect(res.json.result.message.parts[0].text).toBe("snake");
  });
});

describe("presence rules a plain ProtoJSON encoder gets wrong", () => {
  it("always sends REQUIRED fields, even empty: nextPageToken, tasks, totalSize (spec §3.1.4)", async () => {
    const res = await post(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }),
    );
    expect(res.json.result).toEqual({ tasks: [], nextPageToken: "", pageSize: 50, totalSize: 0 });
  });

  it("answers google.protobuf.Empty as {}", async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "DeleteTaskPushNotificationConfig",
        params: { taskId: "t", id: "c" },
      }),
    );
    expect(res.json).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});

describe("HTTP-level rules", () => {
  it("answers other verbs with 405 and Allow: POST", async () => {
    const res = await fetch(server.url, { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it.each([["text/plain"], ["application/xml"], ["application/json; charset=latin1"]])(
    "rejects Content-Type %s with -32005",
    async (type) => {
      const res = await post(JSON.stringify(send(ok)), { "content-type": type });
      expect(res.json.error.code).toBe(-32005);
      expect(res.json.error.data[0].reason).toBe("CONTENT_TYPE_NOT_SUPPORTED");
    },
  );

  it("accepts application/json with parameters", async () => {
    const res = await post(JSON.stringify(send(ok)), {
      "content-type": "Application/JSON; charset=UTF-8",
    });
    expect(res.json.result.message).toBeDefined();
  });

  it("rejects a body over the limit with a clear error", async () => {
    const res = await post(
      JSON.stringify(send({ ...ok, parts: [{ text: "x".repeat(5000) }] })),
      {},
      small.url,
    );
    expect(res.json.error.code).toBe(-32600);
    expect(res.json.error.message).toBe("the request body exceeds the limit of 1024 bytes");
  });

  it("rejects a body that is not UTF-8", async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
    const res = await post(bytes);
    expect(res.json.error.code).toBe(-32700);
  });

  it("does not let __proto__ keys pollute prototypes", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"SendMessage","__proto__":{"polluted":1},"params":{"__proto__":{"polluted":2},"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"p"}],"metadata":{"__proto__":{"polluted":3}}}}}`;
    const res = await post(body);
    expect(res.json.result.message.parts[0].text).toBe("p");
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("version negotiation (spec §3.6)", () => {
  it.each([
    [{ "a2a-version": "1.0" }, "", undefined],
    [{ "a2a-version": "1.0.3" }, "", undefined],
    [{}, "", -32009],
    [{ "a2a-version": "" }, "", -32009],
    [{ "a2a-version": "99.0" }, "", -32009],
    [{ "a2a-version": "0.3" }, "?A2A-Version=1.0", undefined],
    [{ "a2a-version": "1.0" }, "?a2a-version=2.0", -32009],
  ])("headers %j query %j → %s", async (headers, query, code) => {
    const res = await fetch(server.url + query, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(send(ok)),
    });
    const json = (await res.json()) as any;
    expect(res.status).toBe(200);
    if (code === undefined) {
      expect(json.result).toBeDefined();
    } else {
      expect(json.error.code).toBe(code);
      expect(json.error.message).toMatch(/supported versions: 1\.0$/);
      expect(json.error.data[0]).toMatchObject({
        reason: "VERSION_NOT_SUPPORTED",
        domain: "a2a-protocol.org",
      });
    }
  });
});

describe("streams on the wire", () => {
  it("sends one JSON-RPC envelope per data: line with the request id, and keep-alive comments", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "a2a-version": "1.0",
        accept: "text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "s-1",
        method: "SendStreamingMessage",
        params: { message: { ...ok, parts: [{ text: "slow" }] } },
      }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    let text = "";
    const decoder = new TextDecoder();
    while (!text.includes(": keep-alive")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    const data = text.split("\n").filter((l) => l.startsWith("data: "));
    expect(JSON.parse(data[0]!.slice(6))).toMatchObject({
      jsonrpc: "2.0",
      id: "s-1",
      result: { task: { id: "t-slow" } },
    });
    expect(text).toContain(": keep-alive\n\n");
  });

  it("an SSE client dropping the connection mid-stream aborts the handler and leaves no timers behind", async () => {
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    agent.streamAborted = false;
    agent.streamFinally = false;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        server.url,
        { method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" } },
        (res) => {
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on("error", () => {});
      req.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "SendStreamingMessage",
          params: { message: { ...ok, parts: [{ text: "slow" }] } },
        }),
      );
      setTimeout(() => reject(new Error("no event")), 2000);
    });
    await eventually(() => agent.streamAborted && agent.streamFinally);
    await eventually(
      () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length <= timersBefore,
    );
  });

  it("streams 10 000 events in order", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "SendStreamingMessage",
        params: { message: { ...ok, parts: [{ text: "count 10000" }] } },
      }),
    });
    const text = await res.text();
    const events = text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)).result.message.parts[0].text);
    expect(events).toHaveLength(10_000);
    expect(events[0]).toBe("event 0");
    expect(events[9999]).toBe("event 9999");
  });
});

describe("slow clients", () => {
  it("a client trickling its body does not hold up others", async () => {
    const body = JSON.stringify(send(ok));
    const socket = connect(server.port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write(
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    const started = Date.now();
    const res = await post(JSON.stringify(send(ok)));
    expect(res.json.result.message).toBeDefined();
    expect(Date.now() - started).toBeLessThan(5000);
    const answer = new Promise<string>((resolve) => {
      let got = "";
      socket.on("data", (d) => {
        got += d.toString();
        if (got.includes("\r\n\r\n{")) resolve(got);
      });
    });
    for (let i = 10; i < body.length; i += 20) {
      socket.write(body.slice(i, i + 20));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await answer).toContain('"result"');
    socket.destroy();
  });
});
