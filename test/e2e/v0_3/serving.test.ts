/**
 * A2A 0.3 beside 1.0 on one agent, on the wire (raw HTTP and gRPC-over-Connect requests on 127.0.0.1):
 * version routing (A2A-Version header or query parameter, missing = 0.3 per spec §3.6, and the
 * request's shape: 0.3 method names, the /v1 routes, the a2a.v1 gRPC service), the 0.3 JSON we answer
 * validated against the 0.3 JSON Schema, the hybrid Agent Card, `legacyV03: false`.
 */
import { readFileSync } from "node:fs";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { AgentCardSchema } from "../../../generated-example/gen/a2a_pb.js";
import { Ajv } from "ajv";
import formats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";

const schema = JSON.parse(
  readFileSync(new URL("../../../proto/v0_3/a2a.json", import.meta.url), "utf8"),
) as { definitions: Record<string, unknown> };
const ajv = new Ajv({ strict: false, allErrors: true });
(formats as unknown as (ajv: Ajv) => void)(ajv);
ajv.addSchema(schema, "a2a-v03");
/** Validates `value` against a definition of the 0.3 JSON Schema; the errors when it does not. */
function v03Errors(definition: string, value: unknown): string | undefined {
  const validate = ajv.getSchema(`a2a-v03#/definitions/${definition}`);
  if (validate === undefined) throw new Error(`no definition ${definition}`);
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

let agent: ExampleAgent;
let only10: ExampleAgent;

beforeAll(async () => {
  [agent, only10] = await Promise.all([
    startExampleAgent({ longRunningMs: 200 }),
    startExampleAgent({ longRunningMs: 200, legacyV03: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([agent?.close(), only10?.close()]);
});

const rpc = async (
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    },
  };
};
const v03Message = (text: string) => ({
  message: {
    kind: "message",
    messageId: `m-${crypto.randomUUID()}`,
    role: "user",
    parts: [{ kind: "text", text }],
  },
});
const v10Message = (text: string) => ({
  message: { messageId: `m-${crypto.randomUUID()}`, role: "ROLE_USER", parts: [{ text }] },
});

describe("JSON-RPC: one endpoint, both versions", () => {
  it("a 0.3 method without A2A-Version is served as 0.3, and the answer is valid 0.3", async () => {
    const { status, body } = await rpc(agent.endpoints.jsonrpc, "message/send", {
      ...v03Message("tck-complete-task routing"),
      configuration: { blocking: true },
    });
    expect(status).toBe(200);
    expect(v03Errors("SendMessageSuccessResponse", body)).toBeUndefined();
    expect(body.result).toMatchObject({ kind: "task", status: { state: "completed" } });
    const got = await rpc(agent.endpoints.jsonrpc, "tasks/get", { id: body.result!["id"] });
    expect(v03Errors("GetTaskSuccessResponse", got.body)).toBeUndefined();
  });

  it("A2A-Version: 0.3 (header or query parameter) is served as 0.3 too", async () => {
    const header = await rpc(
      agent.endpoints.jsonrpc,
      "message/send",
      v03Message("tck-message-response h"),
      { "A2A-Version": "0.3" },
    );
    expect(header.body.result).toMatchObject({ kind: "message", role: "agent" });
    const query = await rpc(
      `${agent.endpoints.jsonrpc}?A2A-Version=0.3`,
      "message/send",
      v03Message("tck-message-response q"),
    );
    expect(query.body.result).toMatchObject({ kind: "message", role: "agent" });
  });

  it("1.0 results stay as they were: a 1.0 method with A2A-Version 1.0 answers 1.0, without a version it is VersionNotSupported", async () => {
    const ok = await rpc(
      agent.endpoints.jsonrpc,
      "SendMessage",
      v10Message("tck-message-response x"),
      { "A2A-Version": "1.0" },
    );
    expect(ok.body.result).toHaveProperty("message.role", "ROLE_AGENT");
    const missing = await rpc(
      agent.endpoints.jsonrpc,
      "SendMessage",
      v10Message("tck-message-response x"),
    );
    expect(missing.body.error?.code).toBe(-32009);
  });

  it("a 0.3 method under A2A-Version 1.0 is not a 1.0 method", async () => {
    const { body } = await rpc(agent.endpoints.jsonrpc, "message/send", v03Message("x"), {
      "A2A-Version": "1.0",
    });
    expect(body.error?.code).toBe(-32601);
  });

  it("0.3 errors carry 0.3 codes and validate as 0.3 error responses", async () => {
    const { body } = await rpc(agent.endpoints.jsonrpc, "tasks/get", { id: "no-such-task" });
    expect(body.error?.code).toBe(-32001);
    expect(v03Errors("JSONRPCErrorResponse", body)).toBeUndefined();
    const bad = await rpc(agent.endpoints.jsonrpc, "message/send", {
      message: {
        kind: "message",
        messageId: "b1",
        role: "robot",
        parts: [{ kind: "text", text: "x" }],
      },
    });
    expect(bad.body.error?.code).toBe(-32602);
    expect(bad.body.error?.message).toMatch(/role/);
  });

  it("message/stream: SSE events valid as 0.3, the last one final", async () => {
    const response = await fetch(agent.endpoints.jsonrpc, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/stream",
        params: v03Message("tck-stream-basic sse"),
      }),
    });
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const events = (await response.text())
      .split("\n\n")
      .map((block) => block.split("\n").find((l) => l.startsWith("data: ")))
      .filter((l): l is string => l !== undefined)
      .map((l) => JSON.parse(l.slice(6)) as { result: { kind: string; final?: boolean } });
    expect(events.length).toBeGreaterThan(1);
    for (const e of events)
      expect(v03Errors("SendStreamingMessageSuccessResponse", e)).toBeUndefined();
    expect(events.at(-1)!.result).toMatchObject({ kind: "status-update", final: true });
  });

  it("legacyV03: false: a 0.3 method is not found", async () => {
    const { body } = await rpc(only10.endpoints.jsonrpc, "message/send", v03Message("x"));
    expect(body.error?.code).toBe(-32601);
  });
});

describe("HTTP+JSON: the /v1 routes", () => {
  it("POST /v1/message:send without A2A-Version is 0.3 (0.3 ProtoJSON), with Vary: A2A-Version", async () => {
    const response = await fetch(`${agent.endpoints.rest}/v1/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        message: {
          messageId: "r1",
          role: "ROLE_USER",
          content: [{ text: "tck-message-response rest" }],
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("vary")).toMatch(/A2A-Version/i);
    const body = (await response.json()) as {
      msg?: { content?: unknown[] };
      message?: { content?: unknown[] };
    };
    expect((body.msg ?? body.message)?.content).toBeDefined();
  });

  it("GET /v1/tasks/{id} of an unknown task: 404 with 0.3's {code, message}", async () => {
    const response = await fetch(`${agent.endpoints.rest}/v1/tasks/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: -32001 });
  });

  it("/v1/… with A2A-Version: 1.0 is 1.0's route for tenant v1 (1.0 error body)", async () => {
    const response = await fetch(`${agent.endpoints.rest}/v1/tasks/nope`, {
      headers: { "A2A-Version": "1.0" },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { status: "NOT_FOUND" } });
  });

  it("the 1.0 routes are unchanged", async () => {
    const response = await fetch(`${agent.endpoints.rest}/message:send`, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify(v10Message("tck-message-response r10")),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty("message.role", "ROLE_AGENT");
  });
});

describe("gRPC's a2a.v1.A2AService beside lf.a2a.v1 (Connect protocol on the HTTP port)", () => {
  it("GetTask of an unknown task on the 0.3 service is not_found; the 1.0 service still needs its version", async () => {
    const v03 = await fetch(`${agent.endpoints.connect}/a2a.v1.A2AService/GetTask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "tasks/nope" }),
    });
    expect(((await v03.json()) as { code: string }).code).toBe("not_found");
    const v10 = await fetch(`${agent.endpoints.connect}/lf.a2a.v1.A2AService/GetTask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "nope" }),
    });
    expect(((await v10.json()) as { code: string }).code).toBe("failed_precondition");
  });
});

describe("the Agent Card", () => {
  it("lists the 1.0 interfaces first, then one 0.3 interface per core binding, and carries 0.3's top-level fields", async () => {
    const card = (await (await fetch(agent.cardUrl)).json()) as Record<string, unknown> & {
      supportedInterfaces: { protocolBinding: string; protocolVersion: string; url: string }[];
    };
    const versions = card.supportedInterfaces.map((i) => i.protocolVersion);
    expect(versions[0]).toBe("1.0");
    expect(versions.indexOf("0.3")).toBeGreaterThan(versions.lastIndexOf("1.0"));
    const v03 = card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3");
    expect(v03.map((i) => i.protocolBinding).sort()).toEqual(["GRPC", "HTTP+JSON", "JSONRPC"]);
    expect(card).toMatchObject({
      protocolVersion: "0.3.0",
      url: agent.endpoints.jsonrpc,
      preferredTransport: "JSONRPC",
    });
    expect(
      (card["additionalInterfaces"] as { transport: string }[]).map((i) => i.transport).sort(),
    ).toEqual(["GRPC", "HTTP+JSON", "JSONRPC"]);
    expect(v03Errors("AgentCard", card)).toBeUndefined();
  });

  it("a request that names A2A 1.0 gets the 1.0 card (0.3 interfaces listed, no 0.3 top-level fields); both vary by A2A-Version", async () => {
    const response = await fetch(agent.cardUrl, { headers: { "A2A-Version": "1.0" } });
    expect(response.headers.get("vary")).toMatch(/A2A-Version/i);
    const card = (await response.json()) as Record<string, unknown> & {
      supportedInterfaces: { protocolVersion: string }[];
    };
    expect(card["url"]).toBeUndefined();
    expect(card["protocolVersion"]).toBeUndefined();
    expect(card.supportedInterfaces.some((i) => i.protocolVersion === "0.3")).toBe(true);
    // Not one key a 1.0 reader does not know, at any depth (the securitySchemes entries have no
    // 0.3 OpenAPI keys): protobuf-es's ProtoJSON reader refuses unknown fields by default.
    const read = fromJson(AgentCardSchema, card as JsonValue);
    expect(Object.keys(read.securitySchemes).length).toBeGreaterThan(0);
    expect((await fetch(agent.cardUrl)).headers.get("vary")).toMatch(/A2A-Version/i);
  });

  it("legacyV03: false: a 1.0 card only", async () => {
    const card = (await (await fetch(only10.cardUrl)).json()) as Record<string, unknown> & {
      supportedInterfaces: { protocolVersion: string }[];
    };
    expect(card["url"]).toBeUndefined();
    expect(card.supportedInterfaces.every((i) => i.protocolVersion === "1.0")).toBe(true);
  });
});

describe("push notifications in the version the webhook was registered in", () => {
  it("a 0.3 registration gets 0.3 events (kind, final, X-A2A-Notification-Token, application/json); a 1.0 one gets StreamResponse", async () => {
    const { createServer } = await import("node:http");
    const received: {
      path: string;
      type: string | undefined;
      token: string | undefined;
      version: string | undefined;
      body: Record<string, unknown>;
    }[] = [];
    const receiver = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk: Buffer) => (text += chunk.toString()));
      req.on("end", () => {
        received.push({
          path: req.url ?? "",
          type: req.headers["content-type"],
          token: req.headers["x-a2a-notification-token"] as string | undefined,
          version: req.headers["a2a-version"] as string | undefined,
          body: JSON.parse(text) as Record<string, unknown>,
        });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    const pushing = await startExampleAgent({ longRunningMs: 300, allowPrivateWebhooks: true });
    try {
      // 0.3: the config comes with the message (MessageSendParams.configuration.pushNotificationConfig).
      const v03 = await rpc(pushing.endpoints.jsonrpc, "message/send", {
        ...v03Message("tck-long-running push"),
        configuration: {
          blocking: false,
          pushNotificationConfig: { url: `${hook}/v03`, token: "t-03" },
        },
      });
      expect(v03.body.result).toMatchObject({ kind: "task" });
      // 1.0: the same through SendMessage.
      const v10 = await rpc(
        pushing.endpoints.jsonrpc,
        "SendMessage",
        {
          ...v10Message("tck-long-running push"),
          configuration: {
            returnImmediately: true,
            taskPushNotificationConfig: { url: `${hook}/v10`, token: "t-10" },
          },
        },
        { "A2A-Version": "1.0" },
      );
      expect(v10.body.result).toHaveProperty("task.id");
      const done = (path: string) =>
        received.some(
          (r) => r.path === path && JSON.stringify(r.body).match(/completed|TASK_STATE_COMPLETED/),
        );
      for (let i = 0; i < 100 && !(done("/v03") && done("/v10")); i++)
        await new Promise((r) => setTimeout(r, 50));
      const old = received.filter((r) => r.path === "/v03");
      const current = received.filter((r) => r.path === "/v10");
      expect(old.length).toBeGreaterThan(0);
      expect(current.length).toBeGreaterThan(0);
      for (const r of old) {
        expect(r.type).toBe("application/json");
        expect(r.token).toBe("t-03");
        expect(r.version).toBeUndefined();
        expect(["task", "status-update", "artifact-update"]).toContain(r.body["kind"]);
        expect(
          v03Errors(
            r.body["kind"] === "task"
              ? "Task"
              : r.body["kind"] === "status-update"
                ? "TaskStatusUpdateEvent"
                : "TaskArtifactUpdateEvent",
            r.body,
          ),
        ).toBeUndefined();
      }
      expect(old.at(-1)!.body).toMatchObject({
        kind: "status-update",
        final: true,
        status: { state: "completed" },
      });
      for (const r of current) {
        expect(r.type).toBe("application/a2a+json");
        expect(r.version).toBe("1.0");
        expect(r.body["kind"]).toBeUndefined();
        expect(
          Object.keys(r.body).some((k) =>
            ["task", "statusUpdate", "artifactUpdate", "message"].includes(k),
          ),
        ).toBe(true);
      }
    } finally {
      await pushing.close();
      receiver.close();
    }
  });
});

describe("0.3 shapes the SDKs and the 0.3 TCK send", () => {
  it("a streaming method's error is an SSE event (0.3 §7), not a JSON body", async () => {
    const response = await fetch(agent.endpoints.jsonrpc, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tasks/resubscribe",
        params: { id: "no-such-task" },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const event = JSON.parse((await response.text()).trim().replace(/^data: /, "")) as unknown;
    expect(event).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32001 } });
    expect(v03Errors("JSONRPCErrorResponse", event)).toBeUndefined();
  });

  it("CreateTaskPushNotificationConfig over HTTP+JSON: the proto's body (config) and the whole request are both read", async () => {
    const task = await rpc(agent.endpoints.jsonrpc, "message/send", {
      ...v03Message("tck-complete-task rest push"),
      configuration: { blocking: true },
    });
    const id = String(task.body.result!["id"]);
    const post = (body: unknown) =>
      fetch(`${agent.endpoints.rest}/v1/tasks/${id}/pushNotificationConfigs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const asConfig = await post({
      name: `tasks/${id}/pushNotificationConfigs/c1`,
      pushNotificationConfig: { id: "c1", url: "https://example.com/hook-1" },
    });
    expect(asConfig.status).toBe(200);
    const whole = await post({
      parent: `tasks/${id}`,
      config_id: "c2",
      config: {
        name: `tasks/${id}/pushNotificationConfigs/c2`,
        push_notification_config: { id: "c2", url: "https://example.com/hook-2" },
      },
    });
    expect(whole.status).toBe(200);
    const list = (await (
      await fetch(`${agent.endpoints.rest}/v1/tasks/${id}/pushNotificationConfigs`)
    ).json()) as { configs?: { name: string }[] };
    expect(list.configs?.map((c) => c.name).sort()).toEqual([
      `tasks/${id}/pushNotificationConfigs/c1`,
      `tasks/${id}/pushNotificationConfigs/c2`,
    ]);
  });
});
