/**
 * The checks every framework adapter (runtime/src/frameworks: Express, Fastify, Hono, Next.js) passes:
 * the generated JSON-RPC and HTTP+JSON servers and the Agent Card, composed into one handler mounted
 * under /a2a (the card at /.well-known/agent-card.json), called with the generated clients (and
 * connectA2AService from the card) through the framework: SendMessage, GetTask, streams with every
 * event and without buffering, malformed requests answered spec-shaped, the framework's own route
 * still answering.
 */
import type { Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { create, toJson, type JsonObject } from "@bufbuild/protobuf";
import { expect, it } from "vitest";
import { AgentCardSchema, Role, TaskState } from "../../generated-example/gen/a2a_pb.js";
import { connectA2AService } from "../../generated-example/gen/a2a_a2a_agent_client.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceRestClient } from "../../generated-example/gen/a2a_a2a_rest_client.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import type { A2AServiceClient } from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  buildSupportedInterfaces,
  composeHandlers,
  serveAgentCard,
  type UniversalHandler,
} from "@protoc-gen-a2a/runtime/http";
import { TestAgent } from "./test-agent.js";
import { eventually } from "./servers.js";

/** A body limit small enough to cross in a test. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The A2A side of a test server: one composed handler, and the agent behind it. */
export interface A2AMount {
  readonly agent: TestAgent;
  /** The card (at /.well-known/agent-card.json), JSON-RPC (/a2a/jsonrpc), HTTP+JSON (/a2a/rest) and /a2a/big, an endless stream. */
  readonly handler: UniversalHandler;
  /** Sets where the server listens, for the card's interfaces (before any request). */
  setOrigin(origin: string): void;
  /** /a2a/big: chunks pulled, and whether the stream was ended (returned). */
  readonly big: { pulled: number; returned: boolean };
}

export function a2aMount(): A2AMount {
  const agent = new TestAgent();
  const options = { maxBodyBytes: MAX_BODY_BYTES, keepAliveMs: 0 };
  const jsonrpc = createA2AServiceJsonRpcServer(agent, options);
  const rest = createA2AServiceRestServer(agent, { ...options, basePath: "/a2a/rest" });
  let card: UniversalHandler | undefined;
  const big = { pulled: 0, returned: false };
  const chunk = "x".repeat(64 * 1024);
  const bigHandler: UniversalHandler = async () => ({
    status: 200,
    headers: [["content-type", "text/event-stream"]],
    stream: (async function* () {
      try {
        for (;;) {
          big.pulled++;
          yield chunk;
        }
      } finally {
        big.returned = true;
      }
    })(),
  });
  const handler = composeHandlers(
    { prefix: "/.well-known/agent-card.json", handler: (request) => card!(request) },
    { prefix: "/a2a/jsonrpc", handler: jsonrpc.handler },
    { prefix: "/a2a/rest", handler: rest.handler },
    { prefix: "/a2a/big", handler: bigHandler },
  );
  return {
    agent,
    handler,
    big,
    setOrigin(origin) {
      const json = toJson(
        AgentCardSchema,
        create(AgentCardSchema, {
          name: "framework test agent",
          description: "served through a web framework",
          version: "1.0.0",
          capabilities: { streaming: true },
          defaultInputModes: ["text/plain"],
          defaultOutputModes: ["text/plain"],
          skills: [{ id: "echo", name: "Echo", description: "echoes", tags: ["echo"] }],
        }),
      ) as JsonObject;
      json["supportedInterfaces"] = buildSupportedInterfaces({
        baseUrl: origin,
        jsonRpcPath: "/a2a/jsonrpc",
        restPath: "/a2a/rest",
      });
      card = serveAgentCard(json);
    },
  };
}

/** A running framework app serving an {@link A2AMount}. */
export interface FrameworkApp {
  /** "http://127.0.0.1:port" (Next.js: a made-up origin, `fetch` goes in process). */
  readonly origin: string;
  /** The fetch the clients use: the global one, or Next.js's route handlers called in process. */
  readonly fetch: typeof globalThis.fetch;
  /** What it serves. */
  readonly mount: A2AMount;
  /** A GET route of the framework's own, and what it answers. */
  readonly ownRoute: { readonly path: string; readonly body: string };
  close(): Promise<void>;
}

export const userMessage = (text: string) => ({
  message: {
    messageId: `m-${text}-${Math.random()}`,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});

/** A JSON-RPC request body. */
export const jsonRpcBody = (method: string, params: unknown, id: unknown = 1): string =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** SendMessage's params as JSON. */
export const sendParams = (text: string) => ({
  message: { messageId: `m-${text}`, role: "ROLE_USER", parts: [{ text }] },
});

/**
 * Declares the shared tests (inside the caller's describe): `app()` is the app started in the
 * caller's beforeAll.
 */
export function frameworkSuite(app: () => FrameworkApp): void {
  const clients = (): Record<"JSONRPC" | "HTTP+JSON", A2AServiceClient> => {
    const { origin, fetch } = app();
    return {
      JSONRPC: new A2AServiceJsonRpcClient({ url: `${origin}/a2a/jsonrpc`, fetch }),
      "HTTP+JSON": new A2AServiceRestClient({ url: `${origin}/a2a/rest`, fetch }),
    };
  };

  for (const binding of ["JSONRPC", "HTTP+JSON"] as const) {
    it(`${binding}: SendMessage, GetTask`, async () => {
      const client = clients()[binding];
      const sent = await client.sendMessage(userMessage("task"));
      expect(sent.payload.case).toBe("task");
      if (sent.payload.case === "task")
        expect(sent.payload.value.status?.state).toBe(TaskState.COMPLETED);
      const echoed = await client.sendMessage(userMessage("hello"));
      expect(
        echoed.payload.case === "message" ? echoed.payload.value.parts[0]?.content : undefined,
      ).toEqual({ case: "text", value: "hello" });
      const task = await client.getTask({ id: "t-7" });
      expect(task.id).toBe("t-7");
    });

    it(`${binding}: SendStreamingMessage receives every event, in order`, async () => {
      const client = clients()[binding];
      const cases: string[] = [];
      for await (const event of client.sendStreamingMessage(userMessage("stream me")))
        cases.push(event.payload.case ?? "none");
      expect(cases).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
      const texts: string[] = [];
      for await (const event of client.sendStreamingMessage(userMessage("count 300"))) {
        if (
          event.payload.case === "message" &&
          event.payload.value.parts[0]?.content.case === "text"
        )
          texts.push(event.payload.value.parts[0].content.value);
      }
      expect(texts).toEqual(Array.from({ length: 300 }, (_, i) => `event ${i}`));
    });

    it(`${binding}: a stream's events arrive as they are produced (no buffering), and a client that leaves ends the handler's stream`, async () => {
      const { agent } = app().mount;
      agent.streamFinally = false;
      const client = clients()[binding];
      const controller = new AbortController();
      // "slow" yields a task, then waits for the client to leave: a buffering framework would never deliver it.
      for await (const event of client.sendStreamingMessage(userMessage("slow"), {
        signal: controller.signal,
      })) {
        expect(event.payload.case).toBe("task");
        controller.abort();
        break;
      }
      await eventually(() => agent.streamFinally, 5_000);
    });
  }

  it("the Agent Card: GET with caching headers, HEAD, and connectA2AService from it on both bindings", async () => {
    const { origin, fetch } = app();
    const got = await fetch(`${origin}/.well-known/agent-card.json`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/json");
    expect(got.headers.get("etag")).toMatch(/^"/);
    const card = (await got.json()) as {
      name: string;
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    expect(card.name).toBe("framework test agent");
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual([
      ["JSONRPC", `${origin}/a2a/jsonrpc`],
      ["HTTP+JSON", `${origin}/a2a/rest`],
    ]);
    const head = await fetch(`${origin}/.well-known/agent-card.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const notModified = await fetch(`${origin}/.well-known/agent-card.json`, {
      headers: { "if-none-match": got.headers.get("etag")! },
    });
    expect(notModified.status).toBe(304);
    for (const binding of ["JSONRPC", "HTTP+JSON"] as const) {
      const connection = await connectA2AService(`${origin}/`, { bindings: [binding], fetch });
      expect(connection.interface.protocolBinding).toBe(binding);
      const reply = await connection.client.sendMessage(userMessage("via card"));
      expect(reply.payload.case).toBe("message");
    }
  });

  it("malformed requests get the binding's spec-shaped errors, never the framework's", async () => {
    const { origin, fetch } = app();
    const jsonrpc = `${origin}/a2a/jsonrpc`;
    const parse = await fetch(jsonrpc, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: "{not json",
    });
    expect(parse.status).toBe(200);
    expect(await parse.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    const envelope = await fetch(jsonrpc, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: '{"jsonrpc":"1.0","id":1}',
    });
    expect(await envelope.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    const noType = await fetch(jsonrpc, {
      method: "POST",
      headers: { "a2a-version": "1.0" },
      body: new Uint8Array(Buffer.from(jsonRpcBody("SendMessage", sendParams("x")))),
    });
    expect(await noType.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32005 } });
    const get = await fetch(jsonrpc);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const tooLarge = await fetch(jsonrpc, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: jsonRpcBody("SendMessage", sendParams("x".repeat(MAX_BODY_BYTES))),
    });
    expect(await tooLarge.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32600, message: expect.stringContaining(`limit of ${MAX_BODY_BYTES} bytes`) },
    });

    const rest = await fetch(`${origin}/a2a/rest/message:send`, {
      method: "POST",
      headers: { "content-type": "application/a2a+json", "a2a-version": "1.0" },
      body: "{oops",
    });
    expect(rest.status).toBe(400);
    expect(rest.headers.get("content-type")).toMatch(/json/);
    expect(await rest.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const missing = await fetch(`${origin}/a2a/rest/tasks/missing`, {
      headers: { "a2a-version": "1.0" },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404 } });
    const unknown = await fetch(`${origin}/a2a/nowhere`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
  });

  it("the framework's own route next to the A2A mount still answers", async () => {
    const { origin, fetch, ownRoute } = app();
    const own = await fetch(`${origin}${ownRoute.path}`);
    expect(own.status).toBe(200);
    expect(await own.text()).toBe(ownRoute.body);
  });
}

/**
 * A client that asks for an endless stream (/a2a/big) and reads nothing: serveNode's write timeout
 * (`stalledWriteTimeoutMs` of the adapter's options) cuts the connection, and the stream is ended.
 * `serverSockets`: the app server's sockets (one of them closes).
 */
export async function stalledReaderIsCut(
  origin: string,
  serverSockets: Set<Socket>,
  big: A2AMount["big"],
): Promise<void> {
  const { port } = new URL(origin);
  const before = new Set(serverSockets);
  const client = connect(Number(port), "127.0.0.1");
  client.on("error", () => {});
  await new Promise<void>((resolve) => client.once("connect", resolve));
  client.write(`GET /a2a/big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  client.pause(); // reads nothing: the kernel buffers fill, then serveNode's buffer
  await eventually(() => [...serverSockets].some((s) => !before.has(s)), 5_000);
  const serverSide = [...serverSockets].find((s) => !before.has(s))!;
  const closed = new Promise<void>((resolve) => serverSide.once("close", () => resolve()));
  await closed;
  await eventually(() => big.returned, 5_000);
  expect(big.pulled).toBeGreaterThan(1);
  client.destroy();
}

/** Listens on 127.0.0.1 (a free port) and destroys the sockets on close. */
export async function listenServer(
  server: Server,
): Promise<{ origin: string; sockets: Set<Socket>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  if (!server.listening)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
