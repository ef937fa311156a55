import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  create,
  equals,
  toJson,
  type DescMessage,
  type DescService,
  type Message,
} from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufGenTemplate } from "../../support/buf-gen-template.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { listen, type Listening } from "../../support/servers.js";
import { typeCheck } from "../../support/type-check.js";

/**
 * End to end over protos that are not A2A: the googleapis library example, Pub/Sub (with a
 * bidi RPC, skipped) and google.longrunning, plus test/fixtures/googleapis (path fields of every
 * scalar kind, nested path fields, `**`, `body: "field"` with the rest in the query, proto2
 * `required`). Generated with buf (protoc-gen-es + the bundled plugin) into test/.tmp; every RPC
 * with an HTTP binding is called through the generated REST client against the generated REST
 * server on 127.0.0.1, and the server must receive exactly the request the client sent.
 */
const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
let tmp: string;
let out: string;
let notices: string;

/** Runs buf generate over one input with protoc-gen-es and the bundled plugin; returns the plugin's stderr (the notices). */
function generate(name: string, input: readonly string[]): string {
  const template = join(tmp, `${name}.gen.yaml`);
  writeFileSync(
    template,
    bufGenTemplate({
      inputs: input,
      out: relative(repoRoot, out),
      options: ["import_extension=js"],
    }),
  );
  const run = spawnSync(buf, ["generate", "--template", template], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`buf generate failed: ${run.stderr}`);
  return run.stderr;
}

beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  tmp = mkdtempSync(join(repoRoot, "test/.tmp/googleapis-"));
  out = join(tmp, "out");
  // The fixtures import google/api/*: one directory input holding both.
  const protos = relative(repoRoot, join(tmp, "protos"));
  cpSync(join(repoRoot, gp, "google/api"), join(repoRoot, protos, "google/api"), {
    recursive: true,
  });
  cpSync(join(repoRoot, "test/fixtures/googleapis"), join(repoRoot, protos), { recursive: true });
  notices =
    generate("googleapis", [
      `  - directory: ${gp}`,
      `    paths: [${gp}/google/example/library/v1/library.proto, ${gp}/google/pubsub/v1/pubsub.proto, ${gp}/google/longrunning/operations.proto, ${gp}/google/rpc/error_details.proto]`,
    ]) +
    generate("fixtures", [
      `  - directory: ${protos}`,
      `    paths: [${protos}/paths, ${protos}/legacy]`,
    ]);
}, 60_000);

afterAll(() => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

interface OperationInfo {
  readonly name: string;
  readonly localName: string;
  readonly input: DescMessage;
  readonly output: DescMessage;
}

interface Generated {
  readonly ops: Readonly<Record<string, OperationInfo>>;
  readonly createServer: (handler: object) => { node: Parameters<typeof listen>[0] };
  readonly Client: new (options: {
    url: string;
  }) => Record<string, (request: unknown) => Promise<unknown>>;
  readonly routes: { routes: readonly { operation: string; method: string; template: string }[] };
  readonly errors: Record<string, unknown>;
}

async function load(base: string, service: string): Promise<Generated> {
  const imp = (suffix: string) =>
    import(pathToFileURL(join(out, `${base}${suffix}`)).href) as Promise<Record<string, unknown>>;
  const [handler, server, client, routes, errors] = await Promise.all([
    imp("_a2a_handler.ts"),
    imp("_a2a_rest_server.ts"),
    imp("_a2a_rest_client.ts"),
    imp("_a2a_rest_routes.ts"),
    imp("_a2a_errors.ts"),
  ]);
  return {
    ops: handler[`${service}Operations`] as Generated["ops"],
    createServer: server[`create${service}RestServer`] as Generated["createServer"],
    Client: client[`${service}RestClient`] as Generated["Client"],
    routes: routes[`${service}Routes`] as Generated["routes"],
    errors,
  };
}

interface Running {
  readonly g: Generated;
  readonly received: { op: string; request: Message }[];
  readonly client: Record<string, (request: unknown) => Promise<unknown>>;
  readonly http: Listening;
  readonly called: Set<string>;
}

/** Serves a handler that records every request and answers the output's default (or `reply`). */
async function start(
  g: Generated,
  reply: (op: OperationInfo) => Message = (op) => create(op.output),
): Promise<Running> {
  const received: { op: string; request: Message }[] = [];
  const handler = new Proxy(
    {},
    {
      get: (_t, key) => {
        if (typeof key !== "string" || g.ops[key] === undefined) return undefined;
        const op = g.ops[key];
        return async (request: Message) => {
          received.push({ op: key, request });
          return reply(op);
        };
      },
    },
  );
  const http = await listen(g.createServer(handler).node);
  return { g, received, client: new g.Client({ url: http.url }), http, called: new Set() };
}

/** Sends a request through the generated client; the server must get exactly it. */
async function expectDelivered(
  r: Running,
  localName: string,
  init: Record<string, unknown>,
  opts: { equalsCheck?: boolean } = {},
): Promise<void> {
  const op = r.g.ops[localName];
  if (op === undefined) throw new Error(`no operation ${localName}`);
  const sent = create(op.input, init as never);
  r.received.length = 0;
  await r.client[localName]!(sent);
  expect(r.received.map((x) => x.op)).toEqual([localName]);
  const got = r.received[0]!.request;
  expect(toJson(op.input, got), `${localName} ${JSON.stringify(toJson(op.input, sent))}`).toEqual(
    toJson(op.input, sent),
  );
  if (opts.equalsCheck !== false) expect(equals(op.input, got, sent)).toBe(true);
  r.called.add(op.name);
}

/** Every operation that has a route was called. */
function expectAllRoutedCalled(r: Running): void {
  const routed = new Set(r.g.routes.routes.map((x) => x.operation));
  expect([...routed].filter((o) => !r.called.has(o))).toEqual([]);
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}

async function raw(
  r: Running,
  method: string,
  path: string,
  body?: unknown,
): Promise<{
  status: number;
  json: {
    error?: {
      code: number;
      status: string;
      message: string;
      details: { "@type": string; reason?: string; fieldViolations?: { field: string }[] }[];
    };
  };
}> {
  const response = await fetch(new URL(path, r.http.url), {
    method,
    headers:
      body === undefined
        ? { "a2a-version": "1.0" }
        : { "a2a-version": "1.0", "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? {} : JSON.parse(text) };
}

function expectInvalidParams(res: Awaited<ReturnType<typeof raw>>, message: RegExp): void {
  expect(res.status).toBe(400);
  expect(res.json.error?.status).toBe("INVALID_ARGUMENT");
  expect(res.json.error?.message).toMatch(message);
  expect(
    res.json.error?.details.find((d) => d["@type"].endsWith("google.rpc.ErrorInfo"))?.reason,
  ).toBe("INVALID_PARAMS");
}

/** Connect routes on a node:http2 server (h2c) on 127.0.0.1. */
async function listenConnect(
  routes: Parameters<typeof import("@connectrpc/connect-node").connectNodeAdapter>[0]["routes"],
): Promise<{ address: string; close(): Promise<void> }> {
  const { connectNodeAdapter } = await import("@connectrpc/connect-node");
  const { createServer } = await import("node:http2");
  const server = createServer(connectNodeAdapter({ routes }));
  const sessions = new Set<import("node:http2").Http2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("generation", () => {
  it("skips the bidi StreamingPull of Pub/Sub and Chat of the fixture, with a notice naming each", () => {
    expect(notices).toMatch(
      /protoc-gen-a2a: notice: google\/pubsub\/v1\/pubsub\.proto: rpc google\.pubsub\.v1\.Subscriber\.StreamingPull: skipped: bidi streaming/,
    );
    expect(notices).toMatch(/rpc paths\.v1\.PathService\.Chat: skipped: bidi streaming/);
    expect(notices).toMatch(/rpc paths\.v1\.StreamOnlyService\.Stream: skipped: client streaming/);
  });
});

describe("the generated code", () => {
  it("type-checks under strict (every service, the skipped RPCs and the services without rules included)", () => {
    const files = readdirSync(out, { recursive: true, encoding: "utf8" })
      .filter((f) => /_a2a_[a-z_]+\.ts$/.test(f))
      .map((f) => join(out, f));
    expect(files.length).toBeGreaterThan(40);
    expect(typeCheck(files)).toEqual([]);
  }, 120_000);
});

describe("google/example/library/v1/library.proto", () => {
  let r: Running;
  beforeAll(async () => {
    r = await start(await load("google/example/library/v1/library", "LibraryService"));
  });
  afterAll(() => r?.http.close());

  it("every RPC reaches the server exactly as sent", async () => {
    await expectDelivered(r, "createShelf", {
      shelf: { name: "shelves/x", theme: "Fiction & ü/%?" },
    });
    for (const name of [
      "shelves/1",
      "shelves/books",
      "shelves/shelves",
      "shelves/a:b%c ü",
      "shelves/...",
    ])
      await expectDelivered(r, "getShelf", { name });
    await expectDelivered(r, "listShelves", { pageSize: -3, pageToken: "t/&=?#+%" });
    await expectDelivered(r, "deleteShelf", { name: "shelves/x" });
    await expectDelivered(r, "mergeShelves", { name: "shelves/1", otherShelf: "shelves/2" });
    await expectDelivered(r, "createBook", {
      parent: "shelves/1",
      book: { name: "shelves/1/books/2", author: "A", title: "T", read: true },
    });
    for (const name of [
      "shelves/1/books/2",
      "shelves/shelves/books/books",
      "shelves/books/books/shelves",
      "shelves/%2F/books/ü:x",
    ])
      await expectDelivered(r, "getBook", { name });
    await expectDelivered(r, "listBooks", {
      parent: "shelves/s p",
      pageSize: 2147483647,
      pageToken: "x",
    });
    await expectDelivered(r, "deleteBook", { name: "shelves/1/books/2" });
    await expectDelivered(r, "updateBook", {
      book: { name: "shelves/1/books/2", title: "New", read: true },
      updateMask: { paths: ["title", "read"] },
    });
    await expectDelivered(r, "updateBook", {
      book: { name: "shelves/books/books/books", author: "ü" },
      updateMask: { paths: ["author"] },
    });
    await expectDelivered(r, "moveBook", {
      name: "shelves/1/books/2",
      otherShelfName: "shelves/3",
    });
    expectAllRoutedCalled(r);
  });

  it("literals inside a multi-segment variable go out as they are (the issue's GET /v1/%73helves/1/%62ooks/2)", async () => {
    const seen: string[] = [];
    const client = new r.g.Client({
      url: r.http.url,
      fetch: (async (url: string, init: RequestInit) => {
        seen.push(String(url));
        return fetch(url, init);
      }) as never,
    } as never);
    await client["getBook"]!({ name: "shelves/1/books/2" });
    await client["getBook"]!({ name: "shelves/books/books/2" });
    r.received.length = 0;
    expect(seen.map((u) => new URL(u).pathname)).toEqual([
      "/v1/shelves/1/books/2",
      "/v1/shelves/%62ooks/books/2",
    ]);
  });

  it("a value that does not fit the template is refused by the client with InvalidParamsError", async () => {
    const InvalidParamsError = r.g.errors["InvalidParamsError"] as new (...a: never[]) => Error;
    for (const name of [
      "shelves/1",
      "shelves//books/2",
      "shelves/1/books/2/x",
      "books/1/shelves/2",
      "shelves/1/books/",
    ]) {
      const e = await rejection(r.client["getBook"]!({ name }));
      expect(e, name).toBeInstanceOf(InvalidParamsError);
      expect(e.message).toMatch(
        /name ".*" does not match shelves\/\*\/books\/\* in the path \/v1\/\{name=shelves\/\*\/books\/\*\}/,
      );
    }
    // updateMask is REQUIRED: the client checks that before the path (the same InvalidParamsError either way).
    const e = await rejection(
      r.client["updateBook"]!({ book: { name: "shelves/1" }, updateMask: { paths: ["title"] } }),
    );
    expect(e).toBeInstanceOf(InvalidParamsError);
    expect(e.message).toMatch(/book\.name "shelves\/1" does not match/);
    expect(
      (await rejection(r.client["updateBook"]!({ book: {}, updateMask: { paths: ["title"] } })))
        .message,
    ).toMatch(
      /book\.name is required to build the path \/v1\/\{book\.name=shelves\/\*\/books\/\*\}/,
    );
    expect(r.received).toHaveLength(0);
  });
});

describe("google/pubsub/v1/pubsub.proto", () => {
  let pub: Running;
  let sub: Running;
  beforeAll(async () => {
    pub = await start(await load("google/pubsub/v1/pubsub", "Publisher"));
    sub = await start(await load("google/pubsub/v1/pubsub", "Subscriber"));
  });
  afterAll(async () => {
    await pub?.http.close();
    await sub?.http.close();
  });

  const topic = "projects/p/topics/t";
  const subscription = "projects/p/subscriptions/s";

  it("Publisher: every RPC reaches the server exactly as sent", async () => {
    await expectDelivered(pub, "createTopic", {
      name: topic,
      labels: { a: "b" },
      kmsKeyName: "k",
      satisfiesPzs: true,
      messageRetentionDuration: { seconds: 60n },
      state: 1,
    });
    await expectDelivered(pub, "updateTopic", {
      topic: { name: topic, labels: { x: "y" } },
      updateMask: { paths: ["labels"] },
    });
    await expectDelivered(pub, "publish", {
      topic,
      messages: [{ data: new Uint8Array([0, 255, 1]), attributes: { k: "v" }, orderingKey: "o" }],
    });
    for (const t of [
      topic,
      "projects/p:1/topics/t%ü",
      "projects/topics/topics/projects",
      "projects/p/topics/a b+c",
    ])
      await expectDelivered(pub, "getTopic", { topic: t });
    await expectDelivered(pub, "listTopics", {
      project: "projects/p",
      pageSize: 10,
      pageToken: "tok&x=1",
    });
    await expectDelivered(pub, "listTopicSubscriptions", { topic, pageSize: -1, pageToken: "a" });
    await expectDelivered(pub, "listTopicSnapshots", { topic, pageSize: 5 });
    await expectDelivered(pub, "deleteTopic", { topic });
    await expectDelivered(pub, "detachSubscription", { subscription });
    expectAllRoutedCalled(pub);
  });

  it("Subscriber: every RPC with a binding reaches the server exactly as sent", async () => {
    await expectDelivered(sub, "createSubscription", {
      name: subscription,
      topic,
      ackDeadlineSeconds: 10,
      retainAckedMessages: true,
      filter: 'attributes.x = "1"',
      labels: { l: "v" },
    });
    await expectDelivered(sub, "getSubscription", { subscription });
    await expectDelivered(sub, "updateSubscription", {
      subscription: { name: subscription, topic, ackDeadlineSeconds: 20 },
      updateMask: { paths: ["ack_deadline_seconds"] },
    });
    await expectDelivered(sub, "listSubscriptions", { project: "projects/p", pageSize: 3 });
    await expectDelivered(sub, "deleteSubscription", {
      subscription: "projects/subscriptions/subscriptions/projects",
    });
    await expectDelivered(sub, "modifyAckDeadline", {
      subscription,
      ackIds: ["a", "b"],
      ackDeadlineSeconds: 30,
    });
    await expectDelivered(sub, "acknowledge", { subscription, ackIds: ["a,b", "c"] });
    await expectDelivered(sub, "pull", { subscription, maxMessages: 5, returnImmediately: true });
    await expectDelivered(sub, "modifyPushConfig", {
      subscription,
      pushConfig: { pushEndpoint: "https://example.com/push" },
    });
    await expectDelivered(sub, "getSnapshot", { snapshot: "projects/p/snapshots/s:1" });
    await expectDelivered(sub, "listSnapshots", { project: "projects/p", pageToken: "t" });
    await expectDelivered(sub, "createSnapshot", {
      name: "projects/p/snapshots/s",
      subscription,
      labels: { a: "1" },
    });
    await expectDelivered(sub, "updateSnapshot", {
      snapshot: { name: "projects/p/snapshots/s", labels: { b: "2" } },
      updateMask: { paths: ["labels"] },
    });
    await expectDelivered(sub, "deleteSnapshot", { snapshot: "projects/p/snapshots/s" });
    await expectDelivered(sub, "seek", {
      subscription,
      target: { case: "time", value: { seconds: 100n, nanos: 5 } },
    });
    await expectDelivered(sub, "seek", {
      subscription,
      target: { case: "snapshot", value: "projects/p/snapshots/s" },
    });
    expectAllRoutedCalled(sub);
    expect(Object.keys(sub.g.ops)).not.toContain("streamingPull");
  });

  it.each([
    ["grpc-js (listenSubscriberGrpc)"],
    ["Connect (createSubscriberGrpcRoutes on node:http2)"],
  ])(
    "%s: a gRPC call of the skipped StreamingPull gets UNIMPLEMENTED; the other RPCs work",
    async (stack) => {
      const grpcServer = (await import(
        pathToFileURL(join(out, "google/pubsub/v1/pubsub_a2a_grpc_server.ts")).href
      )) as Record<string, (...a: unknown[]) => unknown>;
      const pb = (await import(pathToFileURL(join(out, "google/pubsub/v1/pubsub_pb.ts")).href)) as {
        Subscriber: DescService;
      };
      const { createClient, ConnectError, Code } = await import("@connectrpc/connect");
      const { createGrpcTransport } = await import("@connectrpc/connect-node");
      const received: string[] = [];
      const handler = new Proxy(
        {},
        {
          get: (_t, key) =>
            typeof key === "string" && sub.g.ops[key]
              ? async () => {
                  received.push(key);
                  return create(sub.g.ops[key]!.output);
                }
              : undefined,
        },
      );
      const endpoint = stack.startsWith("grpc-js")
        ? await (grpcServer["listenSubscriberGrpc"]!(handler, {
            listen: { host: "127.0.0.1", port: 0 },
          }) as Promise<{ address: string; close(): Promise<void> }>)
        : await listenConnect(grpcServer["createSubscriberGrpcRoutes"]!(handler) as never);
      try {
        const client = createClient(
          pb.Subscriber,
          createGrpcTransport({
            baseUrl: `http://${endpoint.address}`,
            // Any service gets the A2A service parameters: a client other than the generated ones sends the version itself.
            interceptors: [
              (next) => (req) => {
                req.header.set("a2a-version", "1.0");
                return next(req);
              },
            ],
          }),
        ) as unknown as {
          getSubscription(r: object): Promise<unknown>;
          streamingPull(r: AsyncIterable<object>): AsyncIterable<unknown>;
        };
        await client.getSubscription({ subscription });
        expect(received).toEqual(["getSubscription"]);
        async function* one() {
          yield { subscription, streamAckDeadlineSeconds: 10 };
        }
        let error: unknown;
        try {
          for await (const _ of client.streamingPull(one())) void _;
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ConnectError);
        expect((error as InstanceType<typeof ConnectError>).code).toBe(Code.Unimplemented);
      } finally {
        await endpoint.close();
      }
    },
  );
});

describe("google/longrunning/operations.proto", () => {
  let r: Running;
  beforeAll(async () => {
    r = await start(await load("google/longrunning/operations", "Operations"));
  });
  afterAll(() => r?.http.close());

  it("every RPC with a binding reaches the server exactly as sent, ** variables included", async () => {
    await expectDelivered(r, "listOperations", {
      name: "operations",
      filter: "done=true",
      pageSize: 2,
      pageToken: "p",
      returnPartialSuccess: true,
    });
    for (const name of [
      "operations/a/b/c",
      "operations/x:y/%25/ü",
      "operations/operations/operations",
      "operations/a b/c+d",
      "operations/cancel",
    ]) {
      await expectDelivered(r, "getOperation", { name });
      await expectDelivered(r, "deleteOperation", { name });
    }
    // `**` takes zero segments too; GET /v1/operations is ListOperations ({name=operations}, a literal, wins), DELETE has only this route
    await expectDelivered(r, "deleteOperation", { name: "operations" });
    await expectDelivered(r, "cancelOperation", { name: "operations/123" });
    await expectDelivered(r, "cancelOperation", { name: "operations/cancel:cancel" });
    expectAllRoutedCalled(r);
  });

  it("a name outside operations/** is refused; {name=operations} takes exactly that name", async () => {
    expect(
      (await rejection(r.client["getOperation"]!({ name: "projects/p/operations/1" }))).message,
    ).toMatch(/does not match operations\/\*\*/);
    expect((await rejection(r.client["getOperation"]!({ name: "operations//x" }))).message).toMatch(
      /does not match/,
    );
    expect(
      (await rejection(r.client["listOperations"]!({ name: "operations/x" }))).message,
    ).toMatch(/name "operations\/x" does not match operations in the path/);
  });
});

describe("test/fixtures/googleapis/paths/v1/paths.proto", () => {
  let r: Running;
  beforeAll(async () => {
    r = await start(await load("paths/v1/paths", "PathService"));
  });
  afterAll(() => r?.http.close());

  it("every RPC reaches the server exactly as sent: typed, nested, ** and body-field routes", async () => {
    const page = {
      size: 3,
      token: "t&=",
      inner: { flag: true, big: 9007199254740993n, color: 2 },
      tags: ["a", "b,c", "ü"],
    };
    await expectDelivered(r, "getTyped", {
      i32: -5,
      i64: -(2n ** 62n),
      u64: 2n ** 64n - 1n,
      flag: true,
      color: 2,
      s32: -2147483648,
      u32: 4294967295,
      f64: 2n ** 60n + 1n,
      ratio: 1.5,
      small: 0.25,
      note: "n/ü:%",
      page,
    });
    await expectDelivered(r, "getTyped", {});
    await expectDelivered(r, "getTyped", { i64: 9007199254740993n, color: 1 });
    await expectDelivered(r, "getRatio", { ratio: -2.5e-8, small: 3.5 });
    await expectDelivered(r, "getRatio", { ratio: 1e300 });
    await expectDelivered(
      r,
      "getRatio",
      { ratio: Number.NaN, small: Number.POSITIVE_INFINITY },
      { equalsCheck: false },
    );
    await expectDelivered(r, "getRatio", { ratio: Number.NEGATIVE_INFINITY });
    await expectDelivered(r, "getFlag", { flag: true, note: "x" });
    await expectDelivered(r, "getFlag", { flag: false });
    await expectDelivered(r, "updateBook", {
      book: { name: "shelves/1/books/2", title: "T", shelf: { id: 5n, name: "x" }, pages: 3 },
      note: "hello world",
      page,
      updateMask: { paths: ["title", "pages"] },
      ids: [1, 2, -3],
    });
    for (const name of [
      "shelves/books/books/shelves",
      "shelves/a%2Fb/books/ü:x",
      "shelves/%/books/...",
    ])
      await expectDelivered(r, "updateBook", { book: { name }, note: name });
    await expectDelivered(r, "getShelfOfBook", {
      book: { shelf: { id: -(2n ** 63n), theme: "t" }, name: "n/1", title: "x y", pages: 7 },
      note: "q",
      page: { size: 2, inner: { big: -1n } },
      ids: [4],
    });
    // the path always carries book.shelf.id (here its zero), so the server has book.shelf (google.api.http transcoding)
    await expectDelivered(r, "getShelfOfBook", { book: { shelf: {} } });
    for (const name of ["files/a/b/c.txt", "files", "files/ü/x:y/%zz", "files/files"])
      await expectDelivered(r, "getFile", { name, depth: 2 });
    await expectDelivered(r, "getThing", { name: "projects/p/things/t" });
    // the name fits only the additional binding: the client takes that one
    await expectDelivered(r, "getThing", { name: "organizations/o/things/t", depth: -1 });
    expectAllRoutedCalled(r);
  });

  it("the client refuses values that fit no binding, before sending", async () => {
    const InvalidParamsError = r.g.errors["InvalidParamsError"] as new (...a: never[]) => Error;
    for (const [op, request, message] of [
      [
        "getThing",
        { name: "users/u" },
        /name "users\/u" does not match projects\/\*\/things\/\* in the path/,
      ],
      [
        "updateBook",
        { book: { name: "shelves/1/books/2/" } },
        /book\.name "shelves\/1\/books\/2\/" does not match/,
      ],
      [
        "updateBook",
        { book: { name: "shelves/./books/2" } },
        /book\.name "shelves\/\.\/books\/2" cannot be sent in a URL path/,
      ],
      ["getFile", { name: "files/a//b" }, /does not match files\/\*\*/],
      ["getFile", { name: "" }, /name is required to build the path/],
    ] as const) {
      const e = await rejection(r.client[op]!(request));
      expect(e, JSON.stringify(request)).toBeInstanceOf(InvalidParamsError);
      expect(e.message).toMatch(message);
    }
    r.received.length = 0;
  });

  it("the server decodes path values per field type (proto3 JSON) and accepts the other fields as query parameters", async () => {
    const last = () =>
      toJson(
        r.g.ops[r.received[r.received.length - 1]!.op]!.input,
        r.received[r.received.length - 1]!.request,
      );
    expect((await raw(r, "GET", "/v1/flags/true")).status).toBe(200);
    expect(last()).toEqual({ flag: true });
    expect((await raw(r, "POST", "/v1/flags/false/2:set", { note: "n" })).status).toBe(200);
    expect(last()).toEqual({ color: "COLOR_GREEN", note: "n" });
    expect((await raw(r, "POST", "/v1/flags/true/COLOR_RED:set", {})).status).toBe(200);
    expect(last()).toEqual({ flag: true, color: "COLOR_RED" });
    expect(
      (
        await raw(
          r,
          "GET",
          "/v1/typed/-1/-9223372036854775808/18446744073709551615/false/1/0/0/0?ratio=2&page.size=4&page.inner.big=5&page.tags=a,b&note=x",
        )
      ).status,
    ).toBe(200);
    expect(last()).toEqual({
      i32: -1,
      i64: "-9223372036854775808",
      u64: "18446744073709551615",
      color: "COLOR_RED",
      ratio: 2,
      note: "x",
      page: { size: 4, inner: { big: "5" }, tags: ["a", "b"] },
    });
    expect(
      (
        await raw(
          r,
          "PATCH",
          "/v1/shelves/1/books/2?note=x&page.size=3&updateMask=title,pages&ids=1&ids=2",
          { title: "t" },
        )
      ).status,
    ).toBe(200);
    expect(last()).toEqual({
      book: { name: "shelves/1/books/2", title: "t" },
      note: "x",
      page: { size: 3 },
      updateMask: "title,pages",
      ids: [1, 2],
    });
    expect(
      (await raw(r, "PATCH", "/v1/shelves/1/books/2", { name: "shelves/1/books/2" })).status,
    ).toBe(200);
    expect((await raw(r, "GET", "/v1/shelves/7/book?book.title=x&book.shelf.theme=y")).status).toBe(
      200,
    );
    expect(last()).toEqual({ book: { title: "x", shelf: { id: "7", theme: "y" } } });
    expect((await raw(r, "POST", "/v1/files/a/b:touch", { depth: 3 })).status).toBe(200);
    expect(last()).toEqual({ name: "files/a/b", depth: 3 });
    expect((await raw(r, "GET", "/v1/files?depth=1")).status).toBe(200);
    expect(last()).toEqual({ name: "files", depth: 1 });
  });

  it.each([
    [
      "a bool path value that is not true/false",
      "GET",
      "/v1/flags/yes",
      undefined,
      /path variable flag must be true or false, got "yes"/,
    ],
    ["a capitalised bool", "GET", "/v1/flags/True", undefined, /must be true or false/],
    [
      "a non-integer int32",
      "GET",
      "/v1/typed/x/0/0/false/0/0/0/0",
      undefined,
      /path variable i32 must be an integer, got "x"/,
    ],
    [
      "an int32 out of range",
      "GET",
      "/v1/typed/2147483648/0/0/false/0/0/0/0",
      undefined,
      /Invalid parameters/,
    ],
    ["a negative uint64", "GET", "/v1/typed/0/0/-1/false/0/0/0/0", undefined, /Invalid parameters/],
    [
      "an unknown enum name",
      "GET",
      "/v1/typed/0/0/0/false/COLOR_BLUE/0/0/0",
      undefined,
      /Invalid parameters/,
    ],
    [
      "a decimal int64",
      "GET",
      "/v1/shelves/1.5/book",
      undefined,
      /path variable book\.shelf\.id must be an integer/,
    ],
    [
      "a float that is not a number",
      "GET",
      "/v1/ratios/abc/1",
      undefined,
      /path variable ratio must be a number/,
    ],
    [
      "a body-field query key",
      "PATCH",
      "/v1/shelves/1/books/2?book.title=x",
      {},
      /query parameter book\.title is not allowed: PATCH \/v1\/\{book\.name=shelves\/\*\/books\/\*\} takes book in the JSON body/,
    ],
    [
      "a body name that disagrees with the path",
      "PATCH",
      "/v1/shelves/1/books/2",
      { name: "shelves/9/books/9" },
      /book\.name "shelves\/9\/books\/9" in the request disagrees with "shelves\/1\/books\/2" in the path/,
    ],
    [
      "an unknown dotted key",
      "GET",
      "/v1/shelves/1/book?page.nope=1",
      undefined,
      /unknown query parameter page\.nope/,
    ],
    [
      "a message as a query value",
      "GET",
      "/v1/shelves/1/book?page.inner=1",
      undefined,
      /page\.inner is a message field/,
    ],
    [
      "a dotted key that disagrees with the path",
      "GET",
      "/v1/shelves/1/book?book.shelf.id=2",
      undefined,
      /query parameter book\.shelf\.id "2" disagrees with "1" in the path/,
    ],
    [
      'a query on a body "*" route',
      "POST",
      "/v1/files/a:touch?depth=1",
      {},
      /query parameter depth is not allowed/,
    ],
  ])("%s: 400 InvalidParams, never 500", async (_name, method, path, body, message) => {
    expectInvalidParams(await raw(r, method, path, body), message);
  });

  it("a service without HTTP rules gets no REST server or client in a file that has them", async () => {
    const server = await import(pathToFileURL(join(out, "paths/v1/paths_a2a_rest_server.ts")).href);
    const client = await import(pathToFileURL(join(out, "paths/v1/paths_a2a_rest_client.ts")).href);
    expect(Object.keys(server).filter((k) => k.includes("Quiet"))).toEqual([]);
    expect(Object.keys(client).filter((k) => k.includes("Quiet"))).toEqual([]);
    expect(Object.keys(client)).toContain("PathServiceRestClient");
  });
});

describe("test/fixtures/googleapis/legacy/v1/legacy.proto (proto2)", () => {
  let r: Running;
  beforeAll(async () => {
    const g = await load("legacy/v1/legacy", "LegacyService");
    r = await start(g, (op) => create(op.output, { id: "i", count: 0 } as never));
  });
  afterAll(() => r?.http.close());

  it("requests with every required field set (zero values too) reach the server as sent", async () => {
    await expectDelivered(r, "getItem", { name: "x/y", version: 0 });
    await expectDelivered(r, "getItem", { name: "x", version: -7, verbose: false });
    await expectDelivered(r, "putItem", { item: { id: "i", count: 0, note: "n" }, parent: "p q" });
  });

  it("missing required fields are InvalidParams on the server (with the field violation)", async () => {
    const res = await raw(r, "GET", "/v1/items/x");
    expectInvalidParams(res, /version is required/);
    expect(
      res.json.error?.details.find((d) => d.fieldViolations !== undefined)?.fieldViolations,
    ).toEqual([expect.objectContaining({ field: "version" })]);
    expectInvalidParams(await raw(r, "POST", "/v1/items", { id: "i" }), /item\.count is required/);
    expectInvalidParams(await raw(r, "POST", "/v1/items"), /item is required/);
    expect((await raw(r, "GET", "/v1/items/x?version=0")).status).toBe(200);
  });

  it("the client refuses a request without its required fields with InvalidParamsError", async () => {
    const InvalidParamsError = r.g.errors["InvalidParamsError"] as new (...a: never[]) => Error;
    const e = await rejection(r.client["getItem"]!({ name: "x" }));
    expect(e).toBeInstanceOf(InvalidParamsError);
    expect(e.message).toMatch(/version is required/);
  });
});
