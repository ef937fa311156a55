/**
 * connectA2AService (generated a2a_a2a_agent_client.ts + runtime agent-client.ts): card fetch,
 * interface selection per binding, capability gating without requests, the extended card
 * replacing the public one, typed errors; against real servers (generated JSON-RPC, REST and
 * gRPC servers over the generated task handler) on 127.0.0.1.
 */
import { create, fromJson, toJson, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AgentCardSchema,
  TaskState,
  type AgentCard,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  AgentConnectError,
  connectA2AService,
  type A2AServiceBinding,
} from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import {
  PushNotificationNotSupportedError,
  UnauthenticatedError,
  UnsupportedOperationError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import {
  buildSupportedInterfaces,
  composeHandlers,
  serveAgentCard,
} from "@protoc-gen-a2a/runtime/http";
import { serveNode } from "@protoc-gen-a2a/runtime/http";
import type { AuthRequest } from "@protoc-gen-a2a/runtime";
import { selectInterface } from "@protoc-gen-a2a/runtime/client";
import {
  collect,
  createA2ATaskHandler,
  sendRequest,
  textOf,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";
import { listen, type Listening } from "../../support/servers.js";
import { selfSignedCertificate } from "../../support/tls.js";

type Capabilities = {
  streaming?: boolean;
  pushNotifications?: boolean;
  extendedAgentCard?: boolean;
};
type Principal = { user: string };

/** "task …" completes a task with an artifact; anything else is answered with a Message. */
const executor: A2AExecutor<Principal | undefined> = {
  async execute(request, emitter) {
    const text = textOf(request.message);
    tenantsSeen.push(request.call.tenant);
    if (!text.startsWith("task"))
      return emitter.reply({ parts: [{ content: { case: "text", value: `echo: ${text}` } }] });
    await emitter.working();
    await emitter.addArtifact(
      { artifactId: "a1", parts: [{ content: { case: "text", value: text } }] },
      { lastChunk: true },
    );
    await emitter.complete();
  },
};
const tenantsSeen: string[] = [];

function cardOf(capabilities: Capabilities, extended = false): AgentCard {
  return create(AgentCardSchema, {
    name: "agent-client test agent",
    description: "serves the connectA2AService tests",
    version: "1.0.0",
    capabilities,
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      { id: "echo", name: "Echo", description: "echoes", tags: ["echo"] },
      ...(extended
        ? [
            {
              id: "extended",
              name: "Extended",
              description: "on the extended card only",
              tags: ["x"],
            },
          ]
        : []),
    ],
  });
}

/** A running agent: every binding over one task handler; the card is whatever `cardJson` returns. */
interface TestAgent {
  readonly origin: string;
  readonly cardUrl: string;
  readonly grpcAddress: string;
  readonly interfaces: JsonObject[];
  /** Requests that reached a binding endpoint (HTTP: any request under /a2a; gRPC and HTTP: authenticate calls). */
  readonly counts: { http: number; auth: number };
  /** The card with every interface, as started. */
  readonly initialCard: JsonObject;
  /** What /.well-known/agent-card.json answers: a card, or a status and body. */
  card: JsonObject | { status: number; body: string };
  close(): Promise<void>;
}

async function startAgent(options: {
  server: Capabilities;
  card: Capabilities;
  tls?: { key: string; cert: string };
}): Promise<TestAgent> {
  const handler = createA2ATaskHandler<Principal | undefined>({
    executor,
    capabilities: options.server,
    extendedAgentCard: cardOf(
      { streaming: true, pushNotifications: true, extendedAgentCard: true },
      true,
    ),
  });
  const counts = { http: 0, auth: 0 };
  const authenticate = ({ serviceParameters }: AuthRequest): Principal | undefined => {
    counts.auth++;
    const header = serviceParameters.get("authorization");
    if (header === undefined) return undefined;
    if (header !== "Bearer secret") throw new UnauthenticatedError("bad token");
    return { user: "alice" };
  };
  const serverOptions = { authenticate, versionWhenMissing: "1.0" };
  const grpc = await listenA2AServiceGrpc(handler, {
    ...serverOptions,
    listen: {
      host: "127.0.0.1",
      port: 0,
      ...(options.tls === undefined ? {} : { tls: options.tls }),
    },
  });
  const jsonrpc = createA2AServiceJsonRpcServer(handler, serverOptions);
  const rest = createA2AServiceRestServer(handler, { ...serverOptions, basePath: "/a2a/rest" });
  let agent: TestAgent;
  const bindings = composeHandlers(
    { prefix: "/a2a/jsonrpc", handler: jsonrpc.handler },
    { prefix: "/a2a/rest", handler: rest.handler },
  );
  const node = serveNode(bindings);
  const server: Listening = await listen((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (path.startsWith("/a2a/")) {
      counts.http++;
      return node(req, res);
    }
    if (path === "/.well-known/agent-card.json") {
      const card = agent.card;
      if ("status" in card && typeof card["status"] === "number") {
        res
          .writeHead(card["status"], { "content-type": "application/json" })
          .end(String(card["body"]));
        return;
      }
      serveNode(serveAgentCard(card as JsonObject, { path }))(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const interfaces = buildSupportedInterfaces({
    baseUrl: origin,
    jsonRpcPath: "/a2a/jsonrpc",
    restPath: "/a2a/rest",
    grpcAddress: grpc.address,
  }) as unknown as JsonObject[];
  const initialCard = {
    ...(toJson(AgentCardSchema, cardOf(options.card)) as JsonObject),
    supportedInterfaces: interfaces,
  };
  agent = {
    origin,
    cardUrl: `${origin}/.well-known/agent-card.json`,
    grpcAddress: grpc.address,
    interfaces,
    counts,
    initialCard,
    card: initialCard,
    close: async () => {
      await Promise.all([server.close(), grpc.close()]);
    },
  };
  return agent;
}

/** The card of `agent` with other interfaces. */
function withInterfaces(agent: TestAgent, interfaces: JsonObject[]): JsonObject {
  return { ...agent.initialCard, supportedInterfaces: interfaces };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

const bindings: A2AServiceBinding[] = ["JSONRPC", "HTTP+JSON", "GRPC"];

describe("connectA2AService against an agent on all three bindings", () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startAgent({
      server: { streaming: true, pushNotifications: true, extendedAgentCard: true },
      card: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    });
  });
  afterAll(() => agent.close());
  beforeEach(() => {
    agent.card = agent.initialCard;
  });

  it.each(bindings)(
    "bindings: [%s] selects that interface; SendMessage and GetTask go through it",
    async (binding) => {
      agent.card = agent.initialCard;
      const connection = await connectA2AService(agent.cardUrl, { bindings: [binding] });
      const declared = agent.interfaces.find((i) => i["protocolBinding"] === binding)!;
      expect(connection.interface).toMatchObject({
        protocolBinding: binding,
        url: declared["url"],
        protocolVersion: "1.0",
        tenant: "",
      });
      expect(connection.card.name).toBe("agent-client test agent");
      expect(connection.cardUrl).toBe(agent.cardUrl);
      const before = { ...agent.counts };
      const sent = await connection.client.sendMessage(sendRequest(`task via ${binding}`));
      expect(sent.payload.case).toBe("task");
      const id = sent.payload.case === "task" ? sent.payload.value.id : "";
      const task = await connection.client.getTask({ id });
      expect(task.status?.state).toBe(TaskState.COMPLETED);
      expect(task.artifacts[0]?.parts[0]?.content.value).toBe(`task via ${binding}`);
      const reply = await connection.client.sendMessage(sendRequest("hi"));
      expect(reply.payload.case === "message" ? textOf(reply.payload.value) : "").toBe("echo: hi");
      expect(agent.counts.auth - before.auth).toBe(3);
      expect(agent.counts.http - before.http).toBe(binding === "GRPC" ? 0 : 3);
      const events = await collect(
        connection.client.sendStreamingMessage(sendRequest("task streamed")),
      );
      expect(events.at(-1)?.payload.case).toBe("statusUpdate");
    },
  );

  it("without options takes the card's first entry (§8.3.2), whatever the client's order", async () => {
    agent.card = agent.initialCard;
    expect((await connectA2AService(agent.cardUrl)).interface.protocolBinding).toBe("JSONRPC");
    expect(
      (await connectA2AService(agent.cardUrl, { bindings: ["GRPC", "HTTP+JSON"] })).interface
        .protocolBinding,
    ).toBe("HTTP+JSON");
    expect(
      (
        await connectA2AService(agent.cardUrl, {
          bindings: ["GRPC", "HTTP+JSON"],
          prefer: "bindings",
        })
      ).interface.protocolBinding,
    ).toBe("GRPC");
    agent.card = withInterfaces(agent, [...agent.interfaces].reverse());
    const grpcFirst = await connectA2AService(agent.cardUrl);
    expect(grpcFirst.interface).toMatchObject({
      protocolBinding: "GRPC",
      url: agent.grpcAddress,
      index: 0,
    });
    expect((await grpcFirst.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");
  });

  it("an origin alone means its well-known card; a card at hand is used as is", async () => {
    agent.card = agent.initialCard;
    const connection = await connectA2AService(agent.origin);
    expect(connection.cardUrl).toBe(agent.cardUrl);
    const card = connection.card;
    const again = await connectA2AService(card, { bindings: ["HTTP+JSON"] });
    expect(again.cardUrl).toBeUndefined();
    expect(again.card).toBe(card);
    expect((await again.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");
  });

  it('decodes leniently: unknown fields are ignored, "REST" is HTTP+JSON, relative HTTP URLs resolve against the card URL', async () => {
    const rest = agent.interfaces.find((i) => i["protocolBinding"] === "HTTP+JSON")!;
    agent.card = {
      ...withInterfaces(agent, [
        { url: "/a2a/rest", protocolBinding: "REST", protocolVersion: "1.0", futureField: true },
      ]),
      someFutureField: { nested: [1, 2] },
      capabilities: { streaming: true, somethingNew: true },
    };
    const connection = await connectA2AService(agent.cardUrl);
    expect(connection.interface).toMatchObject({ protocolBinding: "HTTP+JSON", url: rest["url"] });
    expect((await connection.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");
  });

  it("sets the interface's tenant in every request (§8.3.2)", async () => {
    agent.card = withInterfaces(
      agent,
      agent.interfaces.map((i) => ({ ...i, tenant: "acme" })),
    );
    for (const binding of bindings) {
      tenantsSeen.length = 0;
      const connection = await connectA2AService(agent.cardUrl, {
        bindings: [binding],
        tenant: "ignored",
      });
      expect(connection.interface.tenant).toBe("acme");
      const sent = await connection.client.sendMessage(sendRequest("task tenant"));
      expect(tenantsSeen, binding).toEqual(["acme"]);
      const id = sent.payload.case === "task" ? sent.payload.value.id : "";
      expect((await connection.client.getTask({ id })).id).toBe(id);
    }
    agent.card = agent.initialCard;
    tenantsSeen.length = 0;
    const connection = await connectA2AService(agent.cardUrl, { tenant: "mine" });
    await connection.client.sendMessage(sendRequest("hi"));
    expect(tenantsSeen).toEqual(["mine"]);
  });
});

describe("capability gating (ACTS CLIENT-CAP-001) and the extended card (CLIENT-AUTH-001)", () => {
  let agent: TestAgent;
  beforeAll(async () => {
    // The server would serve everything; the card declares nothing optional.
    agent = await startAgent({
      server: { streaming: true, pushNotifications: true, extendedAgentCard: true },
      card: {},
    });
  });
  afterAll(() => agent.close());
  beforeEach(() => {
    agent.card = agent.initialCard;
  });

  const gated = [
    [
      "sendStreamingMessage",
      UnsupportedOperationError,
      (c: Client) => collect(c.sendStreamingMessage(sendRequest("hi"))),
    ],
    [
      "subscribeToTask",
      UnsupportedOperationError,
      (c: Client) => collect(c.subscribeToTask({ id: "t" })),
    ],
    [
      "createTaskPushNotificationConfig",
      PushNotificationNotSupportedError,
      (c: Client) =>
        c.createTaskPushNotificationConfig({ taskId: "t", url: "https://example.com/hook" }),
    ],
    [
      "getTaskPushNotificationConfig",
      PushNotificationNotSupportedError,
      (c: Client) => c.getTaskPushNotificationConfig({ taskId: "t", id: "c" }),
    ],
    [
      "listTaskPushNotificationConfigs",
      PushNotificationNotSupportedError,
      (c: Client) => c.listTaskPushNotificationConfigs({ taskId: "t" }),
    ],
    [
      "deleteTaskPushNotificationConfig",
      PushNotificationNotSupportedError,
      (c: Client) => c.deleteTaskPushNotificationConfig({ taskId: "t", id: "c" }),
    ],
    ["getExtendedAgentCard", UnsupportedOperationError, (c: Client) => c.getExtendedAgentCard({})],
  ] as const;
  type Client = Awaited<ReturnType<typeof connectA2AService>>["client"];

  it.each(bindings)(
    "over %s, each gated operation throws its error class and sends nothing",
    async (binding) => {
      const connection = await connectA2AService(agent.cardUrl, {
        bindings: [binding],
        headers: { authorization: "Bearer secret" },
      });
      const before = { ...agent.counts };
      for (const [name, errorClass, call] of gated) {
        const error = await failure(call(connection.client));
        expect(error, name).toBeInstanceOf(errorClass);
        expect((error as Error).message, name).toMatch(
          /was not sent: the agent's card does not declare capabilities\.\w+/,
        );
      }
      expect(agent.counts).toEqual(before);
      // Ungated operations still go out.
      await connection.client.sendMessage(sendRequest("hi"));
      expect(agent.counts.auth).toBe(before.auth + 1);
    },
  );

  it("checkCapabilities: false sends them", async () => {
    const connection = await connectA2AService(agent.cardUrl, { checkCapabilities: false });
    const before = agent.counts.auth;
    const events = await collect(
      connection.client.sendStreamingMessage(sendRequest("task streamed")),
    );
    expect(events.length).toBeGreaterThan(1);
    expect(agent.counts.auth).toBe(before + 1);
  });

  it.each(bindings)(
    "over %s, GetExtendedAgentCard replaces the card, and gating follows its capabilities",
    async (binding) => {
      agent.card = { ...agent.initialCard, capabilities: { extendedAgentCard: true } };
      const connection = await connectA2AService(agent.cardUrl, {
        bindings: [binding],
        headers: { authorization: "Bearer secret" },
      });
      const publicCard = connection.card;
      expect(connection.supports("streaming")).toBe(false);
      expect(
        await failure(collect(connection.client.sendStreamingMessage(sendRequest("hi")))),
      ).toBeInstanceOf(UnsupportedOperationError);
      const extended = await connection.client.getExtendedAgentCard({});
      expect(connection.card).toBe(extended);
      expect(connection.card).not.toBe(publicCard);
      expect(connection.card.skills.map((s) => s.id)).toContain("extended");
      expect(connection.supports("streaming")).toBe(true);
      const events = await collect(
        connection.client.sendStreamingMessage(sendRequest("task streamed")),
      );
      expect(events.at(-1)?.payload.case).toBe("statusUpdate");
      const config = await connection.client.createTaskPushNotificationConfig({
        taskId: events[0]?.payload.case === "task" ? events[0].payload.value.id : "",
        url: "https://example.com/hook",
      });
      expect(config.url).toBe("https://example.com/hook");
      expect(connection.interface.protocolBinding).toBe(binding);
    },
  );

  it("a failed GetExtendedAgentCard keeps the public card", async () => {
    agent.card = { ...agent.initialCard, capabilities: { extendedAgentCard: true } };
    const connection = await connectA2AService(agent.cardUrl);
    const publicCard = connection.card;
    expect(await failure(connection.client.getExtendedAgentCard({}))).toBeInstanceOf(
      UnauthenticatedError,
    );
    expect(connection.card).toBe(publicCard);
  });
});

describe("connect failures are AgentConnectErrors", () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startAgent({ server: {}, card: {} });
  });
  afterAll(() => agent.close());
  beforeEach(() => {
    agent.card = agent.initialCard;
  });

  async function connectError(
    source: string,
    options?: Parameters<typeof connectA2AService>[1],
  ): Promise<AgentConnectError> {
    const error = await failure(connectA2AService(source, options));
    expect(error).toBeInstanceOf(AgentConnectError);
    expect(error).not.toBeInstanceOf(TypeError);
    return error as AgentConnectError;
  }

  it("no interface fits: binding not wanted, major version not 1, no supportedInterfaces (v0.3 card)", async () => {
    const grpc = agent.interfaces.find((i) => i["protocolBinding"] === "GRPC")!;
    agent.card = withInterfaces(agent, [
      grpc,
      {
        url: "wss://x.example/ws",
        protocolBinding: "https://example.com/bindings/websocket/v1",
        protocolVersion: "1.0",
      },
    ]);
    let e = await connectError(agent.cardUrl, { bindings: ["JSONRPC", "HTTP+JSON"] });
    expect(e.reason).toBe("no-matching-interface");
    expect(e.message).toMatch(/supportedInterfaces\[0\] \(GRPC .*\): binding not wanted/);
    expect(e.cardUrl).toBe(agent.cardUrl);
    agent.card = withInterfaces(
      agent,
      agent.interfaces.map((i) => ({ ...i, protocolVersion: "2.0" })),
    );
    e = await connectError(agent.cardUrl);
    expect(e.reason).toBe("no-matching-interface");
    expect(e.message).toContain('protocolVersion "2.0" is not 1.x');
    // A 0.3-only card: the generated client connects to it (test/e2e/v0_3/client.test.ts), unless 1.0 is required.
    agent.card = {
      name: "old",
      url: `${agent.origin}/a2a/jsonrpc`,
      preferredTransport: "JSONRPC",
      protocolVersion: "0.3.0",
    };
    e = await connectError(agent.cardUrl, { protocolVersions: ["1.0"] });
    expect(e.reason).toBe("no-matching-interface");
    expect(e.message).toContain("only offers A2A 0.3");
    agent.card = withInterfaces(agent, [
      { url: "not a url", protocolBinding: "GRPC", protocolVersion: "1.0" },
    ]);
    expect((await connectError(agent.cardUrl)).message).toMatch(/unusable url/);
  });

  it("a malformed card: not JSON, not an object, wrong field types", async () => {
    for (const body of [
      "<html>oops</html>",
      "[1, 2]",
      "null",
      JSON.stringify({ supportedInterfaces: "JSONRPC" }),
      JSON.stringify({ capabilities: { streaming: "yes" } }),
    ]) {
      agent.card = { status: 200, body };
      const e = await connectError(agent.cardUrl);
      expect(e.reason, body).toBe("card-malformed");
    }
  });

  it("a card URL answering 404", async () => {
    const e = await connectError(`${agent.origin}/nothing-here.json`);
    expect(e).toMatchObject({ reason: "card-http-status", status: 404 });
    agent.card = { status: 503, body: "busy" };
    expect(await connectError(agent.cardUrl)).toMatchObject({
      reason: "card-http-status",
      status: 503,
    });
  });

  it("an unreachable host, a timeout, a bad card URL", async () => {
    const closed = await listen((_req, res) => res.end());
    await closed.close();
    const e = await connectError(`http://127.0.0.1:${closed.port}/.well-known/agent-card.json`);
    expect(e.reason).toBe("card-fetch-failed");
    expect(e.cause).toBeInstanceOf(TypeError);
    const silent = await listen(() => {});
    try {
      const t = await connectError(silent.url, { cardTimeoutMs: 100 });
      expect(t.reason).toBe("card-fetch-failed");
      expect(t.message).toContain("timed out after 100 ms");
      const abort = new AbortController();
      const pending = failure(connectA2AService(silent.url, { signal: abort.signal }));
      abort.abort(new Error("stop"));
      expect(await pending).toEqual(new Error("stop"));
    } finally {
      await silent.close();
    }
    expect((await connectError("agent.example.com")).reason).toBe("card-fetch-failed");
    expect((await connectError("ftp://agent.example.com/card.json")).reason).toBe(
      "card-fetch-failed",
    );
  });

  it("bindings this output does not have", async () => {
    const e = await connectError(agent.cardUrl, { bindings: ["SOAP" as A2AServiceBinding] });
    expect(e.reason).toBe("no-matching-interface");
  });

  it("uses the caller's fetch, with Accept: application/json and the card headers only", async () => {
    const seen: { url: string; headers: Headers }[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers) });
      return globalThis.fetch(input, init);
    };
    const connection = await connectA2AService(agent.cardUrl, {
      fetch,
      cardHeaders: { "x-card": "1" },
      headers: { "x-call": "2" },
    });
    expect(seen[0]?.url).toBe(agent.cardUrl);
    expect(seen[0]?.headers.get("accept")).toBe("application/json");
    expect(seen[0]?.headers.get("x-card")).toBe("1");
    expect(seen[0]?.headers.has("x-call")).toBe(false);
    await connection.client.sendMessage(sendRequest("hi"));
    expect(seen[1]?.url).toBe(`${agent.origin}/a2a/jsonrpc`);
    expect(seen[1]?.headers.get("x-call")).toBe("2");
  });
});

describe("gRPC interface addresses: host:port and URL forms (CHECKLIST K1)", () => {
  const tls = selfSignedCertificate();
  let plain: TestAgent;
  let secure: TestAgent;
  beforeAll(async () => {
    plain = await startAgent({ server: {}, card: {} });
    secure = await startAgent({ server: {}, card: {}, tls });
  });
  afterAll(() => Promise.all([plain.close(), secure.close()]));

  function grpcCard(agent: TestAgent, url: string): JsonObject {
    return withInterfaces(agent, [{ url, protocolBinding: "GRPC", protocolVersion: "1.0" }]);
  }

  it("host:port (h2c) and http:// / grpc:// URLs", async () => {
    const port = plain.grpcAddress.split(":").at(-1)!;
    for (const url of [
      plain.grpcAddress,
      `http://127.0.0.1:${port}`,
      `grpc://127.0.0.1:${port}/a2a/grpc`,
    ]) {
      plain.card = grpcCard(plain, url);
      const connection = await connectA2AService(plain.cardUrl);
      expect(connection.interface).toMatchObject({ protocolBinding: "GRPC", url });
      expect((await connection.client.sendMessage(sendRequest("hi"))).payload.case, url).toBe(
        "message",
      );
    }
  });

  it("an https:// URL means TLS on host:port; host:port with grpc.tls", async () => {
    const port = secure.grpcAddress.split(":").at(-1)!;
    const grpc = { transportOptions: { nodeOptions: { ca: tls.cert } } };
    secure.card = grpcCard(secure, `https://127.0.0.1:${port}/a2a/grpc`);
    const viaUrl = await connectA2AService(secure.cardUrl, { grpc });
    expect((await viaUrl.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");
    secure.card = grpcCard(secure, `127.0.0.1:${port}`);
    const viaHostPort = await connectA2AService(secure.cardUrl, { grpc: { ...grpc, tls: true } });
    expect((await viaHostPort.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");
  });

  it("selectInterface reduces URL forms to host:port and reads TLS from the scheme", () => {
    const card = {
      supportedInterfaces: [
        {
          url: "https://grpc.example.com/a2a",
          protocolBinding: "GRPC",
          protocolVersion: "1.0",
          tenant: "",
        },
        {
          url: "grpc.example.com:8443",
          protocolBinding: "GRPC",
          protocolVersion: "1.0",
          tenant: "",
        },
        {
          url: "grpcs://grpc.example.com",
          protocolBinding: "GRPC",
          protocolVersion: "1.0",
          tenant: "",
        },
      ],
    };
    const targets = [0, 1, 2].map(
      (i) =>
        selectInterface({ supportedInterfaces: [card.supportedInterfaces[i]!] }, ["GRPC"]).target,
    );
    expect(targets.map((t) => [t?.address, t?.tls])).toEqual([
      ["grpc.example.com:443", true],
      ["grpc.example.com:8443", undefined],
      ["grpc.example.com:443", true],
    ]);
  });

  it("selectInterface: a custom binding's interface is skipped unless wanted as custom; then any scheme, relative URLs resolved, TLS from the scheme", () => {
    const uri = "https://example.com/bindings/websocket/v1";
    const entry = (url: string) => ({
      url,
      protocolBinding: uri,
      protocolVersion: "1.0",
      tenant: "",
    });
    const card = {
      supportedInterfaces: [
        entry("wss://a.example/ws"),
        {
          url: "https://a.example/rpc",
          protocolBinding: "JSONRPC",
          protocolVersion: "1.0",
          tenant: "",
        },
      ],
    };
    const skipping = selectInterface(card, ["JSONRPC"]);
    expect(skipping.target?.protocolBinding).toBe("JSONRPC");
    expect(skipping.skipped).toEqual([
      `supportedInterfaces[0] (${uri} "wss://a.example/ws"): a binding this client does not know (give a transport for "${uri}" to use it)`,
    ]);
    expect(selectInterface(card, ["JSONRPC", uri], { custom: [uri] }).target).toMatchObject({
      protocolBinding: uri,
      address: "wss://a.example/ws",
      tls: true,
      index: 0,
    });
    expect(
      selectInterface({ supportedInterfaces: [entry("/a2a/ws")] }, [uri], {
        custom: [uri],
        cardUrl: "http://a.example/.well-known/agent-card.json",
      }).target,
    ).toMatchObject({
      address: "http://a.example/a2a/ws",
      tls: false,
    });
    const unusable = selectInterface({ supportedInterfaces: [entry("/a2a/ws")] }, [uri], {
      custom: [uri],
    });
    expect([unusable.target, unusable.skipped[0]]).toEqual([
      undefined,
      expect.stringMatching(/unusable url$/),
    ]);
  });

  it("connectA2AService uses options.transports for a custom binding the card lists first, and skips it otherwise", async () => {
    const uri = "https://example.com/bindings/websocket/v1";
    const cardWithCustom = fromJson(AgentCardSchema, {
      ...plain.initialCard,
      supportedInterfaces: [
        { url: "ws://127.0.0.1:9/ws", protocolBinding: uri, protocolVersion: "1.0" },
        ...plain.interfaces,
      ],
    });
    const seen: { address: string; tenant: string | undefined; headers: unknown }[] = [];
    const inner = new A2AServiceJsonRpcClient({ url: String(plain.interfaces[0]!["url"]) });
    const viaCustom = await connectA2AService(cardWithCustom, {
      headers: { "x-test": "1" },
      transports: {
        [uri]: (target, options) => {
          seen.push({ address: target.address, tenant: options.tenant, headers: options.headers });
          return inner;
        },
      },
    });
    expect(viaCustom.interface).toMatchObject({ protocolBinding: uri, index: 0 });
    expect(seen).toEqual([
      { address: "ws://127.0.0.1:9/ws", tenant: undefined, headers: { "x-test": "1" } },
    ]);
    expect((await viaCustom.client.sendMessage(sendRequest("hi"))).payload.case).toBe("message");
    const without = await connectA2AService(cardWithCustom);
    expect(without.interface).toMatchObject({ protocolBinding: "JSONRPC", index: 1 });
  });
});
