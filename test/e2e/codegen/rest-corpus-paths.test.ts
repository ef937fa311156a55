import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import {
  create,
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type Message,
} from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufGenTemplate } from "../../support/buf-gen-template.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { listen, type Listening } from "../../support/servers.js";
import { typeCheck } from "../../support/type-check.js";

/**
 * End to end over test/fixtures/corpus/paths (fields named after every Object.prototype member,
 * `**` followed by further segments, HEAD, an RPC without an HTTP rule) and the real
 * google/firestore/v1/firestore.proto (with and without `skip_http_rules`): generated with buf
 * (protoc-gen-es + the bundled plugin) into test/.tmp, the generated REST client against the
 * generated REST server on 127.0.0.1, plus raw requests.
 */
const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
const firestore = `${gp}/google/firestore/v1/firestore.proto`;
let tmp: string;
const notices: Record<string, string> = {};

function generate(name: string, input: readonly string[], options: readonly string[] = []): string {
  const template = join(tmp, `${name}.gen.yaml`);
  // google.rpc.Status and ErrorInfo beside them, for the gRPC files.
  const rpc = [
    `  - directory: ${gp}`,
    `    paths: [${gp}/google/rpc/error_details.proto, ${gp}/google/rpc/status.proto]`,
  ];
  writeFileSync(
    template,
    bufGenTemplate({
      inputs: [...input, ...rpc],
      out: relative(repoRoot, join(tmp, name)),
      options: ["import_extension=js", ...options],
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
  tmp = mkdtempSync(join(repoRoot, "test/.tmp/corpus-paths-"));
  // The fixtures import google/api/*: one directory input holding both.
  const protos = relative(repoRoot, join(tmp, "protos"));
  cpSync(join(repoRoot, gp, "google/api"), join(repoRoot, protos, "google/api"), {
    recursive: true,
  });
  cpSync(join(repoRoot, "test/fixtures/corpus/paths"), join(repoRoot, protos, "corpus/paths"), {
    recursive: true,
  });
  notices["corpus"] = generate("corpus", [
    `  - directory: ${protos}`,
    `    paths: [${protos}/corpus]`,
  ]);
  const firestoreInput = [`  - directory: ${gp}`, `    paths: [${firestore}]`];
  notices["firestore"] = generate("firestore", firestoreInput);
  notices["firestore-skip"] = generate("firestore-skip", firestoreInput, [
    "skip_http_rules=google.firestore.v1.Firestore.ListDocuments;google.firestore.v1.Firestore.NoSuchRpc",
  ]);
}, 120_000);

afterAll(() => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

interface OperationInfo {
  readonly name: string;
  readonly localName: string;
  readonly kind: string;
  readonly input: DescMessage;
  readonly output: DescMessage;
}

type Client = Record<string, (request: unknown) => Promise<unknown>>;

interface Running {
  readonly ops: Readonly<Record<string, OperationInfo>>;
  readonly client: Client;
  readonly http: Listening;
  readonly errors: Record<string, new (...a: never[]) => Error>;
  readonly received: { op: string; request: Message }[];
  readonly routes: { routes: readonly { operation: string }[] };
}

/** Serves the generated REST server of `service` with a handler that records every request and answers the output's default. */
async function start(out: string, base: string, service: string): Promise<Running> {
  const imp = (suffix: string) =>
    import(pathToFileURL(join(tmp, out, `${base}${suffix}`)).href) as Promise<
      Record<string, unknown>
    >;
  const [handlerFile, server, client, routes, errors] = await Promise.all([
    imp("_a2a_handler.ts"),
    imp("_a2a_rest_server.ts"),
    imp("_a2a_rest_client.ts"),
    imp("_a2a_rest_routes.ts"),
    imp("_a2a_errors.ts"),
  ]);
  const ops = handlerFile[`${service}Operations`] as Record<string, OperationInfo>;
  const received: { op: string; request: Message }[] = [];
  const handler = new Proxy(
    {},
    {
      get: (_t, key) => {
        if (typeof key !== "string" || !Object.hasOwn(ops, key)) return undefined;
        const op = ops[key]!;
        if (op.kind === "server_streaming") {
          return async function* (request: Message) {
            received.push({ op: key, request });
            yield create(op.output);
          };
        }
        return async (request: Message) => {
          received.push({ op: key, request });
          return create(op.output);
        };
      },
    },
  );
  const createServer = server[`create${service}RestServer`] as (h: object) => {
    node: Parameters<typeof listen>[0];
  };
  const http = await listen(createServer(handler).node);
  const Client = client[`${service}RestClient`] as new (o: { url: string }) => Client;
  return {
    ops,
    client: new Client({ url: http.url }),
    http,
    errors: errors as Running["errors"],
    received,
    routes: routes[`${service}Routes`] as Running["routes"],
  };
}

/** Sends a request (ProtoJSON) through the generated client; the server must get exactly it. */
async function expectDelivered(r: Running, localName: string, json: JsonObject): Promise<void> {
  const op = r.ops[localName];
  if (op === undefined) throw new Error(`no operation ${localName}`);
  const sent = fromJson(op.input, json);
  r.received.length = 0;
  const result = r.client[localName]!(sent);
  if (op.kind === "server_streaming")
    for await (const _ of result as unknown as AsyncIterable<unknown>) void _;
  else await result;
  expect(r.received.map((x) => x.op)).toEqual([localName]);
  expect(toJson(op.input, r.received[0]!.request), `${localName} ${JSON.stringify(json)}`).toEqual(
    toJson(op.input, sent),
  );
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
  body?: string,
): Promise<{
  status: number;
  json: { error?: { message: string; details: { reason?: string }[] } };
}> {
  const response = await fetch(new URL(path, r.http.url), {
    method,
    headers:
      body === undefined
        ? { "a2a-version": "1.0" }
        : { "a2a-version": "1.0", "content-type": "application/json" },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? {} : JSON.parse(text) };
}

/** Object.prototype's members, as the fixture's JSON names spell them. */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
/** The fixture's proto name of each member (snake_case; `__x__` kept around it). */
function protoName(member: string): string {
  const inner = /^__(.*)__$/.exec(member);
  const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return inner === null ? snake(member) : `__${snake(inner[1]!)}__`;
}
/** A value per member that says which one it is (and needs encoding). */
const memberValue = (member: string) => `${member} v/&?=#%`;

describe("generation", () => {
  it("generates the corpus with default options; HEAD and the unrouted RPC give no notice", () => {
    expect(notices["corpus"]).toBe("");
  });

  it("skip_http_rules: a notice per skipped rule, and for a name no RPC has", () => {
    expect(notices["firestore-skip"]).toContain(
      'google/firestore/v1/firestore.proto: rpc google.firestore.v1.Firestore.ListDocuments: option google.api.http: HTTP rule GET "/v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id}" skipped (skip_http_rules)',
    );
    expect(notices["firestore-skip"]).toContain(
      'rpc google.firestore.v1.Firestore.ListDocuments: option google.api.http: HTTP rule GET "/v1/{parent=projects/*/databases/*/documents}/{collection_id}" skipped',
    );
    expect(notices["firestore-skip"]).toMatch(
      /plugin options: option skip_http_rules: no RPC of the files of this run is named google\.firestore\.v1\.Firestore\.NoSuchRpc/,
    );
    expect(notices["firestore"]).not.toContain("skip_http_rules");
    const openapi = JSON.parse(
      readFileSync(
        join(tmp, "firestore-skip/google/firestore/v1/firestore_a2a_openapi.json"),
        "utf8",
      ),
    ) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ops = Object.values(openapi.paths).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(ops.some((o) => /ListDocuments/.test(o))).toBe(false);
    expect(ops.some((o) => /GetDocument/.test(o))).toBe(true);
  });

  it("OpenAPI lists HEAD under head, with a 200 without content", () => {
    const openapi = JSON.parse(
      readFileSync(join(tmp, "corpus/corpus/paths/head_and_unrouted_a2a_openapi.json"), "utf8"),
    ) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    expect(Object.keys(openapi.paths["/v1/items/{item}"] ?? {}).sort()).toEqual(["get", "head"]);
    expect(openapi.paths["/v1/items/{item}"]!["head"]!.responses["200"]!.content).toBeUndefined();
  });

  it("the generated code type-checks under strict; the REST client type does not offer an RPC without an HTTP rule", () => {
    const files = readdirSync(tmp, { recursive: true, encoding: "utf8" })
      .filter((f) => /_a2a_[a-z_]+\.ts$/.test(f) && !f.startsWith("protos"))
      .map((f) => join(tmp, f));
    const probe = join(tmp, "corpus/corpus/paths/probe.ts");
    writeFileSync(
      probe,
      [
        'import { ItemServiceRestClient } from "./head_and_unrouted_a2a_rest_client.js";',
        'import { ItemServiceJsonRpcClient } from "./head_and_unrouted_a2a_jsonrpc_client.js";',
        'const rest = new ItemServiceRestClient({ url: "http://127.0.0.1:1" });',
        'void rest.checkItem({ name: "items/1" });',
        "// @ts-expect-error renameItem has no google.api.http rule: not on the REST client",
        'void rest.renameItem({ name: "items/1" });',
        'void new ItemServiceJsonRpcClient({ url: "http://127.0.0.1:1" }).renameItem({ name: "items/1" });',
        "",
      ].join("\n"),
    );
    expect(typeCheck([...files, probe])).toEqual([]);
  }, 180_000);
});

describe("fields named after every Object.prototype member (prototype_names.proto)", () => {
  let r: Running;
  beforeAll(async () => {
    r = await start("corpus", "corpus/paths/prototype_names", "PrototypeNamesService");
  });
  afterAll(() => r?.http.close());

  const all = (): JsonObject => Object.fromEntries(PROTOTYPE_NAMES.map((m) => [m, memberValue(m)]));

  it("the fixture has a field for each of Object.getOwnPropertyNames(Object.prototype)", () => {
    const names = r.ops["queryNames"]!.input.fields;
    expect(names.map((f) => f.jsonName).sort()).toEqual([...PROTOTYPE_NAMES, "nested"].sort());
    for (const m of PROTOTYPE_NAMES)
      expect(names.find((f) => f.jsonName === m)?.name).toBe(protoName(m));
  });

  it("query, path, body, body field and nested path: the server gets exactly what the client sent", async () => {
    const nested = {
      constructor: 7,
      __proto__: true,
      toString: "n",
      valueOf: ["a", "b,c"],
      hasOwnProperty: "-9007199254740993",
    };
    for (const json of [
      {},
      all(),
      { ...all(), nested },
      { constructor: "only" },
      JSON.parse('{"__proto__": "p"}') as JsonObject,
    ]) {
      await expectDelivered(r, "queryNames", json);
      await expectDelivered(r, "bodyNames", json);
    }
    await expectDelivered(r, "pathNames", all());
    await expectDelivered(r, "pathNames", { ...all(), nested });
    await expectDelivered(
      r,
      "mixedNames",
      JSON.parse(
        JSON.stringify({
          constructor: "c",
          __proto__: true,
          hasOwnProperty: 7,
          valueOf: all(),
          toString: "t",
          isPrototypeOf: [1, 2],
        }),
      ) as JsonObject,
    );
    await expectDelivered(r, "mixedNames", { constructor: "c", hasOwnProperty: -1 });
    await expectDelivered(r, "nestedNames", {
      ...all(),
      nested: { constructor: 3, __proto__: true, toString: "x y" },
    });
    await expectDelivered(r, "nestedNames", { nested: { constructor: 0, toString: "z" } });
  });

  it("an unset field is not sent: no ?constructor=function Object()…", async () => {
    const seen: string[] = [];
    const Client = r.client.constructor as new (o: object) => Client;
    const client = new Client({
      url: r.http.url,
      fetch: (async (url: string, init: RequestInit) => {
        seen.push(String(url));
        return fetch(url, init);
      }) as typeof fetch,
    });
    await client["queryNames"]!({});
    await client["queryNames"]!(fromJson(r.ops["queryNames"]!.input, { constructor: "a" }));
    expect(seen.map((u) => new URL(u).search)).toEqual(["", "?constructor=a"]);
  });

  it.each(PROTOTYPE_NAMES)(
    "raw requests: %s as a query key (JSON and proto name), a path segment and a body key",
    async (member) => {
      const field = r.ops["queryNames"]!.input.fields.find((f) => f.jsonName === member)!;
      for (const key of new Set([member, protoName(member)])) {
        r.received.length = 0;
        const res = await raw(r, "GET", `/v1/names?${encodeURIComponent(key)}=x`);
        expect(res.status, `?${key}=x: ${JSON.stringify(res.json)}`).toBe(200);
        expect(toJson(field.parent, r.received[0]!.request)).toEqual({ [member]: "x" });
      }
      r.received.length = 0;
      const segments = PROTOTYPE_NAMES.map((m) => (m === member ? "x" : "y"));
      const res = await raw(r, "GET", `/v1/names/${segments.join("/")}`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect((toJson(field.parent, r.received[0]!.request) as JsonObject)[member]).toBe("x");
      r.received.length = 0;
      const body = await raw(r, "POST", "/v1/names", `{${JSON.stringify(member)}: "b"}`);
      expect(body.status, JSON.stringify(body.json)).toBe(200);
      expect(JSON.stringify(toJson(field.parent, r.received[0]!.request))).toBe(
        `{${JSON.stringify(member)}:"b"}`,
      );
    },
  );

  it("raw: a prototype member name that is not a field of the request is an unknown query parameter (400, not 500)", async () => {
    const d = await start("corpus", "corpus/paths/deep_wildcards", "DocumentService");
    try {
      for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
        const res = await raw(d, "GET", `/v1/${DB}/documents/users?${key}=a`);
        expect(res.status, key).toBe(400);
        expect(res.json.error?.message).toContain(`unknown query parameter ${key}`);
      }
      // a path of the body field named like a member: the body "__proto__" key stays data
      const res = await raw(
        d,
        "POST",
        `/v1/${DB}/documents/users`,
        '{"name": "x", "__proto__": {"polluted": 1}}',
      );
      expect(res.status).toBe(200);
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    } finally {
      await d.http.close();
    }
  });
});

const DB = "projects/p/databases/d";

describe("`**` followed by further segments (deep_wildcards.proto)", () => {
  let r: Running;
  beforeAll(async () => {
    r = await start("corpus", "corpus/paths/deep_wildcards", "DocumentService");
  });
  afterAll(() => r?.http.close());

  it("every RPC reaches the server exactly as sent", async () => {
    for (const parent of [
      `${DB}/documents/users/alice`,
      `${DB}/documents/a b/ü/c:d/e`,
      `${DB}/documents/documents/documents/x`,
    ]) {
      await expectDelivered(r, "listDocuments", { parent, collectionId: "posts", pageSize: 3 });
      await expectDelivered(r, "countDocuments", { parent, collectionId: "c/d" });
    }
    await expectDelivered(r, "listDocuments", {
      parent: `${DB}/documents`,
      collectionId: "users",
      pageToken: "t",
    });
    await expectDelivered(r, "countDocuments", { parent: `${DB}/documents` });
    for (const parent of [`${DB}/documents`, `${DB}/documents/users/alice`]) {
      await expectDelivered(r, "createDocument", {
        parent,
        collectionId: "posts",
        documentId: "1",
        document: { fields: { a: "b" } },
      });
    }
    for (const name of [`${DB}/documents/users`, `${DB}/documents/users/alice/posts/1`]) {
      await expectDelivered(r, "deleteDocument", { name });
      await expectDelivered(r, "updateDocument", {
        document: { name, fields: { x: "y" } },
        allowMissing: true,
      });
    }
    for (const path of ["files/head", "files/a/b/head", "files/head/head"])
      await expectDelivered(r, "getRevision", { path, revision: "42" });
    for (const path of ["a", "a/b/c", "meta/meta"])
      await expectDelivered(r, "describeTree", { path });
    expect(new Set(r.routes.routes.map((x) => x.operation)).size).toBe(Object.keys(r.ops).length);
  });

  it("a value that does not fit is refused by the client with InvalidParamsError, nothing sent", async () => {
    r.received.length = 0;
    for (const [op, json] of [
      ["listDocuments", { parent: `${DB}/documentz/x`, collectionId: "c" }],
      ["getRevision", { path: "files/a/tail", revision: "1" }],
      ["getRevision", { path: "files/./head", revision: "1" }],
      ["createDocument", { parent: DB, collectionId: "c" }],
    ] as const) {
      const e = await rejection(r.client[op]!(fromJson(r.ops[op]!.input, json)));
      expect(e, `${op} ${JSON.stringify(json)}`).toBeInstanceOf(r.errors["InvalidParamsError"]!);
    }
    expect(r.received).toEqual([]);
  });
});

describe("HEAD and an RPC without an HTTP rule (head_and_unrouted.proto)", () => {
  let r: Running;
  beforeAll(async () => {
    r = await start("corpus", "corpus/paths/head_and_unrouted", "ItemService");
  });
  afterAll(() => r?.http.close());

  it("HEAD works end to end through the generated client; a custom GET is a GET", async () => {
    await expectDelivered(r, "checkItem", { name: "items/1" });
    await expectDelivered(r, "getItem", { name: "items/a b" });
    const head = await fetch(new URL("/v1/items/1", r.http.url), {
      method: "HEAD",
      headers: { "a2a-version": "1.0" },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("a HEAD error arrives as an A2AError with its HTTP status (the answer has no body)", async () => {
    const e = (await rejection(r.client["checkItem"]!({ name: "shelves/1" }))) as Error & {
      spec?: { httpStatus: number };
    };
    // refused by the client: the name does not fit {name=items/*}
    expect(e).toBeInstanceOf(r.errors["InvalidParamsError"]!);
    const Client = r.client.constructor as new (o: object) => Client;
    const failing = new Client({ url: r.http.url, version: "9.9" });
    const v = (await rejection(failing["checkItem"]!({ name: "items/1" }))) as Error & {
      spec: { httpStatus: number };
    };
    expect(v.spec.httpStatus).toBe(400);
  });

  it("an RPC without an HTTP rule, called through the REST client anyway, throws UnsupportedOperationError, nothing sent", async () => {
    r.received.length = 0;
    const e = await rejection(r.client["renameItem"]!({ name: "items/1" }));
    expect(e).toBeInstanceOf(r.errors["UnsupportedOperationError"]!);
    expect(e.message).toMatch(/RenameItem has no HTTP\+JSON binding/);
    expect(r.received).toEqual([]);
  });
});

describe("google/firestore/v1/firestore.proto", () => {
  let all: Running;
  let skip: Running;
  beforeAll(async () => {
    all = await start("firestore", "google/firestore/v1/firestore", "Firestore");
    skip = await start("firestore-skip", "google/firestore/v1/firestore", "Firestore");
  });
  afterAll(async () => {
    await all?.http.close();
    await skip?.http.close();
  });

  const doc = `${DB}/documents/users/alice`;

  it("generates (`**` followed by {collection_id}); its RPCs reach the server exactly as sent", async () => {
    for (const r of [all, skip]) {
      await expectDelivered(r, "deleteDocument", { name: doc });
      await expectDelivered(r, "updateDocument", {
        document: { name: `${doc}/posts/1`, fields: { a: { stringValue: "b" } } },
        updateMask: { fieldPaths: ["a"] },
      });
      await expectDelivered(r, "createDocument", {
        parent: `${DB}/documents`,
        collectionId: "users",
        documentId: "alice",
        document: {},
      });
      await expectDelivered(r, "createDocument", {
        parent: doc,
        collectionId: "posts",
        document: { fields: {} },
      });
      await expectDelivered(r, "listCollectionIds", { parent: doc, pageSize: 2 });
      await expectDelivered(r, "listCollectionIds", { parent: `${DB}/documents` });
      await expectDelivered(r, "commit", { database: DB, writes: [{ delete: doc }] });
      await expectDelivered(r, "beginTransaction", { database: DB });
      await expectDelivered(r, "partitionQuery", { parent: doc, partitionCount: "3" });
    }
    await expectDelivered(all, "listDocuments", {
      parent: doc,
      collectionId: "posts",
      pageSize: 3,
    });
    await expectDelivered(all, "listDocuments", {
      parent: `${DB}/documents`,
      collectionId: "users",
    });
  });

  it("GetDocument's GETs overlap ListDocuments': the client refuses a name the server would give ListDocuments", async () => {
    all.received.length = 0;
    const e = await rejection(all.client["getDocument"]!({ name: doc }));
    expect(e).toBeInstanceOf(all.errors["InvalidParamsError"]!);
    expect(e.message).toMatch(/would reach ListDocuments .*not GetDocument/);
    expect(all.received).toEqual([]);
  });

  it("skip_http_rules=…ListDocuments: GetDocument is reached; ListDocuments is not on REST (UnsupportedOperationError) but stays on the other bindings", async () => {
    await expectDelivered(skip, "getDocument", { name: doc });
    await expectDelivered(skip, "getDocument", { name: `${doc}/posts/1` });
    expect(skip.routes.routes.some((x) => x.operation === "ListDocuments")).toBe(false);
    const e = await rejection(
      skip.client["listDocuments"]!({ parent: doc, collectionId: "posts" }),
    );
    expect(e).toBeInstanceOf(skip.errors["UnsupportedOperationError"]!);
    const jsonrpc = readFileSync(
      join(tmp, "firestore-skip/google/firestore/v1/firestore_a2a_jsonrpc_methods.ts"),
      "utf8",
    );
    expect(jsonrpc).toContain("ListDocuments");
  });
});
