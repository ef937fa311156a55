/**
 * Issue #25, point 1: one anonymous request with a non-finite number in a google.protobuf.Value
 * (`"metadata":{"n":1e400}`: JSON.parse reads it as Infinity) was accepted and stored, and from then on
 * GetTask and ListTasks of it answered -32603 / 500 on every JSON binding, for every caller, across
 * restarts with SQLite. Now it is InvalidParams naming the field on every binding the example agent
 * serves as JSON (JSON-RPC, HTTP+JSON, the Connect protocol, WebSocket), wherever the number sits
 * (request metadata, message metadata, Part.data, nested lists), and the agent keeps serving every
 * operation to everyone, in memory and on SQLite after a restart. (gRPC's binary NaN: grpc-bad-input.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";

/** Raw JSON texts of SendMessage params whose number 1e400 / -1e400 / 1e309 is ±Infinity once parsed, and the field each names. */
const POISONS: readonly { readonly params: string; readonly field: string }[] = [
  {
    params: `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}],"metadata":{"n":1e400}}}`,
    field: "message.metadata.n",
  },
  {
    params: `{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"data":{"a":[1,{"b":-1e400}]}}]}}`,
    field: "message.parts[0].data.a[1].b",
  },
  {
    params: `{"message":{"messageId":"m3","role":"ROLE_USER","parts":[{"text":"x","metadata":{"deep":{"list":[0,1e309]}}}]}}`,
    field: "message.parts[0].metadata.deep.list[1]",
  },
  {
    params: `{"metadata":{"odd key":1e400},"message":{"messageId":"m4","role":"ROLE_USER","parts":[{"text":"x"}]}}`,
    field: 'metadata["odd key"]',
  },
  {
    params: `{"message":{"messageId":"m5","role":"ROLE_USER","parts":[{"data":-1e400}]}}`,
    field: "message.parts[0].data",
  },
];

const headers = { "content-type": "application/json", "a2a-version": "1.0" };

async function jsonRpc(
  agent: ExampleAgent,
  method: string,
  params: string,
): Promise<Record<string, unknown>> {
  const response = await fetch(agent.endpoints.jsonrpc, {
    method: "POST",
    headers,
    body: `{"jsonrpc":"2.0","id":7,"method":"${method}","params":${params}}`,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function rest(
  agent: ExampleAgent,
  path: string,
  body?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(
    `${agent.endpoints.rest}${path}`,
    body === undefined ? { headers } : { method: "POST", headers, body },
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function connectProtocol(
  agent: ExampleAgent,
  body: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${agent.endpoints.connect}/lf.a2a.v1.A2AService/SendMessage`, {
    method: "POST",
    headers: { ...headers, "connect-protocol-version": "1" },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** One call over the WebSocket binding with a raw text frame; resolves the answer frame. */
function webSocket(agent: ExampleAgent, frame: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(agent.endpoints.ws, { headers: { "a2a-version": "1.0" } });
    socket.on("error", reject);
    socket.on("open", () => socket.send(frame));
    socket.on("message", (data) => {
      resolve(JSON.parse(String(data)) as Record<string, unknown>);
      socket.close();
    });
  });
}

const violationsOf = (details: unknown): string[] =>
  ((details as { "@type": string; fieldViolations?: { field: string }[] }[]) ?? []).flatMap((d) =>
    d["@type"].endsWith("google.rpc.BadRequest")
      ? (d.fieldViolations ?? []).map((v) => v.field)
      : [],
  );

/** Every operation that reads tasks still answers, on JSON-RPC and HTTP+JSON; returns the listed ids. */
async function stillServes(agent: ExampleAgent, known: readonly string[]): Promise<string[]> {
  const listed = await jsonRpc(agent, "ListTasks", "{}");
  expect(listed["error"]).toBeUndefined();
  const ids = ((listed["result"] as { tasks: { id: string }[] }).tasks ?? []).map((t) => t.id);
  for (const id of known) {
    const got = await jsonRpc(agent, "GetTask", JSON.stringify({ id }));
    expect(got["error"]).toBeUndefined();
    expect((await rest(agent, `/tasks/${id}`)).status).toBe(200);
  }
  expect((await rest(agent, "/tasks?includeArtifacts=true")).status).toBe(200);
  return ids;
}

describe.each(["memory", "sqlite"] as const)("non-finite numbers, %s store", (store) => {
  const dir = mkdtempSync(join(tmpdir(), "a2a-nonfinite-"));
  const database = store === "sqlite" ? { taskDatabase: join(dir, "tasks.db") } : {};
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("are InvalidParams naming the field on JSON-RPC, HTTP+JSON, Connect and WebSocket; nothing stored; everything still served, after a restart too", async () => {
    let agent = await startExampleAgent(database);
    try {
      const good = await jsonRpc(
        agent,
        "SendMessage",
        `{"message":{"messageId":"ok","role":"ROLE_USER","parts":[{"text":"fine"}],"metadata":{"n":1e300}}}`,
      );
      const goodId = (good["result"] as { task: { id: string } }).task.id;
      for (const { params, field } of POISONS) {
        const viaRpc = await jsonRpc(agent, "SendMessage", params);
        const error = viaRpc["error"] as { code: number; message: string; data: unknown };
        expect(error.code).toBe(-32602);
        expect(error.message).toContain("not finite");
        expect(violationsOf(error.data)).toEqual([field]);

        const viaRest = await rest(agent, "/message:send", params);
        expect(viaRest.status).toBe(400);
        const status = viaRest.json["error"] as { status: string; details: unknown };
        expect(status.status).toBe("INVALID_ARGUMENT");
        expect(violationsOf(status.details)).toEqual([field]);

        const viaConnect = await connectProtocol(agent, params);
        expect(viaConnect.status).toBe(400);
        expect(viaConnect.json["code"]).toBe("invalid_argument");
        expect(String(viaConnect.json["message"])).toContain(field);
        expect(String(viaConnect.json["message"])).not.toMatch(/\n\s+at |Error:|\.[jt]s:\d/);

        const viaWs = await webSocket(
          agent,
          `{"id":"c1","method":"SendMessage","params":${params}}`,
        );
        expect((viaWs["error"] as { code: number }).code).toBe(-32602);
      }
      expect(await stillServes(agent, [goodId])).toEqual([goodId]);
      if (store === "sqlite") {
        await agent.close();
        agent = await startExampleAgent(database);
        expect(await stillServes(agent, [goodId])).toEqual([goodId]);
      }
    } finally {
      await agent.close();
    }
  });
});
