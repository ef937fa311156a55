/**
 * A2A 0.3 beside 1.0: the last 0.3 release of the reference JS SDK (@a2a-js/sdk 0.3.14, installed as
 * `@a2a-js/sdk-v03`) against the example agent, on JSON-RPC, HTTP+JSON and gRPC, real sockets on
 * 127.0.0.1. The SDK finds the agent from its card (the 0.3 top-level fields of the hybrid card) and
 * sends no A2A-Version: every request is a 0.3 request (spec §3.6), served by the same handler as 1.0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  Message as SdkMessage,
  Task as SdkTask,
  TaskStatusUpdateEvent as SdkStatusUpdate,
} from "@a2a-js/sdk-v03";
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  TaskNotFoundError as SdkTaskNotFoundError,
  type Client as SdkClient,
} from "@a2a-js/sdk-v03/client";
import { GrpcTransportFactory } from "@a2a-js/sdk-v03/client/grpc";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";

type Transport = "JSONRPC" | "HTTP+JSON" | "GRPC";
const TRANSPORTS: readonly Transport[] = ["JSONRPC", "HTTP+JSON", "GRPC"];

let agent: ExampleAgent;
const clients = new Map<Transport, SdkClient>();

beforeAll(async () => {
  agent = await startExampleAgent({ longRunningMs: 300, allowPrivateWebhooks: true });
  for (const transport of TRANSPORTS) {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory(),
          new RestTransportFactory(),
          new GrpcTransportFactory(),
        ],
        preferredTransports: [transport],
      }),
    );
    clients.set(
      transport,
      await factory.createFromUrl(agent.cardUrl.replace("/.well-known/agent-card.json", "")),
    );
  }
});

afterAll(async () => {
  await agent?.close();
});

const userMessage = (text: string, extra: Partial<SdkMessage> = {}): SdkMessage => ({
  kind: "message",
  messageId: `v03-${crypto.randomUUID()}`,
  role: "user",
  parts: [{ kind: "text", text }],
  ...extra,
});

const textOf = (parts: readonly { kind: string; text?: string }[] | undefined): string =>
  (parts ?? []).map((p) => (p.kind === "text" ? (p.text ?? "") : "")).join("");

describe.each(TRANSPORTS)("@a2a-js/sdk 0.3.14 over %s → the example agent", (transport) => {
  const client = () => clients.get(transport)!;

  it("message/send answering a Message", async () => {
    const result = await client().sendMessage({
      message: userMessage("tck-message-response hello"),
    });
    expect(result.kind).toBe("message");
    expect((result as SdkMessage).role).toBe("agent");
    expect(textOf((result as SdkMessage).parts)).toContain("hello");
  });

  it("message/send creating a completed task with an artifact, then tasks/get", async () => {
    const result = (await client().sendMessage({
      message: userMessage("tck-complete-task v03"),
      configuration: { blocking: true, acceptedOutputModes: ["text/plain"] },
    })) as SdkTask;
    expect(result.kind).toBe("task");
    expect(result.status.state).toBe("completed");
    expect(result.artifacts?.length ?? 0).toBeGreaterThan(0);
    const got = await client().getTask({ id: result.id, historyLength: 1 });
    expect(got.kind).toBe("task");
    expect(got.id).toBe(result.id);
    expect(got.contextId).toBe(result.contextId);
    expect(got.status.state).toBe("completed");
    expect(got.history?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it("message/stream: the task, its updates, `final` on the last status update, in order", async () => {
    const events: { kind: string; final?: boolean; state?: string }[] = [];
    for await (const event of client().sendMessageStream({
      message: userMessage("tck-stream-basic v03"),
    })) {
      const e = event as SdkTask | SdkMessage | SdkStatusUpdate | { kind: "artifact-update" };
      events.push({
        kind: e.kind,
        ...(e.kind === "status-update"
          ? { final: e.final, state: e.status.state }
          : e.kind === "task"
            ? { state: e.status.state }
            : {}),
      });
    }
    expect(events.length).toBeGreaterThan(1);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ kind: "status-update", final: true, state: "completed" });
    expect(events.slice(0, -1).every((e) => e.final !== true)).toBe(true);
  });

  it("tasks/cancel of a running task, and tasks/resubscribe sees it end", async () => {
    const started = (await client().sendMessage({
      message: userMessage("tck-cancel v03"),
      configuration: { blocking: false, acceptedOutputModes: ["text/plain"] },
    })) as SdkTask;
    expect(started.kind).toBe("task");
    const seen: string[] = [];
    const watching = (async () => {
      for await (const event of client().resubscribeTask({ id: started.id })) {
        const e = event as SdkTask | SdkStatusUpdate;
        if (e.kind === "status-update") seen.push(e.status.state + (e.final ? "!" : ""));
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    const canceled = await client().cancelTask({ id: started.id });
    expect(canceled.status.state).toBe("canceled");
    await watching;
    expect(seen.at(-1)).toBe("canceled!");
  });

  it("push notification configs: set, get, list, delete", async () => {
    const task = (await client().sendMessage({
      message: userMessage("tck-complete-task push"),
      configuration: { blocking: true, acceptedOutputModes: ["text/plain"] },
    })) as SdkTask;
    const set = await client().setTaskPushNotificationConfig({
      taskId: task.id,
      pushNotificationConfig: { id: "cfg-1", url: "http://127.0.0.1:9/hook", token: "tok" },
    });
    expect(set.taskId).toBe(task.id);
    expect(set.pushNotificationConfig).toMatchObject({
      id: "cfg-1",
      url: "http://127.0.0.1:9/hook",
      token: "tok",
    });
    const got = await client().getTaskPushNotificationConfig({
      id: task.id,
      pushNotificationConfigId: "cfg-1",
    } as Parameters<SdkClient["getTaskPushNotificationConfig"]>[0]);
    expect(got.pushNotificationConfig.url).toBe("http://127.0.0.1:9/hook");
    const listed = await client().listTaskPushNotificationConfig({ id: task.id });
    expect(listed.map((c) => c.pushNotificationConfig.id)).toEqual(["cfg-1"]);
    await client().deleteTaskPushNotificationConfig({
      id: task.id,
      pushNotificationConfigId: "cfg-1",
    });
    expect(await client().listTaskPushNotificationConfig({ id: task.id })).toEqual([]);
  });

  it("an unknown task is the 0.3 TaskNotFoundError", async () => {
    const failure = await client()
      .getTask({ id: "no-such-task" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    if (transport === "GRPC") {
      // The 0.3 SDK's gRPC transport maps status codes to its error classes.
      expect(failure).toBeInstanceOf(Error);
      expect(String((failure as Error).message)).toMatch(/not.?found/i);
    } else {
      expect(failure).toBeInstanceOf(SdkTaskNotFoundError);
    }
  });
});

// ---------------------------------------------------------------------------------------
// @a2a-js/sdk 1.3.0 with legacyCompat: a 1.0 SDK speaking 0.3 to the agent's 0.3 interfaces
// ---------------------------------------------------------------------------------------

describe.each(TRANSPORTS)(
  "@a2a-js/sdk 1.3.0 legacyCompat over the 0.3 %s interface → the example agent",
  (transport) => {
    it("sends, streams and gets through the 0.3 wire", async () => {
      const {
        ClientFactory: Factory,
        JsonRpcTransportFactory: JsonRpc,
        RestTransportFactory: Rest,
      } = await import("@a2a-js/sdk/client");
      const { GrpcTransportFactory: Grpc } = await import("@a2a-js/sdk/client/grpc");
      const { sdkSend, sdkFirstText, isSdkMessage } = await import("../../support/sdk-agent.js");
      const card = (await (await fetch(agent.cardUrl)).json()) as {
        supportedInterfaces: { protocolBinding: string; protocolVersion: string }[];
      };
      const v03Interfaces = card.supportedInterfaces.filter(
        (i) => i.protocolVersion === "0.3" && i.protocolBinding === transport,
      );
      expect(v03Interfaces).toHaveLength(1);
      const legacyCompat = { enabled: true };
      const factory = new Factory({
        transports: [
          new JsonRpc({ legacyCompat }),
          new Rest({ legacyCompat }),
          new Grpc({ legacyCompat }),
        ],
        preferredTransports: [transport],
      });
      const wire: string[] = [];
      const seen = (url: string, init?: RequestInit) =>
        wire.push(
          `${init?.method ?? "GET"} ${new URL(url).pathname} v=${new Headers(init?.headers).get("a2a-version") ?? "-"}`,
        );
      const original = globalThis.fetch;
      globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
        seen(String(input instanceof Request ? input.url : input), init);
        return original(input, init);
      }) as typeof fetch;
      try {
        const client = await factory.createFromAgentCard({
          ...(card as object),
          supportedInterfaces: v03Interfaces,
        } as never);
        const reply = await client.sendMessage(sdkSend("tck-message-response legacy"));
        expect(isSdkMessage(reply as never)).toBe(true);
        expect(String(sdkFirstText((reply as unknown as { parts: never[] }).parts))).toContain(
          "legacy",
        );
        const task = (await client.sendMessage(sdkSend("tck-complete-task legacy"))) as {
          id: string;
          status?: { state: number };
        };
        const got = (await client.getTask({
          tenant: "",
          id: task.id,
          historyLength: undefined,
        } as never)) as { id: string; status?: { state: number } };
        expect(got.id).toBe(task.id);
        expect(got.status?.state).toBe(task.status?.state);
        let events = 0;
        for await (const _ of client.sendMessageStream(sdkSend("tck-stream-basic legacy")))
          events++;
        expect(events).toBeGreaterThan(1);
      } finally {
        globalThis.fetch = original;
      }
      // The HTTP transports spoke 0.3: 0.3 JSON-RPC methods / the /v1 routes, no A2A-Version 1.0.
      if (transport === "HTTP+JSON")
        expect(
          wire.filter((w) => w.includes("/a2a/rest/")).every((w) => w.includes("/a2a/rest/v1/")),
        ).toBe(true);
      if (transport !== "GRPC")
        expect(wire.filter((w) => w.startsWith("POST")).every((w) => !w.endsWith("v=1.0"))).toBe(
          true,
        );
    });
  },
);
