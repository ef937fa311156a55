import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { create, equals, type DescMessage, type Message } from "@bufbuild/protobuf";
import { Project, ts } from "ts-morph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GENERATED_CODE_GLOBALS,
  GENERATED_CODE_IMPORTS,
  GENERATED_CODE_LOCALS,
} from "../../../plugin/src/emit/reserved-names.js";
import { RESERVED_OPERATION_NAMES } from "../../../plugin/src/model/operation-names.js";
import { bufGenTemplate } from "../../support/buf-gen-template.js";
import { generatedScopeNames } from "../../support/generated-scope-names.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { listen, type Listening } from "../../support/servers.js";
import { typeCheck } from "../../support/type-check.js";

/**
 * Proto names that shadow what generated code uses (issue #28): test/fixtures/corpus/names has a
 * message and an RPC named after every entry of the reserved-name table (TypeScript's globals the
 * generated code refers to, its unexported names, the names it imports and exports) and RPCs named
 * like members every object has (`then`, `constructor`, `toString`, …), and two services with the
 * same RPC names. Generated with buf (protoc-gen-es + the bundled plugin) into test/.tmp,
 * type-checked as a strict user project, and called over real sockets on the three bindings. The
 * table itself is checked against what the generated files (these and generated-example/gen) use,
 * against TypeScript's lib and against the packages' exports.
 */
const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
const FIXTURE = "test/fixtures/corpus/names";
let tmp: string;
/** Default options. */
let out: string;
/** `grpc_server=connect`: the other gRPC stack's imports. */
let connectOut: string;
let notices: string;

function generate(
  name: string,
  inputs: readonly string[],
  target: string,
  options: readonly string[],
): string {
  const template = join(tmp, `${name}.gen.yaml`);
  writeFileSync(template, bufGenTemplate({ inputs, out: relative(repoRoot, target), options }));
  const run = spawnSync(buf, ["generate", "--template", template], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`buf generate failed: ${run.stderr}`);
  return run.stderr;
}

function tsFiles(dir: string, filter: RegExp = /\.ts$/): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => filter.test(f))
    .map((f) => join(dir, f));
}

beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  tmp = mkdtempSync(join(repoRoot, "test/.tmp/generated-names-"));
  out = join(tmp, "out");
  connectOut = join(tmp, "connect");
  // The fixtures import google/api/*; the gRPC files import google/rpc/{status,error_details}_pb.js.
  const protos = join(tmp, "protos");
  cpSync(join(repoRoot, gp, "google/api"), join(protos, "google/api"), { recursive: true });
  cpSync(join(repoRoot, gp, "google/rpc"), join(protos, "google/rpc"), { recursive: true });
  cpSync(join(repoRoot, FIXTURE), join(protos, "names"), { recursive: true });
  const rel = relative(repoRoot, protos);
  const inputs = [
    `  - directory: ${rel}`,
    `    paths: [${rel}/names, ${rel}/google/rpc/status.proto, ${rel}/google/rpc/error_details.proto]`,
  ];
  notices = generate("default", inputs, out, ["import_extension=js"]);
  generate("connect", inputs, connectOut, ["import_extension=js", "grpc_server=connect"]);
}, 60_000);

afterAll(() => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

describe("the generated code of the names fixture", () => {
  it("type-checks as a strict user project (exactOptionalPropertyTypes, noUncheckedIndexedAccess), on both gRPC stacks", () => {
    expect(
      typeCheck([...tsFiles(out), ...tsFiles(connectOut, /_a2a_[a-z_]+\.ts$/)], {
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
      }),
    ).toEqual([]);
  }, 240_000);

  it("imports the proto's types named like globals under aliases, and says so in one line", () => {
    const handler = readFileSync(join(out, "names/v1/reserved_names_a2a_handler.ts"), "utf8");
    expect(handler).toMatch(
      /^\/\/ Names of TypeScript's and of this file \(the proto's types of these names are imported under aliases\): .*\bPromise\b.*\bRecord\b/m,
    );
    expect(handler).toMatch(/\bPromise as Promise\$1\b/);
    expect(handler).toMatch(/\bRecord as Record\$1\b/);
    expect(handler).toMatch(/\bAsyncIterable as AsyncIterable\$1\b/);
    // A file without such names has no such line (generated-example/gen stays as it was).
    expect(readFileSync(join(out, "names/v1/two_services_a2a_handler.ts"), "utf8")).not.toMatch(
      /Names of TypeScript's/,
    );
  });

  it("escapes RPC names no method may have with protobuf-es's `$`, everywhere the operation is named", () => {
    const handler = readFileSync(join(out, "names/v1/reserved_names_a2a_handler.ts"), "utf8");
    for (const name of [
      "then",
      "transport",
      "hasOwnProperty",
      "isPrototypeOf",
      "propertyIsEnumerable",
      "toLocaleString",
      "constructor",
      "toString",
      "valueOf",
      "toJSON",
    ]) {
      expect(handler, name).toMatch(new RegExp(`^  ${name}\\$\\(request: `, "m"));
      // The table keys the operation by the handler method's name; where that differs from protobuf-es's
      // (which escapes only constructor, toString, toJSON and valueOf itself), the table says so.
      const own = ["constructor", "toString", "toJSON", "valueOf"].includes(name)
        ? ""
        : `, "${name}\\$"`;
      expect(handler, name).toMatch(
        new RegExp(
          `^  ${name}\\$: operationOf(?:\\$\\d+)?\\(NamesService\\.method\\.${name}\\$?, "${name}"${own}\\),$`,
          "m",
        ),
      );
    }
    expect(RESERVED_OPERATION_NAMES.has("then")).toBe(true);
  });
});

describe("the reserved-name table", () => {
  let used: ReturnType<typeof generatedScopeNames>;
  beforeAll(() => {
    const generated = /_a2a_[a-z0-9_]+\.ts$/;
    used = generatedScopeNames([
      ...tsFiles(join(repoRoot, "generated-example/gen"), generated),
      ...tsFiles(out, generated),
      ...tsFiles(connectOut, generated),
    ]);
  }, 240_000);

  it("holds every global the generated files refer to", () => {
    expect(used.globals.length).toBeGreaterThan(5);
    expect(
      used.globals.filter((name) => !(GENERATED_CODE_GLOBALS as readonly string[]).includes(name)),
    ).toEqual([]);
  });

  it("holds every name the generated files declare without exporting (but the per-service helpers, `<what>Of<Service>`, and names with an inner `$`, which no proto name or protobuf-es escape has)", () => {
    expect(used.locals).toContain("Principal");
    const unlisted = used.locals.filter(
      (name) =>
        !/^[a-z][A-Za-z]*Of[A-Z]\w*$/.test(name) &&
        !/\$[\w$]/.test(name) &&
        !(GENERATED_CODE_LOCALS as readonly string[]).includes(name),
    );
    expect(unlisted).toEqual([]);
  });

  it("holds every name the generated files import from a package (protoc-gen-es's file descriptors aside)", () => {
    const unlisted = used.imports.filter(
      (name) =>
        !name.startsWith("file_") && !(GENERATED_CODE_IMPORTS as readonly string[]).includes(name),
    );
    expect(unlisted).toEqual([]);
  });

  it("lists only TypeScript lib and Node globals as globals, and only names the packages export as imports", () => {
    const project = new Project({
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ["lib.es2023.d.ts"],
        types: ["node"],
        skipLibCheck: true,
        customConditions: ["@protoc-gen-a2a/source"],
      },
    });
    const entries = [
      "@protoc-gen-a2a/runtime",
      ...[
        "client",
        "http",
        "jsonrpc",
        "rest",
        "grpc",
        "grpc-js",
        "task",
        "sqlite",
        "postgres",
        "v0_3",
        "v0_3/client",
        "testing",
      ].map((e) => `@protoc-gen-a2a/runtime/${e}`),
      "@bufbuild/protobuf",
      "@bufbuild/protobuf/wkt",
      "@connectrpc/connect",
    ];
    const probe = project.createSourceFile(
      join(repoRoot, "test/.tmp/reserved-names-probe.ts"),
      entries.map((e, i) => `import * as m${i} from "${e}";\nexport { m${i} };`).join("\n"),
    );
    const checker = project.getTypeChecker().compilerObject;
    const exported = new Set<string>();
    for (const declaration of probe.getImportDeclarations()) {
      const module = declaration.getModuleSpecifierSourceFile();
      if (module === undefined)
        throw new Error(`cannot resolve ${declaration.getModuleSpecifierValue()}`);
      for (const name of module.getExportedDeclarations().keys()) exported.add(name);
    }
    expect(GENERATED_CODE_IMPORTS.filter((name) => !exported.has(name))).toEqual([]);
    const inScope = new Map(
      checker
        .getSymbolsInScope(probe.compilerNode, ts.SymbolFlags.Type | ts.SymbolFlags.Value)
        .map((s) => [s.name, s]),
    );
    const notGlobal = GENERATED_CODE_GLOBALS.filter((name) => {
      const declarations = inScope.get(name)?.getDeclarations() ?? [];
      // TypeScript's lib, or Node's globals (`Request`, `Response`, `URL`: @types/node declares them without lib.dom).
      return (
        declarations.length === 0 ||
        !declarations.every((d) =>
          /\/typescript\/lib\/lib\.[^/]*\.d\.ts$|\/@types\/node\//.test(d.getSourceFile().fileName),
        )
      );
    });
    expect(notGlobal).toEqual([]);
  });

  it("has a message and an RPC of each of its names in the fixture", () => {
    const proto = readFileSync(join(repoRoot, FIXTURE, "v1/reserved_names.proto"), "utf8");
    const messages = new Set([...proto.matchAll(/^message (\w+) \{/gm)].map((m) => m[1]));
    const rpcs = new Set(
      [...proto.matchAll(/^ {2}rpc (\w+)\(/gm)].map(
        (m) => (m[1]![0]!.toLowerCase() + m[1]!.slice(1)) as string,
      ),
    );
    const table = [...GENERATED_CODE_GLOBALS, ...GENERATED_CODE_LOCALS, ...GENERATED_CODE_IMPORTS];
    expect(table.filter((name) => !messages.has(name))).toEqual([]);
    expect(table.filter((name) => !rpcs.has(name[0]!.toLowerCase() + name.slice(1)))).toEqual([]);
    expect([...RESERVED_OPERATION_NAMES].filter((name) => !rpcs.has(name))).toEqual([]);
  });
});

interface OperationInfo {
  readonly name: string;
  readonly localName: string;
  readonly kind: "unary" | "server_streaming";
  readonly input: DescMessage;
  readonly output: DescMessage;
}
type Module = Record<string, unknown>;
type Client = Record<string, (request: unknown) => unknown>;
type ClientClass = new (options: object) => Client;

async function imp(base: string, suffix: string): Promise<Module> {
  return (await import(pathToFileURL(join(out, `${base}${suffix}`)).href)) as Module;
}

/** A handler answering each operation with its request's id echoed (two events on a stream), recording what it got. */
function echoHandler(
  ops: Readonly<Record<string, OperationInfo>>,
  received: { op: string; request: Message }[],
): object {
  const handler: Record<string, unknown> = {};
  for (const [key, op] of Object.entries(ops)) {
    const answer = (request: Message) =>
      create(op.output, { id: `${op.name}:${(request as unknown as { id: string }).id}` } as never);
    handler[key] =
      op.kind === "server_streaming"
        ? async function* (request: Message) {
            received.push({ op: key, request });
            yield answer(request);
            yield answer(request);
          }
        : async (request: Message) => {
            received.push({ op: key, request });
            return answer(request);
          };
  }
  return handler;
}

async function call(client: Client, op: OperationInfo, request: Message): Promise<string[]> {
  const method = client[op.localName];
  if (typeof method !== "function") throw new Error(`the client has no method ${op.localName}`);
  const result = method.call(client, request);
  const ids = (m: unknown) => (m as { id: string }).id;
  if (op.kind === "unary") return [ids(await result)];
  const events: string[] = [];
  for await (const event of result as AsyncIterable<Message>) events.push(ids(event));
  return events;
}

/** Serves a service of a generated file on the three bindings; its three clients. */
async function serveAll(
  base: string,
  service: string,
  handler: object,
  closers: (() => Promise<void>)[],
): Promise<Record<"jsonrpc" | "rest" | "grpc", Client> & { jsonRpcUrl: string }> {
  const jsonRpc = (await imp(base, "_a2a_jsonrpc_server.ts"))[`create${service}JsonRpcServer`] as (
    h: object,
  ) => { node: Parameters<typeof listen>[0] };
  const rest = (await imp(base, "_a2a_rest_server.ts"))[`create${service}RestServer`] as (
    h: object,
  ) => { node: Parameters<typeof listen>[0] };
  const grpc = (await imp(base, "_a2a_grpc_server.ts"))[`listen${service}Grpc`] as (
    h: object,
    o: object,
  ) => Promise<{ address: string; close(): Promise<void> }>;
  const jsonRpcHttp: Listening = await listen(jsonRpc(handler).node);
  const restHttp: Listening = await listen(rest(handler).node);
  const endpoint = await grpc(handler, { listen: { host: "127.0.0.1", port: 0 } });
  closers.push(
    () => jsonRpcHttp.close(),
    () => restHttp.close(),
    () => endpoint.close(),
  );
  const client = async (suffix: string, name: string, options: object) =>
    new ((await imp(base, suffix))[name] as ClientClass)(options);
  return {
    jsonrpc: await client("_a2a_jsonrpc_client.ts", `${service}JsonRpcClient`, {
      url: jsonRpcHttp.url,
    }),
    rest: await client("_a2a_rest_client.ts", `${service}RestClient`, { url: restHttp.url }),
    grpc: await client("_a2a_grpc_client.ts", `${service}GrpcClient`, {
      address: endpoint.address,
    }),
    jsonRpcUrl: jsonRpcHttp.url,
  };
}

describe("NamesService over the three bindings", () => {
  const closers: (() => Promise<void>)[] = [];
  const received: { op: string; request: Message }[] = [];
  let ops: Readonly<Record<string, OperationInfo>>;
  let clients: Awaited<ReturnType<typeof serveAll>>;
  beforeAll(async () => {
    ops = (await imp("names/v1/reserved_names", "_a2a_handler.ts"))[
      "NamesServiceOperations"
    ] as typeof ops;
    clients = await serveAll(
      "names/v1/reserved_names",
      "NamesService",
      echoHandler(ops, received),
      closers,
    );
  }, 60_000);
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it.each(["jsonrpc", "rest", "grpc"] as const)(
    "%s: every RPC (then, constructor, toString, Promise, Record, …) reaches its handler method and answers",
    async (binding) => {
      const client = clients[binding];
      expect(Object.keys(ops).length).toBeGreaterThan(100);
      for (const op of Object.values(ops)) {
        received.length = 0;
        const sent = create(op.input, { id: `${binding}-${op.name}` } as never);
        const answers = await call(client, op, sent);
        expect(
          received.map((r) => r.op),
          op.name,
        ).toEqual([op.localName]);
        expect(equals(op.input, received[0]!.request, sent), op.name).toBe(true);
        expect(answers, op.name).toEqual(
          op.kind === "unary"
            ? [`${op.name}:${binding}-${op.name}`]
            : [`${op.name}:${binding}-${op.name}`, `${op.name}:${binding}-${op.name}`],
        );
      }
    },
  );

  it("a client is not a thenable: awaiting it, or returning it from an async function, gives the client", async () => {
    for (const client of [clients.jsonrpc, clients.rest, clients.grpc]) {
      expect(typeof (client as { then?: unknown }).then).toBe("undefined");
      expect(typeof client["then$"]).toBe("function");
      expect(await client).toBe(client);
      const returned = await (async () => client)();
      expect(returned).toBe(client);
    }
  });

  it("JSON-RPC dispatches `then` and `toString` by RPC name, and an RPC name nothing declares is method-not-found (no Object.prototype lookup)", async () => {
    const post = async (method: string) => {
      const response = await fetch(clients.jsonRpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { id: "x" } }),
      });
      return (await response.text()).trim();
    };
    expect(JSON.parse(await post("then"))).toMatchObject({ result: { id: "then:x" } });
    expect(await post("toString")).toContain("toString:x");
    expect(JSON.parse(await post("__proto__"))).toMatchObject({ error: { code: -32601 } });
    expect(JSON.parse(await post("toLocaleString"))).toMatchObject({
      result: { id: "toLocaleString:x" },
    });
  });
});

describe("two services in one file with the same RPC names", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });
  const base = "names/v1/two_services";
  const doc = (suffix: string) =>
    JSON.parse(readFileSync(join(out, `${base}${suffix}`), "utf8")) as Record<string, unknown>;

  it("OpenRPC: every method name is unique, qualified by service where the RPC name is ambiguous", () => {
    const methods = (doc("_a2a_openrpc.json")["methods"] as { name: string }[]).map((m) => m.name);
    expect(methods).toEqual([
      "ShelfService.Get",
      "ShelfService.List",
      "Watch",
      "BoxService.Get",
      "BoxService.List",
      "Count",
    ]);
  });

  it("JSON Schema: the JSON-RPC request envelope of an ambiguous RPC takes both names", () => {
    const defs = doc("_a2a_schema.json")["$defs"] as Record<
      string,
      { properties: { method: unknown } }
    >;
    expect(defs["corpus.names.v1.ShelfService.Get.JsonRpcRequest"]?.properties.method).toEqual({
      enum: ["ShelfService.Get", "Get"],
    });
    expect(defs["corpus.names.v1.ShelfService.Watch.JsonRpcRequest"]?.properties.method).toEqual({
      const: "Watch",
    });
  });

  it("OpenAPI: operationIds are unique; the path both services bind is described once, and generation says so naming both", () => {
    const paths = doc("_a2a_openapi.json")["paths"] as Record<
      string,
      Record<string, { operationId: string }>
    >;
    const ids = Object.values(paths).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "ShelfService_Get",
        "ShelfService_List",
        "BoxService_List",
        "Watch",
        "Count",
      ]),
    );
    expect(paths["/v1/items/{item}"]?.["get"]?.operationId).toBe("ShelfService_Get");
    expect(notices).toMatch(
      /protoc-gen-a2a: notice: names\/v1\/two_services\.proto: rpc corpus\.names\.v1\.BoxService\.Get: GET \/v1\/\{name=items\/\*\} is also bound by rpc corpus\.names\.v1\.ShelfService\.Get \(another service of the file\)/,
    );
  });

  it("each service's servers serve its own Get (JSON-RPC under the RPC name and the documented qualified name)", async () => {
    for (const service of ["ShelfService", "BoxService"]) {
      const ops = (await imp(base, "_a2a_handler.ts"))[`${service}Operations`] as Readonly<
        Record<string, OperationInfo>
      >;
      const received: { op: string; request: Message }[] = [];
      const handler: Record<string, unknown> = {};
      for (const [key, op] of Object.entries(ops)) {
        handler[key] =
          op.kind === "server_streaming"
            ? async function* (request: Message) {
                received.push({ op: key, request });
                yield create(op.output, { name: service } as never);
              }
            : async (request: Message) => {
                received.push({ op: key, request });
                return create(
                  op.output,
                  op.output.typeName.endsWith("Item") ? ({ name: service } as never) : {},
                );
              };
      }
      const clients = await serveAll(base, service, handler, closers);
      for (const binding of ["jsonrpc", "rest", "grpc"] as const) {
        const item = (await clients[binding]["get"]!({ name: "items/1" })) as { name: string };
        expect(item.name, `${service} over ${binding}`).toBe(service);
      }
      for (const method of ["Get", `${service}.Get`]) {
        const response = await fetch(clients.jsonRpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "a2a-version": "1.0" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { name: "items/1" } }),
        });
        expect(await response.json(), `${service} ${method}`).toMatchObject({
          result: { name: service },
        });
      }
      const other = service === "ShelfService" ? "BoxService" : "ShelfService";
      const response = await fetch(clients.jsonRpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: `${other}.Get`,
          params: { name: "items/1" },
        }),
      });
      expect(await response.json()).toMatchObject({ error: { code: -32601 } });
    }
  });
});
