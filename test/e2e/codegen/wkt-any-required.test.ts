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
import {
  create,
  createRegistry,
  fromJson,
  getExtension,
  setExtension,
  toJson,
  type DescExtension,
  type DescMessage,
  type Message,
} from "@bufbuild/protobuf";
import {
  anyPack,
  anyUnpack,
  TimestampSchema,
  timestampFromDate,
  DurationSchema,
} from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufGenTemplate } from "../../support/buf-gen-template.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { listen } from "../../support/servers.js";
import { typeCheck } from "../../support/type-check.js";

/**
 * Issue #28, "the generator on any proto": every well-known type as a request and a response,
 * google.protobuf.Any (the generated type registry and the agent's own), a oneof whose member is an
 * empty message, proto2 `required` fields and extensions, and a REQUIRED `body: "field"`, over
 * test/fixtures/corpus/{wkt,any,required} and google/longrunning/operations.proto. Generated with buf
 * (protoc-gen-es + the bundled plugin) into test/.tmp; each RPC is called through the generated
 * JSON-RPC, HTTP+JSON and gRPC clients against the generated servers on 127.0.0.1.
 */
const buf = join(repoRoot, "node_modules/.bin/buf");
const gp = "node_modules/google-proto-files";
let tmp: string;
let out: string;

function generate(name: string, input: readonly string[]): void {
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
}

beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  tmp = mkdtempSync(join(repoRoot, "test/.tmp/wkt-any-"));
  out = join(tmp, "out");
  const protos = relative(repoRoot, join(tmp, "protos"));
  cpSync(join(repoRoot, gp, "google/api"), join(repoRoot, protos, "google/api"), {
    recursive: true,
  });
  cpSync(join(repoRoot, "test/fixtures/corpus"), join(repoRoot, protos), { recursive: true });
  generate("corpus", [
    `  - directory: ${protos}`,
    `    paths: [${protos}/wkt, ${protos}/any, ${protos}/required]`,
  ]);
  generate("longrunning", [
    `  - directory: ${gp}`,
    `    paths: [${gp}/google/longrunning/operations.proto, ${gp}/google/rpc/error_details.proto]`,
  ]);
}, 60_000);

afterAll(() => {
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

type Client = Record<
  string,
  (request: unknown, options?: object) => Promise<unknown> & AsyncIterable<unknown>
>;
type ErrorClass = new (...a: never[]) => Error;
interface OperationInfo {
  readonly name: string;
  readonly input: DescMessage;
  readonly output: DescMessage;
  readonly kind: string;
}

/** One service served on the three bindings, each with its generated client. */
interface Served {
  readonly ops: Readonly<Record<string, OperationInfo>>;
  readonly clients: { readonly jsonrpc: Client; readonly rest: Client; readonly grpc: Client };
  readonly received: { op: string; request: Message }[];
  readonly errors: Record<string, unknown>;
  readonly jsonrpcUrl: string;
  readonly restUrl: string;
  readonly grpcAddress: string;
  close(): Promise<void>;
}

const imp = (file: string) =>
  import(pathToFileURL(join(out, file)).href) as Promise<Record<string, unknown>>;

/** Serves `service` of `base` on JSON-RPC, HTTP+JSON and gRPC (grpc-js) with a handler that records each request and answers `reply`. */
async function serve(
  base: string,
  service: string,
  reply: (op: string, request: Message) => Message | AsyncIterable<Message>,
  options: { server?: object; client?: object } = {},
): Promise<Served> {
  const [
    handler,
    jsonrpcServer,
    jsonrpcClient,
    restServer,
    restClient,
    grpcServer,
    grpcClient,
    errors,
  ] = await Promise.all(
    [
      "handler",
      "jsonrpc_server",
      "jsonrpc_client",
      "rest_server",
      "rest_client",
      "grpc_server",
      "grpc_client",
      "errors",
    ].map((kind) => imp(`${base}_a2a_${kind}.ts`)),
  );
  const ops = handler![`${service}Operations`] as Served["ops"];
  const received: Served["received"] = [];
  const impl = new Proxy(
    {},
    {
      get: (_t, key) => {
        if (typeof key !== "string" || ops[key] === undefined) return undefined;
        if (ops[key].kind === "server_streaming") {
          return (request: Message) => {
            received.push({ op: key, request });
            return reply(key, request);
          };
        }
        return async (request: Message) => {
          received.push({ op: key, request });
          return reply(key, request);
        };
      },
    },
  );
  const make = (m: Record<string, unknown> | undefined, name: string) =>
    m![name] as (...a: unknown[]) => unknown;
  const jsonrpc = await listen(
    (
      make(jsonrpcServer, `create${service}JsonRpcServer`)(impl, options.server) as {
        node: Parameters<typeof listen>[0];
      }
    ).node,
  );
  const rest = await listen(
    (
      make(restServer, `create${service}RestServer`)(impl, options.server) as {
        node: Parameters<typeof listen>[0];
      }
    ).node,
  );
  const grpc = (await make(grpcServer, `listen${service}Grpc`)(impl, {
    ...options.server,
    listen: { host: "127.0.0.1", port: 0 },
  })) as { address: string; close(): Promise<void> };
  const client = (m: Record<string, unknown> | undefined, name: string, init: object) =>
    new (m![name] as new (o: object) => Client)({ ...init, ...options.client });
  return {
    ops,
    received,
    errors: errors!,
    jsonrpcUrl: jsonrpc.url,
    restUrl: rest.url,
    grpcAddress: grpc.address,
    clients: {
      jsonrpc: client(jsonrpcClient, `${service}JsonRpcClient`, { url: jsonrpc.url }),
      rest: client(restClient, `${service}RestClient`, { url: rest.url }),
      grpc: client(grpcClient, `${service}GrpcClient`, { address: grpc.address }),
    },
    close: async () => {
      await Promise.all([jsonrpc.close(), rest.close(), grpc.close()]);
    },
  };
}

const BINDINGS = ["jsonrpc", "rest", "grpc"] as const;

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}

async function postJson(
  url: string,
  body: unknown,
  method = "POST",
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? {} : JSON.parse(text) };
}

describe("generation", () => {
  it("the generated code type-checks under strict", () => {
    const files = readdirSync(out, { recursive: true, encoding: "utf8" })
      .filter((f) => /_a2a_[a-z_]+\.ts$/.test(f))
      .map((f) => join(out, f));
    expect(files.length).toBeGreaterThan(30);
    expect(typeCheck(files)).toEqual([]);
  }, 120_000);

  it("the documents describe every well-known type (JSON Schema, OpenAPI, OpenRPC by-position params)", () => {
    const openrpc = JSON.parse(readFileSync(join(out, "wkt/v1/wkt_a2a_openrpc.json"), "utf8")) as {
      methods: {
        name: string;
        paramStructure: string;
        params: { schema: unknown }[];
        result: { schema: unknown };
      }[];
    };
    const method = (name: string) => openrpc.methods.find((m) => m.name === name)!;
    expect(method("EchoTimestamp").paramStructure).toBe("by-position");
    expect(method("EchoTimestamp").params[0]!.schema).toMatchObject({
      type: "string",
      format: "date-time",
    });
    expect(method("EchoDuration").params[0]!.schema).toMatchObject({ type: "string" });
    expect(method("EchoFieldMask").params[0]!.schema).toEqual({ type: "string" });
    expect(method("EchoBool").params[0]!.schema).toEqual({ type: "boolean" });
    expect(method("EchoValue").params[0]!.schema).toEqual({});
    expect(method("EchoListValue").params[0]!.schema).toEqual({ type: "array" });
    expect(method("EchoStruct")).toMatchObject({
      paramStructure: "by-name",
      params: [],
      result: { schema: { type: "object" } },
    });
    expect(method("EchoEmpty")).toMatchObject({ paramStructure: "by-name", params: [] });
    expect(method("EchoAny")).toMatchObject({
      paramStructure: "by-name",
      result: { schema: { required: ["@type"] } },
    });
    const openapi = JSON.parse(readFileSync(join(out, "wkt/v1/wkt_a2a_openapi.json"), "utf8")) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: unknown }> };
            parameters: { in: string }[];
          }
        >
      >;
    };
    expect(
      openapi.paths["/v1/duration"]!["post"]!.requestBody!.content["application/json"]!.schema,
    ).toMatchObject({ type: "string" });
    expect(
      openapi.paths["/v1/int64"]!["post"]!.requestBody!.content["application/json"]!.schema,
    ).toMatchObject({ anyOf: expect.any(Array) });
    const bundle = JSON.parse(readFileSync(join(out, "wkt/v1/wkt_a2a_schema.json"), "utf8")) as {
      $defs: Record<string, { properties?: Record<string, unknown> }>;
    };
    const request = Object.entries(bundle.$defs).find(
      ([name]) => name.includes("EchoDuration") && name.endsWith("JsonRpcRequest"),
    )![1];
    expect(request.properties!["params"]).toMatchObject({
      type: "array",
      prefixItems: [{ type: "string" }],
      minItems: 1,
      maxItems: 1,
    });
  });
});

describe("test/fixtures/corpus/wkt: every well-known type as request and response", () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve("wkt/v1/wkt", "WktService", (op, request) => {
      if (op === "ping") return create(TimestampSchema, { seconds: 7n });
      if (op === "watchDurations") {
        return (async function* () {
          yield request;
          yield create(DurationSchema, { seconds: 2n });
        })();
      }
      return request;
    });
  });
  afterAll(() => s?.close());

  const cases: [string, unknown][] = [
    ["echoStruct", { a: 1, b: [true, null, "x"], c: { d: {} } }],
    ["echoValue", "text"],
    ["echoValue", 1.5],
    ["echoValue", null],
    ["echoValue", [1, { a: "b" }]],
    ["echoValue", { k: [] }],
    ["echoListValue", [1, "two", { three: 3 }, null]],
    ["echoListValue", []],
    ["echoTimestamp", "2024-05-06T07:08:09.123Z"],
    ["echoDuration", "1.500s"],
    ["echoDuration", "-3s"],
    ["echoFieldMask", "a.b,cD"],
    ["echoEmpty", {}],
    [
      "echoAny",
      { "@type": "type.googleapis.com/google.protobuf.Timestamp", value: "1970-01-01T00:00:01Z" },
    ],
    ["echoAny", { "@type": "type.googleapis.com/google.protobuf.Duration", value: "2s" }],
    ["echoString", "ü/x"],
    ["echoString", ""],
    ["echoBytes", "AAEC/w=="],
    ["echoBool", true],
    ["echoBool", false],
    ["echoInt32", -5],
    ["echoInt64", "-9007199254740993"],
    ["echoUInt32", 4294967295],
    ["echoUInt64", "18446744073709551615"],
    ["echoFloat", 1.5],
    ["echoDouble", "Infinity"],
  ];

  it.each(BINDINGS)(
    "%s: each request reaches the server as sent and its response comes back",
    async (binding) => {
      const registry = createRegistry(TimestampSchema, DurationSchema);
      for (const [op, json] of cases) {
        const schema = s.ops[op]!.input;
        const sent = fromJson(schema, json as never, { registry });
        const what = `${op} ${JSON.stringify(json)}`;
        s.received.length = 0;
        const got = (await s.clients[binding][op]!(sent)) as Message;
        expect(
          s.received.map((r) => r.op),
          what,
        ).toEqual([op]);
        expect(toJson(schema, s.received[0]!.request, { registry }), what).toEqual(
          toJson(schema, sent, { registry }),
        );
        expect(toJson(s.ops[op]!.output, got, { registry }), what).toEqual(
          toJson(schema, sent, { registry }),
        );
      }
      expect(toJson(TimestampSchema, (await s.clients[binding]["ping"]!({})) as never)).toBe(
        "1970-01-01T00:00:07Z",
      );
      const events: unknown[] = [];
      for await (const event of s.clients[binding]["watchDurations"]!(
        create(DurationSchema, { seconds: 1n, nanos: 500_000_000 }),
      ))
        events.push(toJson(DurationSchema, event as never));
      expect(events).toEqual(["1.500s", "2s"]);
    },
  );

  it("JSON-RPC carries a non-object request by position, [value], and answers anything else with InvalidParams", async () => {
    const call = (method: string, params?: unknown) =>
      postJson(s.jsonrpcUrl, {
        jsonrpc: "2.0",
        id: 1,
        method,
        ...(params === undefined ? {} : { params }),
      });
    expect((await call("EchoDuration", ["1.5s"])).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: "1.500s",
    });
    expect((await call("EchoBool", [true])).json).toEqual({ jsonrpc: "2.0", id: 1, result: true });
    expect((await call("EchoValue", [{ a: [1] }])).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { a: [1] },
    });
    expect((await call("EchoListValue", [[1, 2]])).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: [1, 2],
    });
    expect((await call("EchoStruct", { a: 1 })).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { a: 1 },
    });
    for (const params of [{ value: "1s" }, "1s", [], ["1s", "2s"], undefined]) {
      const answer = (await call("EchoDuration", params)).json as {
        error?: { code: number; message: string };
      };
      expect(answer.error?.code, JSON.stringify(params)).toBe(-32602);
      expect(answer.error?.message).toMatch(
        params === "1s"
          ? /params must be a JSON object/
          : /params of a google\.protobuf\.Duration request must be a one-element array/,
      );
    }
    expect(
      ((await call("EchoDuration", ["soon"])).json as { error?: { code: number } }).error?.code,
    ).toBe(-32602);
    expect(
      ((await call("EchoStruct", [{ a: 1 }])).json as { error?: { message: string } }).error
        ?.message,
    ).toMatch(/params must be a JSON object \(by-name parameters\)/);
  });

  it("HTTP+JSON carries the ProtoJSON value as the body, as it is", async () => {
    expect(await postJson(`${s.restUrl}v1/duration`, "1.5s")).toEqual({
      status: 200,
      json: "1.500s" as never,
    });
    expect(await postJson(`${s.restUrl}v1/bool`, true)).toEqual({
      status: 200,
      json: true as never,
    });
    expect(await postJson(`${s.restUrl}v1/list-value`, [1, "x"])).toEqual({
      status: 200,
      json: [1, "x"] as never,
    });
    expect(await postJson(`${s.restUrl}v1/value`, null)).toEqual({
      status: 200,
      json: null as never,
    });
    const bad = await postJson(`${s.restUrl}v1/timestamp`, "yesterday");
    expect(bad.status).toBe(400);
    expect((bad.json as { error: { status: string } }).error.status).toBe("INVALID_ARGUMENT");
    expect((await postJson(`${s.restUrl}v1/duration?seconds=1`, "1s")).status).toBe(400);
  });
});

describe("google/longrunning/operations.proto: an Operation whose metadata packs a Timestamp", () => {
  let s: Served;
  let OperationSchema: DescMessage;
  const at = timestampFromDate(new Date("2024-01-02T03:04:05.678Z"));
  beforeAll(async () => {
    OperationSchema = (
      (await imp("google/longrunning/operations_pb.ts")) as { OperationSchema: DescMessage }
    ).OperationSchema;
    s = await serve("google/longrunning/operations", "Operations", (op, request) =>
      op === "getOperation"
        ? create(OperationSchema, {
            name: (request as unknown as { name: string }).name,
            metadata: anyPack(TimestampSchema, at),
            done: true,
            result: {
              case: "response",
              value: anyPack(DurationSchema, create(DurationSchema, { seconds: 90n })),
            },
          } as never)
        : create(s.ops[op]!.output),
    );
  });
  afterAll(() => s?.close());

  it.each(BINDINGS)(
    "%s: the Any comes back unpacked by the generated registry",
    async (binding) => {
      const got = (await s.clients[binding]["getOperation"]!({ name: "operations/1" })) as {
        name: string;
        metadata: never;
        result: { value: never };
      };
      expect(got.name).toBe("operations/1");
      expect(anyUnpack(got.metadata, TimestampSchema)).toEqual(at);
      expect(anyUnpack(got.result.value, DurationSchema)?.seconds).toBe(90n);
    },
  );

  it("the JSON bindings write the Any as ProtoJSON with its @type", async () => {
    const rest = await fetch(`${s.restUrl}v1/operations/1`, { headers: { "a2a-version": "1.0" } });
    expect(await rest.json()).toMatchObject({
      metadata: {
        "@type": "type.googleapis.com/google.protobuf.Timestamp",
        value: "2024-01-02T03:04:05.678Z",
      },
      response: { value: "90s" },
    });
    const rpc = await postJson(s.jsonrpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "GetOperation",
      params: { name: "operations/1" },
    });
    expect(rpc.json["result"]).toMatchObject({
      metadata: { "@type": "type.googleapis.com/google.protobuf.Timestamp" },
    });
  });
});

describe("test/fixtures/corpus/any: Any in requests and responses, a oneof with an empty-message member", () => {
  let s: Served;
  let pb: Record<string, DescMessage>;
  let itemPb: Record<string, DescMessage | DescExtension>;
  beforeAll(async () => {
    pb = (await imp("any/v1/any_pb.ts")) as Record<string, DescMessage>;
    itemPb = (await imp("required/v1/required_pb.ts")) as Record<
      string,
      DescMessage | DescExtension
    >;
    // The agent's own type (not imported by any.proto) comes through the `registry` option of servers and clients.
    const own = createRegistry(
      itemPb["ItemSchema"] as DescMessage,
      itemPb["label"] as DescExtension,
    );
    s = await serve(
      "any/v1/any",
      "AnyService",
      (op, request) => {
        const r = request as unknown as {
          envelope?: Message;
          payload?: Message;
          name?: string;
          view?: { case?: string };
        };
        if (op === "putEnvelope") return r.envelope ?? create(pb["EnvelopeSchema"]!);
        if (op === "findEnvelope")
          return create(pb["EnvelopeSchema"]!, {
            name: r.name,
            choice:
              r.view?.case === "basic"
                ? { case: "nothing", value: {} }
                : { case: "label", value: "l" },
          } as never);
        if (op === "wrap") return r.payload!;
        const reply = create(pb["EnvelopeSchema"]!, {
          name: r.name,
          choice:
            r.view?.case === "basic"
              ? { case: "nothing", value: {} }
              : { case: "label", value: "l" },
        } as never);
        if (op === "watchEnvelopes") {
          return (async function* () {
            yield reply;
          })();
        }
        return reply;
      },
      { server: { registry: own }, client: { registry: own } },
    );
  });
  afterAll(() => s?.close());

  const envelope = () =>
    create(pb["EnvelopeSchema"]!, {
      name: "e",
      payload: anyPack(TimestampSchema, create(TimestampSchema, { seconds: 1n })),
      extras: [
        anyPack(DurationSchema, create(DurationSchema, { seconds: 3n })),
        anyPack(
          pb["NoteSchema"]!,
          create(pb["NoteSchema"]!, { text: "n", at: { seconds: 2n } } as never),
        ),
      ],
      byKey: { k: anyPack(pb["NothingSchema"]!, create(pb["NothingSchema"]!)) },
      attributes: { fields: { x: { kind: { case: "numberValue", value: 1 } } } },
      choice: { case: "nothing", value: create(pb["NothingSchema"]!) },
    } as never);

  it.each(BINDINGS)(
    "%s: Any fields, an empty-message oneof member and the agent's own types survive both ways",
    async (binding) => {
      const registry = createRegistry(
        pb["NoteSchema"]!,
        pb["NothingSchema"]!,
        TimestampSchema,
        DurationSchema,
      );
      const json = (m: Message) => toJson(pb["EnvelopeSchema"]!, m, { registry });
      s.received.length = 0;
      const put = (await s.clients[binding]["putEnvelope"]!({
        parent: "shelves/1",
        envelope: envelope(),
      })) as Message;
      expect(json(put)).toEqual(json(envelope()));
      expect(
        (s.received[0]!.request as unknown as { envelope: { choice: { case: string } } }).envelope
          .choice.case,
      ).toBe("nothing");
      for (const op of ["getEnvelope", "findEnvelope"]) {
        for (const view of [
          { case: "basic", value: {} },
          { case: "fields", value: "a" },
        ]) {
          s.received.length = 0;
          const got = (await s.clients[binding][op]!({ name: "e", view })) as {
            choice: { case: string };
          };
          expect(
            (s.received[0]!.request as unknown as { view: { case: string } }).view.case,
            `${binding} ${op} ${view.case}`,
          ).toBe(view.case);
          expect(got.choice.case).toBe(view.case === "basic" ? "nothing" : "label");
        }
      }
      const events: { choice: { case: string } }[] = [];
      for await (const e of s.clients[binding]["watchEnvelopes"]!({
        name: "e",
        view: { case: "basic", value: {} },
      }))
        events.push(e as never);
      expect(events.map((e) => e.choice.case)).toEqual(["nothing"]);
      // An Item (required.proto, the agent's own type) with an extension, packed in an Any.
      const item = create(itemPb["ItemSchema"] as DescMessage, { id: "i", count: 0 } as never);
      setExtension(item, itemPb["label"] as DescExtension, "L" as never);
      const wrapped = (await s.clients[binding]["wrap"]!({
        payload: anyPack(itemPb["ItemSchema"] as DescMessage, item),
      })) as never;
      const back = anyUnpack(wrapped, itemPb["ItemSchema"] as DescMessage)!;
      expect(toJson(itemPb["ItemSchema"] as DescMessage, back)).toEqual({ id: "i", count: 0 });
      expect(getExtension(back, itemPb["label"] as DescExtension)).toBe("L");
    },
  );

  it("an Any of a type no registry has is InvalidParams, not InternalError", async () => {
    const answer = await postJson(s.jsonrpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "Wrap",
      params: { payload: { "@type": "type.googleapis.com/x.Unknown", a: 1 } },
    });
    expect((answer.json["error"] as { code: number; message: string }).code).toBe(-32602);
    expect((answer.json["error"] as { message: string }).message).toMatch(/x\.Unknown/);
  });
});

describe("test/fixtures/corpus/required (proto2): required fields, an extension, a REQUIRED body field", () => {
  let s: Served;
  let pb: Record<string, DescMessage | DescExtension>;
  const sent: string[] = [];
  beforeAll(async () => {
    pb = (await imp("required/v1/required_pb.ts")) as Record<string, DescMessage | DescExtension>;
    const ItemSchema = pb["ItemSchema"] as DescMessage;
    s = await serve(
      "required/v1/required",
      "RequiredService",
      (op, request) => {
        if (op === "createItem") return (request as unknown as { item: Message }).item;
        const item = create(ItemSchema, {
          id: (request as unknown as { name: string }).name,
          count: 2,
        } as never);
        setExtension(item, pb["label"] as DescExtension, "from the server" as never);
        setExtension(item, pb["rank"] as DescExtension, 7 as never);
        return item;
      },
      {
        client: {
          fetch: (url: string, init: RequestInit) => {
            sent.push(String(url));
            return fetch(url, init);
          },
        },
      },
    );
  });
  afterAll(() => s?.close());

  it.each(BINDINGS)("%s: extensions travel both ways", async (binding) => {
    const ItemSchema = pb["ItemSchema"] as DescMessage;
    const item = create(ItemSchema, { id: "i", count: 0 } as never);
    setExtension(item, pb["label"] as DescExtension, "to the server" as never);
    s.received.length = 0;
    const echoed = (await s.clients[binding]["createItem"]!({
      parent: "shelves/1",
      item,
    })) as Message;
    expect(
      getExtension(
        (s.received[0]!.request as unknown as { item: Message }).item,
        pb["label"] as DescExtension,
      ),
    ).toBe("to the server");
    expect(getExtension(echoed, pb["label"] as DescExtension)).toBe("to the server");
    const got = (await s.clients[binding]["getItem"]!({ name: "n" })) as Message;
    expect(getExtension(got, pb["label"] as DescExtension)).toBe("from the server");
    expect(getExtension(got, pb["rank"] as DescExtension)).toBe(7);
  });

  it.each(BINDINGS)(
    "%s: the client refuses an unset REQUIRED or proto2-required field with InvalidParamsError naming it, before sending",
    async (binding) => {
      const InvalidParamsError = s.errors["InvalidParamsError"] as ErrorClass;
      s.received.length = 0;
      sent.length = 0;
      for (const [op, request, field] of [
        ["createItem", { parent: "shelves/1" }, /item is required/],
        ["createItem", { parent: "shelves/1", item: { id: "i" } }, /item\.count is required/],
        ["getItem", {}, /name is required/],
      ] as const) {
        const e = await rejection(s.clients[binding][op]!(request));
        expect(e, `${binding} ${op} ${JSON.stringify(request)}`).toBeInstanceOf(InvalidParamsError);
        expect(e.message).toMatch(field);
      }
      expect(s.received).toEqual([]);
      expect(sent).toEqual([]);
    },
  );

  it("the servers answer the same requests sent raw with InvalidParams (the REQUIRED body field on HTTP+JSON included)", async () => {
    const rest = await fetch(`${s.restUrl}v1/shelves/1/items`, {
      method: "POST",
      headers: { "a2a-version": "1.0" },
    });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as { error: { message: string } }).error.message).toMatch(
      /item is required/,
    );
    const restGet = await fetch(`${s.restUrl}v1/items/x`, { headers: { "a2a-version": "1.0" } });
    expect(restGet.status).toBe(200);
    const rpc = await postJson(s.jsonrpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "CreateItem",
      params: { parent: "shelves/1" },
    });
    expect(rpc.json["error"]).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/item is required/),
    });
    const rpc2 = await postJson(s.jsonrpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "GetItem",
      params: {},
    });
    expect(rpc2.json["error"]).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/name is required/),
    });
    // gRPC: a plain Connect client (no checks of its own) sends the request without the REQUIRED field.
    const { createClient, ConnectError, Code } = await import("@connectrpc/connect");
    const { createGrpcTransport } = await import("@connectrpc/connect-node");
    const service = ((await imp("required/v1/required_pb.ts")) as Record<string, unknown>)[
      "RequiredService"
    ];
    const raw = createClient(
      service as never,
      createGrpcTransport({ baseUrl: `http://${s.grpcAddress}` }),
    ) as unknown as { createItem(r: object, o: object): Promise<unknown> };
    const e = await rejection(
      raw.createItem({ parent: "shelves/1" }, { headers: { "a2a-version": "1.0" } }),
    );
    expect(e).toBeInstanceOf(ConnectError);
    expect((e as InstanceType<typeof ConnectError>).code).toBe(Code.InvalidArgument);
    expect(e.message).toMatch(/item is required/);
  });
});
