/**
 * Error answers do not grow with what a client sends (issue #17: a 14 KB `A2A-Version` came back in
 * a 28 KB error body): a client value an error repeats is cut to 100 characters plus its length
 * (runtime/src/client/input.ts), in the message and in ErrorInfo metadata. Real servers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { ECHO_LIMIT, clipped, quoted } from "../../../runtime/src/client/input.js";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";

const agent = new TestAgent();
const quiet = { error() {} };
let jsonrpc: Listening;
let rest: Listening;
beforeAll(async () => {
  jsonrpc = await listen(createA2AServiceJsonRpcServer(agent, { logger: quiet }).node);
  rest = await listen(createA2AServiceRestServer(agent, { logger: quiet }).node);
});
afterAll(async () => {
  await Promise.all([jsonrpc.close(), rest.close()]);
});

const huge = "9".repeat(14_000);
const getTask = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t" } });
const base = (l: Listening) => l.url.replace(/\/$/, "");

/** The answer's text, checked to be far smaller than what was sent and to carry the cut value's length. */
async function bounded(res: Response): Promise<string> {
  const text = await res.text();
  expect(text.length).toBeLessThan(2_000);
  return text;
}

describe("clipped / quoted", () => {
  it("keep short values as they are and cut long ones, saying how long they were", () => {
    expect(clipped("1.0")).toBe("1.0");
    expect(quoted("1.0")).toBe('"1.0"');
    expect(clipped("x".repeat(ECHO_LIMIT))).toBe("x".repeat(ECHO_LIMIT));
    expect(clipped("x".repeat(ECHO_LIMIT + 1))).toBe(
      `${"x".repeat(ECHO_LIMIT)}… (${ECHO_LIMIT + 1} characters)`,
    );
    expect(quoted(huge)).toBe(`"${"9".repeat(ECHO_LIMIT)}"… (14000 characters)`);
  });
});

describe("JSON-RPC", () => {
  it("a 14 KB A2A-Version: VersionNotSupported naming the cut value, in the message and the metadata", async () => {
    const res = await fetch(base(jsonrpc), {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": huge },
      body: getTask,
    });
    const body = JSON.parse(await bounded(res)) as {
      error: { code: number; message: string; data: { metadata: Record<string, string> }[] };
    };
    expect(body.error.code).toBe(-32009);
    expect(body.error.message).toContain("(14000 characters)");
    expect(body.error.data[0]?.metadata["requestedVersion"]).toBe(clipped(huge));
  });

  it("a 14 KB method name and a 14 KB Content-Type are cut", async () => {
    const method = await fetch(base(jsonrpc), {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: huge, params: {} }),
    });
    expect(JSON.parse(await bounded(method)).error.code).toBe(-32601);
    const type = await fetch(base(jsonrpc), {
      method: "POST",
      headers: { "content-type": `application/${huge}`, "a2a-version": "1.0" },
      body: getTask,
    });
    expect(await bounded(type)).toContain("characters)");
  });
});

describe("HTTP+JSON", () => {
  it("a long unknown path, a long query key and a long query value are cut", async () => {
    const path = await fetch(`${base(rest)}/${"p".repeat(8_000)}`, {
      headers: { "a2a-version": "1.0" },
    });
    expect(path.status).toBe(404);
    expect(await bounded(path)).toContain("(8001 characters)");
    const key = await fetch(`${base(rest)}/tasks?${"k".repeat(8_000)}=1`, {
      headers: { "a2a-version": "1.0" },
    });
    expect(key.status).toBe(400);
    expect(await bounded(key)).toContain("(8000 characters)");
    const value = await fetch(`${base(rest)}/tasks?includeArtifacts=${"v".repeat(8_000)}`, {
      headers: { "a2a-version": "1.0" },
    });
    expect(value.status).toBe(400);
    expect(await bounded(value)).toContain("(8000 characters)");
  });

  it("a 14 KB A2A-Version is cut", async () => {
    const res = await fetch(`${base(rest)}/tasks/t`, { headers: { "a2a-version": huge } });
    expect(res.status).toBe(400);
    expect(await bounded(res)).toContain("(14000 characters)");
  });
});
