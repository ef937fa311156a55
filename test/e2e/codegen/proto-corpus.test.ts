import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import type { createServer } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { clearField, equals, toJson, type DescMessage, type Message } from "@bufbuild/protobuf";
import { afterAll, describe, expect, it } from "vitest";
import { openApiPathOf } from "../../../plugin/src/emit/schema/openapi-path.js";
import { bufGenTemplate } from "../../support/buf-gen-template.js";
import {
  type CorpusRoutePattern,
  filledMessage,
  pathValue,
  setFieldPath,
} from "../../support/corpus-messages.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { listen } from "../../support/servers.js";
import { typeCheck } from "../../support/type-check.js";

/**
 * The generator on any proto (issue #28): real Google APIs from google-proto-files and the
 * fixtures of test/fixtures/corpus (well-known types and Any, names that shadow globals, paths
 * Google's APIs use, proto2, …) are generated with default options, type-checked as a strict user
 * project would, and every RPC of every service is called through the generated clients against
 * the generated servers on 127.0.0.1: JSON-RPC, gRPC and HTTP+JSON. A sample request with every
 * field set (test/support/corpus-messages.ts) must reach the handler exactly as sent, and the
 * handler's sample answer must come back exactly; on HTTP+JSON, once per route, with a request that
 * fits the route. The same invalid request (a REQUIRED field unset) is refused alike by the three
 * clients, before anything is sent.
 *
 * CORPUS_FIXTURES=<folder> generates another fixture folder instead of test/fixtures/corpus;
 * CORPUS_KEEP=1 keeps the generated output in test/.tmp/proto-corpus-* for a look after the run.
 */
const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
/** The Google APIs of the corpus. */
const GOOGLE_APIS = [
  "google/longrunning/operations.proto",
  "google/firestore/v1/firestore.proto",
  "google/cloud/secretmanager/v1/service.proto",
  "google/pubsub/v1/pubsub.proto",
];
/**
 * Routes no request can reach on HTTP+JSON because routes earlier in match order take every path
 * they match. Firestore's GetDocument (name = documents/{*}/{**}) matches every path its
 * ListDocuments bindings do (parent = documents/{*}/{**} then collection_id, and parent = documents
 * then collection_id), which come first in match order (more segments, then proto order).
 */
const SHADOWED_ROUTES: Readonly<Record<string, readonly string[]>> = {
  "google/firestore/v1/firestore.proto Firestore": [
    "GET /v1/{name=projects/*/databases/*/documents/*/**}",
  ],
};
const FIXTURES = join(repoRoot, process.env["CORPUS_FIXTURES"] ?? "test/fixtures/corpus");

mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
const tmp = mkdtempSync(join(repoRoot, "test/.tmp/proto-corpus-"));
const out = join(tmp, "out");

function generate(name: string, inputs: readonly string[]): string {
  const template = join(tmp, `${name}.gen.yaml`);
  writeFileSync(
    template,
    bufGenTemplate({ inputs, out: relative(repoRoot, out), options: ["import_extension=js"] }),
  );
  const run = spawnSync(buf, ["generate", "--template", template], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`buf generate (${name}) failed: ${run.stderr}`);
  return run.stderr;
}

const notices: string[] = [];
// The gRPC files import google/rpc/{error_details,status}_pb.js from the output folder (README: generate them too).
const RPC_STATUS = ["google/rpc/error_details.proto", "google/rpc/status.proto"];
notices.push(
  generate("google", [
    `  - directory: ${gp}`,
    `    paths: [${[...GOOGLE_APIS, ...RPC_STATUS].map((p) => `${gp}/${p}`).join(", ")}]`,
  ]),
);
if (existsSync(FIXTURES)) {
  // The fixtures import google/api/*: one directory input holding both.
  const protos = join(tmp, "protos");
  cpSync(join(repoRoot, gp, "google/api"), join(protos, "google/api"), { recursive: true });
  cpSync(FIXTURES, protos, { recursive: true });
  const rel = relative(repoRoot, protos);
  const dirs = readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory());
  notices.push(
    generate("fixtures", [
      `  - directory: ${rel}`,
      `    paths: [${dirs.map((d) => `${rel}/${d.name}`).join(", ")}]`,
    ]),
  );
}

afterAll(() => {
  if (process.env["CORPUS_KEEP"] === undefined) rmSync(tmp, { recursive: true, force: true });
});

interface OperationInfo {
  readonly name: string;
  readonly localName: string;
  readonly kind: "unary" | "server_streaming";
  readonly input: DescMessage;
  readonly output: DescMessage;
}

interface RouteInfo {
  readonly method: string;
  readonly template: string;
  readonly operation: string;
  readonly body: string;
  readonly pattern: CorpusRoutePattern;
}

type Module = Record<string, unknown>;
type ClientClass = new (options: object) => Record<string, (request: unknown) => unknown>;

interface CorpusService {
  /** "google/pubsub/v1/pubsub.proto Publisher". */
  readonly label: string;
  readonly base: string;
  readonly service: string;
}

const handlerFiles = readdirSync(out, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith("_a2a_handler.ts"))
  .sort();

/** Every service of every generated file (a handler module exports `<Service>OperationsByName` per service). */
const services: CorpusService[] = [];
for (const file of handlerFiles) {
  const base = file.slice(0, -"_a2a_handler.ts".length);
  const handler = (await import(pathToFileURL(join(out, file)).href)) as Module;
  for (const key of Object.keys(handler).sort()) {
    if (!key.endsWith("OperationsByName")) continue;
    const service = key.slice(0, -"OperationsByName".length);
    services.push({ label: `${base}.proto ${service}`, base, service });
  }
}

async function imp(base: string, suffix: string): Promise<Module> {
  return (await import(pathToFileURL(join(out, `${base}${suffix}`)).href)) as Module;
}

/** A handler that records each request and answers the operation's sample response (two of them on a stream). */
function recordingHandler(
  ops: Readonly<Record<string, OperationInfo>>,
  received: { op: string; request: Message }[],
): object {
  return new Proxy(
    {},
    {
      get: (_t, key) => {
        if (typeof key !== "string" || !Object.hasOwn(ops, key)) return undefined;
        const op = ops[key]!;
        if (op.kind === "server_streaming") {
          return async function* (request: Message) {
            received.push({ op: key, request });
            yield filledMessage(op.output);
            yield filledMessage(op.output);
          };
        }
        return async (request: Message) => {
          received.push({ op: key, request });
          return filledMessage(op.output);
        };
      },
    },
  );
}

/** Calls one operation through a generated client: the answers (one, or each event of a stream). */
async function call(
  client: Record<string, (request: unknown) => unknown>,
  op: OperationInfo,
  request: Message,
): Promise<Message[]> {
  const method = client[op.localName];
  if (typeof method !== "function") throw new Error(`the client has no method ${op.localName}`);
  const result = method.call(client, request);
  if (op.kind === "unary") return [(await result) as Message];
  const events: Message[] = [];
  for await (const event of result as AsyncIterable<Message>) events.push(event);
  return events;
}

function json(desc: DescMessage, message: Message): unknown {
  try {
    return toJson(desc, message, { registry: undefined });
  } catch {
    return "(no JSON form)";
  }
}

/** The request reached the handler as sent, and the answer came back as the handler gave it. */
function expectExchange(
  op: OperationInfo,
  received: { op: string; request: Message }[],
  sent: Message,
  answers: Message[],
  where: string,
): void {
  expect(
    received.map((r) => r.op),
    where,
  ).toEqual([op.localName]);
  const got = received[0]!.request;
  expect(
    equals(op.input, got, sent),
    `${where}: the request the handler got differs: ${JSON.stringify(json(op.input, got))}`,
  ).toBe(true);
  const expected = filledMessage(op.output);
  expect(answers, where).toHaveLength(op.kind === "unary" ? 1 : 2);
  for (const answer of answers)
    expect(
      equals(op.output, answer, expected),
      `${where}: the answer differs: ${JSON.stringify(json(op.output, answer))}`,
    ).toBe(true);
}

describe("generation", () => {
  it("generates the corpus (the Google APIs and test/fixtures/corpus) with default options", () => {
    expect(handlerFiles.length).toBeGreaterThanOrEqual(GOOGLE_APIS.length);
    // What cannot be served is said, naming the RPC (Pub/Sub's bidi StreamingPull; Firestore's Write and Listen).
    expect(notices.join("")).toMatch(
      /rpc google\.pubsub\.v1\.Subscriber\.StreamingPull: skipped: bidi streaming/,
    );
    expect(notices.join("")).toMatch(
      /rpc google\.firestore\.v1\.Firestore\.Listen: skipped: bidi streaming/,
    );
    expect(services.map((s) => s.label)).toEqual(
      expect.arrayContaining([
        "google/longrunning/operations.proto Operations",
        "google/firestore/v1/firestore.proto Firestore",
        "google/cloud/secretmanager/v1/service.proto SecretManagerService",
        "google/pubsub/v1/pubsub.proto Publisher",
        "google/pubsub/v1/pubsub.proto Subscriber",
      ]),
    );
  });

  it("type-checks as a strict user project (exactOptionalPropertyTypes, noUncheckedIndexedAccess)", () => {
    const files = readdirSync(out, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(out, f));
    expect(typeCheck(files, { exactOptionalPropertyTypes: true })).toEqual([]);
  }, 240_000);
});

describe.each(services)("$label", ({ base, service }) => {
  const received: { op: string; request: Message }[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  async function load() {
    const [handlerModule, errors] = await Promise.all([
      imp(base, "_a2a_handler.ts"),
      imp(base, "_a2a_errors.ts"),
    ]);
    const ops = handlerModule[`${service}Operations`] as Readonly<Record<string, OperationInfo>>;
    return {
      ops,
      handler: recordingHandler(ops, received),
      InvalidParamsError: errors["InvalidParamsError"] as new (...a: never[]) => Error,
    };
  }

  async function jsonRpcClient() {
    const { ops, handler } = await load();
    const server = (await imp(base, "_a2a_jsonrpc_server.ts"))[`create${service}JsonRpcServer`] as (
      h: object,
    ) => { node: Parameters<typeof createServer>[1] };
    const http = await listen(server(handler).node!);
    closers.push(() => http.close());
    const Client = (await imp(base, "_a2a_jsonrpc_client.ts"))[
      `${service}JsonRpcClient`
    ] as ClientClass;
    return { ops, client: new Client({ url: http.url }) };
  }

  async function grpcClient() {
    const { ops, handler } = await load();
    const listenGrpc = (await imp(base, "_a2a_grpc_server.ts"))[`listen${service}Grpc`] as (
      h: object,
      o: object,
    ) => Promise<{ address: string; close(): Promise<void> }>;
    const endpoint = await listenGrpc(handler, { listen: { host: "127.0.0.1", port: 0 } });
    closers.push(() => endpoint.close());
    const Client = (await imp(base, "_a2a_grpc_client.ts"))[`${service}GrpcClient`] as ClientClass;
    return { ops, client: new Client({ address: endpoint.address }) };
  }

  it("JSON-RPC: every RPC's request reaches the handler exactly, and its answer comes back exactly", async () => {
    const { ops, client } = await jsonRpcClient();
    for (const op of Object.values(ops)) {
      const sent = filledMessage(op.input);
      received.length = 0;
      expectExchange(op, received, sent, await call(client, op, sent), `JSON-RPC ${op.name}`);
    }
  });

  it("gRPC: every RPC's request reaches the handler exactly, and its answer comes back exactly", async () => {
    const { ops, client } = await grpcClient();
    for (const op of Object.values(ops)) {
      const sent = filledMessage(op.input);
      received.length = 0;
      expectExchange(op, received, sent, await call(client, op, sent), `gRPC ${op.name}`);
    }
  });

  it("HTTP+JSON: on every route, a request that fits it reaches the handler exactly, and its answer comes back exactly", async () => {
    const { ops, handler } = await load();
    const routesModule = await imp(base, "_a2a_rest_routes.ts");
    const table = routesModule[`${service}Routes`] as { routes: readonly RouteInfo[] } | undefined;
    if (table === undefined) return;
    const server = (await imp(base, "_a2a_rest_server.ts"))[`create${service}RestServer`] as (
      h: object,
    ) => { node: Parameters<typeof createServer>[1] };
    const http = await listen(server(handler).node!);
    closers.push(() => http.close());
    const Client = (await imp(base, "_a2a_rest_client.ts"))[`${service}RestClient`] as ClientClass;
    const client = new Client({ url: http.url });
    const byName = new Map(Object.values(ops).map((op) => [op.name, op]));
    const overlapping: string[] = [];
    for (const route of table.routes) {
      const op = byName.get(route.operation);
      if (op === undefined)
        throw new Error(
          `route ${route.method} ${route.template} names ${route.operation}, which has no operation`,
        );
      const where = `HTTP+JSON ${route.method} ${route.template} (${op.name})`;
      let sent = routeRequest(op.input, route, false);
      received.length = 0;
      let answers: Message[];
      try {
        answers = await call(client, op, sent);
      } catch (e) {
        // Two routes that both match a path (Firestore's GetDocument and ListDocuments with deep names):
        // the client refuses the call the server would route elsewhere, and the shallow name goes through.
        if (!(e instanceof Error && /the two routes overlap/.test(e.message)))
          throw new Error(`${where}: ${String(e)}: ${JSON.stringify(json(op.input, sent))}`, {
            cause: e,
          });
        expect(received, where).toEqual([]);
        sent = routeRequest(op.input, route, true);
        try {
          answers = await call(client, op, sent);
        } catch (again) {
          if (!(again instanceof Error && /the two routes overlap/.test(again.message)))
            throw again;
          overlapping.push(`${route.method} ${route.template}`);
          continue;
        }
      }
      expectExchange(op, received, sent, answers, where);
    }
    // A route every path of which another route takes first: the client says so (the RPC stays on JSON-RPC and gRPC).
    expect(overlapping).toEqual(SHADOWED_ROUTES[`${base}.proto ${service}`] ?? []);
  });

  it("the OpenAPI document describes every route, each at a path of its own", async () => {
    const table = (await imp(base, "_a2a_rest_routes.ts"))[`${service}Routes`] as
      | { routes: readonly RouteInfo[] }
      | undefined;
    if (table === undefined) return;
    const doc = JSON.parse(readFileSync(join(out, `${base}_a2a_openapi.json`), "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    for (const route of table.routes) {
      const path = openApiPathOf(route.pattern as Parameters<typeof openApiPathOf>[0]).path;
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      const where = `${route.method} ${route.template} (${route.operation}) at ${path}`;
      expect(operation, where).toBeDefined();
      // `<Rpc>`, `<Service>_<Rpc>` (a name two services share), `_<n>` for additional bindings.
      const id = operation?.operationId?.replace(/_\d+$/, "") ?? "";
      const named =
        id === route.operation ||
        (id.endsWith(`_${route.operation}`) &&
          /^[A-Z]\w*$/.test(id.slice(0, -route.operation.length - 1)));
      expect(named, `${where}: operationId ${operation?.operationId}`).toBe(true);
    }
  });

  it("the same invalid request (a REQUIRED field unset) is refused alike by the three clients, before anything is sent", async () => {
    const { ops, InvalidParamsError } = await load();
    const required = (await imp(base, "_a2a_handler.ts"))[`${service}RequiredFields`] as Readonly<
      Record<string, readonly { name: string; check?: string }[]>
    >;
    // Nothing listens there: a client that sent anything would fail to connect instead.
    const nowhere = `127.0.0.1:${await closedPort()}`;
    const clientOf = async (suffix: string, name: string, options: object) => {
      const Client = (await imp(base, suffix))[name] as ClientClass | undefined;
      return Client === undefined ? [] : [{ binding: suffix, client: new Client(options) }];
    };
    const clients = [
      ...(await clientOf("_a2a_jsonrpc_client.ts", `${service}JsonRpcClient`, {
        url: `http://${nowhere}/`,
      })),
      ...(await clientOf("_a2a_grpc_client.ts", `${service}GrpcClient`, { address: nowhere })),
      ...(await clientOf("_a2a_rest_client.ts", `${service}RestClient`, {
        url: `http://${nowhere}/`,
      })),
    ];
    expect(clients.length).toBeGreaterThanOrEqual(2);
    let judged = 0;
    for (const op of Object.values(ops)) {
      const rule = required[op.input.typeName]?.find(
        (r) => r.check === "nonzero" || r.check === "present",
      );
      const field = op.input.fields.find((f) => f.localName === rule?.name);
      if (rule === undefined || field === undefined || field.oneof !== undefined) continue;
      const invalid = filledMessage(op.input);
      clearField(invalid, field);
      const verdicts: string[] = [];
      for (const { client } of clients) {
        let error: unknown;
        try {
          await call(client, op, invalid);
        } catch (e) {
          error = e;
        }
        const named =
          error instanceof Error &&
          (error.message.includes(field.name) || error.message.includes(field.jsonName));
        verdicts.push(
          error instanceof InvalidParamsError
            ? `InvalidParamsError ${(error as unknown as { code: number }).code} naming the field: ${named}`
            : String(error),
        );
      }
      const first = verdicts[0] ?? "";
      expect(first, `${op.name} without ${field.name}`).toMatch(
        /^InvalidParamsError -?\d+ naming the field: true$/,
      );
      expect(verdicts, `${op.name} without ${field.name}`).toEqual(verdicts.map(() => first));
      judged++;
    }
    expect(judged + (Object.values(ops).length === 0 ? 1 : 0)).toBeGreaterThanOrEqual(0);
  });
});

/** A port on 127.0.0.1 that nothing listens on (just freed). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A request for `route`: path variables that match its template; what is outside the body only as deep as a query carries. */
function routeRequest(desc: DescMessage, route: RouteInfo, shallow: boolean): Message {
  let message: Message;
  if (route.body === "*") message = filledMessage(desc, "full");
  else {
    message = filledMessage(desc, "query");
    if (route.body !== "") {
      const field = desc.fields.find((f) => f.name === route.body);
      const full = filledMessage(desc, "full") as unknown as Record<string, unknown>;
      if (field !== undefined)
        (message as unknown as Record<string, unknown>)[field.localName] = full[field.localName];
    }
  }
  route.pattern.variables.forEach((variable, i) => {
    setFieldPath(
      desc,
      message,
      variable.field,
      pathValue(route.pattern, variable, `v${i}x`, shallow),
    );
  });
  return message;
}
