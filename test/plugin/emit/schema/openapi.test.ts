/**
 * The OpenAPI document of the HTTP+JSON binding: the checked-in 3.1 one
 * (generated-example/gen/a2a_a2a_openapi.json) and a 3.2 one the plugin writes with
 * `openapi=3.2`. Each validates against the OpenAPI schema of its version
 * (@seriousme/openapi-schema-validator); has exactly the route table's path × method pairs,
 * one operation per RPC, unique operationIds, `$ref`s that resolve, schemas that compile
 * (Ajv 2020-12, strict) and have instances, the binding's content types and every HTTP status
 * of the error catalog. The 3.1 one gives openapi-typescript types that compile under strict
 * options, reject wrong values and accept free-form metadata. And requests built from each
 * document alone reach, over real HTTP, exactly the operation of their operationId on the
 * generated REST server, answered as documented: for every route a minimal one (path
 * parameters, required query and header parameters, a minimal body from the request body
 * schema), one with every documented query parameter (each arriving in its request field),
 * one with every optional scalar body property, and one per required body field left out
 * (HTTP 400 with the documented error body, the handler not called).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toJson } from "@bufbuild/protobuf";
import { errorSpecs } from "../../../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceOperationsByName } from "../../../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceRestServer } from "../../../../generated-example/gen/a2a_a2a_rest_server.js";
import { A2AServiceRoutes } from "../../../../generated-example/gen/a2a_a2a_rest_routes.js";
import { A2AService } from "../../../../generated-example/gen/a2a_pb.js";
import {
  brokenRefs,
  componentSampleViolations,
  derefAt,
  escapePointer,
  pointerChecker,
  resolvePointer,
  sampleOf,
  type Json,
} from "../../../support/openapi-samples.js";
import { RecordingAgent, readEventStream } from "../../../support/openapi-recording-agent.js";
import { fileOf, runPlugin } from "../../../support/plugin-runner.js";
import { addFormats } from "../../../support/schema-validator.js";
import { listen, type Listening } from "../../../support/servers.js";

const HTTP_METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
  "query",
] as const;
const JSON_TYPES = ["application/a2a+json", "application/json"];
const SSE = "text/event-stream";

type Obj = Record<string, any>;
interface OpenApiOperation {
  readonly method: string;
  readonly path: string;
  /** JSON pointer of the operation object. */
  readonly pointer: string;
  readonly op: Obj;
}

const checkedIn = JSON.parse(
  readFileSync(
    new URL("../../../../generated-example/gen/a2a_a2a_openapi.json", import.meta.url),
    "utf8",
  ),
) as Obj;
const v32 = JSON.parse(
  fileOf(runPlugin("a2a", "target=ts,import_extension=js,openapi=3.2"), "a2a_a2a_openapi.json"),
) as Obj;
const DOCUMENTS: [string, Obj, "3.1" | "3.2"][] = [
  ["3.1 (checked in)", checkedIn, "3.1"],
  ["3.2 (plugin, openapi=3.2)", v32, "3.2"],
];

const RPCS = A2AService.methods.map((m) => m.name);
const STREAMING = new Set(
  A2AService.methods.filter((m) => m.methodKind === "server_streaming").map((m) => m.name),
);
const ERROR_STATUSES = [...new Set(Object.values(errorSpecs).map((e) => e.httpStatus))].sort(
  (a, b) => a - b,
);

/** `{id=*}` → `{id}`, as OpenAPI writes a path template. */
const openApiPath = (template: string) => template.replace(/\{([^}=]+)(?:=[^}]*)?\}/g, "{$1}");
/** The RPC an operationId names: the id without its `_<n>` suffix. */
const rpcOf = (operationId: string) => operationId.replace(/_\d+$/, "");
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

function operationsOf(doc: Obj): OpenApiOperation[] {
  const out: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(doc["paths"] as Obj)) {
    for (const method of HTTP_METHODS) {
      const op = (item as Obj)[method];
      if (op !== undefined)
        out.push({ method, path, pointer: `#/paths/${escapePointer(path)}/${method}`, op });
    }
  }
  return out;
}

/** The object at `pointer`, following a Reference Object (`$ref`) there: its value and pointer. */
const at = (doc: Obj, pointer: string) => derefAt(doc, pointer) as { value: Obj; pointer: string };

function parametersOf(doc: Obj, o: OpenApiOperation): { value: Obj; pointer: string }[] {
  return ((o.op["parameters"] ?? []) as unknown[]).map((_, i) =>
    at(doc, `${o.pointer}/parameters/${i}`),
  );
}

/** An Ajv (2020-12, strict) holding the whole document, validating values against the schema at a pointer in it. */
function schemaChecker(doc: Obj) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return pointerChecker(ajv, doc, "https://openapi.test/document.json");
}

/** The one handler call made since `before`, which must be for `rpc`. */
function onlyCallSince(agent: RecordingAgent, before: number, rpc: string, label: string) {
  const calls = agent.calls.slice(before);
  expect(
    calls.map((c) => c.operation),
    label,
  ).toEqual([rpc]);
  return calls[0]!;
}

describe.each(DOCUMENTS)("the OpenAPI document, %s", (_name, doc, version) => {
  const operations = operationsOf(doc);

  it(`is valid OpenAPI ${version} (@seriousme/openapi-schema-validator)`, async () => {
    const validator = new Validator({ allErrors: true });
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe(version);
    expect(doc["openapi"]).toMatch(new RegExp(`^${version.replace(".", "\\.")}\\.\\d+$`));
  });

  it("has an operation for every RPC of the service, and none for anything else", () => {
    expect(RPCS).toHaveLength(11);
    expect([...new Set(operations.map((o) => rpcOf(o.op["operationId"])))].sort()).toEqual(
      [...RPCS].sort(),
    );
    // The main rule of every RPC is the operationId without a suffix.
    expect(
      operations
        .map((o) => o.op["operationId"] as string)
        .filter((id) => !/_\d+$/.test(id))
        .sort(),
    ).toEqual([...RPCS].sort());
  });

  it("has exactly the route table's path × method pairs, each the operation of its route, with its path variables and body", () => {
    const routes = A2AServiceRoutes.routes;
    expect(routes).toHaveLength(24);
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(
      routes.map((r) => `${r.method} ${openApiPath(r.template)}`).sort(),
    );
    for (const route of routes) {
      const path = openApiPath(route.template);
      const o = operations.find((x) => x.path === path && x.method === route.method.toLowerCase())!;
      const label = `${route.method} ${route.template}`;
      expect(rpcOf(o.op["operationId"]), label).toBe(route.operation);
      const pathParams = parametersOf(doc, o).filter((p) => p.value["in"] === "path");
      expect(pathParams.map((p) => p.value["name"]).sort(), label).toEqual(
        route.pattern.variables.map((v) => v.field).sort(),
      );
      for (const p of pathParams)
        expect(p.value["required"], `${label} ${p.value["name"]}`).toBe(true);
      expect(o.op["requestBody"] !== undefined, `${label}: request body`).toBe(route.body !== "");
    }
  });

  it("has unique operationIds", () => {
    const ids = operations.map((o) => o.op["operationId"] as string);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("has only local $refs, every one resolving to an object", () => {
    const { total, broken } = brokenRefs(doc);
    expect(total).toBeGreaterThan(100);
    expect(broken).toEqual([]);
    // Every component schema compiles (Ajv 2020-12, strict).
    const check = schemaChecker(doc);
    for (const name of Object.keys(doc["components"]["schemas"] as Obj))
      expect(() => check(`#/components/schemas/${escapePointer(name)}`, {}), name).not.toThrow();
  });

  it("gives every component schema, and every property schema of one, a minimal instance that validates against it", () => {
    const check = schemaChecker(doc);
    const { checked, violations } = componentSampleViolations(doc, check);
    expect(checked).toBeGreaterThan(200);
    expect(violations).toEqual([]);
  });

  it("answers streaming routes with text/event-stream and the others with application/a2a+json and application/json", () => {
    expect([...STREAMING].sort()).toEqual(["SendStreamingMessage", "SubscribeToTask"]);
    for (const o of operations) {
      const label = `${o.method.toUpperCase()} ${o.path}`;
      const ok = at(doc, `${o.pointer}/responses/200`).value;
      const content = ok["content"] as Obj;
      if (STREAMING.has(rpcOf(o.op["operationId"]))) {
        expect(Object.keys(content), label).toEqual([SSE]);
        const media = content[SSE] as Obj;
        const item =
          version === "3.2"
            ? media["itemSchema"]?.["properties"]?.["data"]?.["contentSchema"]
            : media["x-a2a-item-schema"];
        expect(item, `${label}: the event schema`).toEqual({
          $ref: "#/components/schemas/lf.a2a.v1.StreamResponse",
        });
        if (version === "3.2") expect(media["itemSchema"]["required"], label).toEqual(["data"]);
      } else {
        expect(Object.keys(content).sort(), label).toEqual([...JSON_TYPES].sort());
        for (const t of JSON_TYPES) expect(content[t]["schema"], `${label} ${t}`).toBeDefined();
      }
      if (o.op["requestBody"] !== undefined) {
        const body = at(doc, `${o.pointer}/requestBody`).value;
        expect(Object.keys(body["content"]).sort(), `${label}: request body`).toEqual(
          [...JSON_TYPES].sort(),
        );
      }
    }
  });

  it("lists every HTTP status the error catalog can produce on every operation, with the error body", () => {
    expect(ERROR_STATUSES).toEqual([400, 401, 403, 404, 500, 501]);
    for (const o of operations) {
      const label = `${o.method.toUpperCase()} ${o.path}`;
      expect(Object.keys(o.op["responses"]).sort(), label).toEqual(
        ["200", ...ERROR_STATUSES.map(String)].sort(),
      );
      for (const status of ERROR_STATUSES) {
        const response = at(doc, `${o.pointer}/responses/${status}`).value;
        for (const t of JSON_TYPES)
          expect(response["content"]?.[t]?.["schema"], `${label} ${status} ${t}`).toEqual({
            $ref: "#/components/schemas/http.ErrorResponse",
          });
      }
    }
    expect(doc["components"]["schemas"]["http.ErrorResponse"]?.["required"]).toEqual(["error"]);
  });
});

describe("openapi-typescript on the 3.1 document", () => {
  let dir: string;
  /** The diagnostics of one file of the program (undefined: the global ones), formatted. */
  let diagnosticsOf: (file: string | undefined) => string[];

  const valid = `import type { components, paths } from "./schema.js";

type Json<T> = T extends { content: { "application/a2a+json": infer B } } ? B : never;

export const task: paths["/tasks/{id}"]["get"]["responses"]["200"]["content"]["application/a2a+json"] = {
  id: "t-1",
  contextId: "c-1",
  status: { state: "TASK_STATE_WORKING", timestamp: "2024-01-01T00:00:00Z" },
  artifacts: [{ artifactId: "a-1", parts: [{ text: "done" }] }],
  history: [{ messageId: "m-1", role: "ROLE_USER", parts: [{ url: "https://example.com/a.png", mediaType: "image/png" }] }],
};
export const part: components["schemas"]["lf.a2a.v1.Part"] = { text: "hello" };
export const send: Json<NonNullable<paths["/message:send"]["post"]["requestBody"]>> = {
  message: { messageId: "m-1", role: "ROLE_USER", parts: [part] },
  configuration: { acceptedOutputModes: ["text/plain"] },
};
export const pathParams: paths["/{tenant}/tasks/{id}"]["get"]["parameters"]["path"] = { tenant: "acme", id: "t-1" };
export const query: NonNullable<paths["/tasks/{id}"]["get"]["parameters"]["query"]> = { historyLength: 3 };
export const notFound: paths["/tasks/{id}"]["get"]["responses"]["404"]["content"]["application/json"] = {
  error: { code: 404, status: "NOT_FOUND", message: "Task not found", details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" }] },
};
`;
  const wrong: Record<string, string> = {
    "status-a-number.ts": `export const task: paths["/tasks/{id}"]["get"]["responses"]["200"]["content"]["application/a2a+json"] = { id: "t-1", status: 5 };`,
    "task-without-id.ts": `export const task: components["schemas"]["lf.a2a.v1.Task"] = { status: { state: "TASK_STATE_WORKING" } };`,
    "part-without-content.ts": `export const part: components["schemas"]["lf.a2a.v1.Part"] = { mediaType: "text/plain" };`,
    "unknown-state.ts": `export const status: components["schemas"]["lf.a2a.v1.TaskStatus"] = { state: "TASK_STATE_DONE" };`,
  };
  /** Free-form objects (google.protobuf.Struct fields): any JSON object, as in the spec's §6.8 example. */
  const structured = `import type { components } from "./schema.js";

export const task: components["schemas"]["lf.a2a.v1.Task"] = { id: "t-1", status: { state: "TASK_STATE_WORKING" }, metadata: { source: "test", attempt: 1 } };
export const part: components["schemas"]["lf.a2a.v1.Part"] = { data: { rows: [1, 2] }, metadata: { origin: "sensor" } };
export const send: components["schemas"]["lf.a2a.v1.SendMessageRequest"] = {
  message: { messageId: "m-1", role: "ROLE_USER", parts: [part], metadata: { tags: ["a"] } },
  metadata: { trace: true },
};
`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "a2a-openapi-ts-"));
    const ast = await openapiTS(structuredClone(checkedIn) as never);
    writeFileSync(join(dir, "schema.ts"), astToString(ast));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "valid.ts"), valid);
    writeFileSync(join(dir, "structured.ts"), structured);
    for (const [file, body] of Object.entries(wrong))
      writeFileSync(
        join(dir, file),
        `import type { components, paths } from "./schema.js";\n${body}\n`,
      );
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts"],
      types: [],
      noEmit: true,
      skipLibCheck: false,
    };
    const files = ["valid.ts", "structured.ts", ...Object.keys(wrong)].map((f) => join(dir, f));
    const program = ts.createProgram(files, options);
    const format = (d: ts.Diagnostic) => {
      const where =
        d.file === undefined
          ? ""
          : `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `;
      return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    };
    const all = ts.getPreEmitDiagnostics(program);
    diagnosticsOf = (file) =>
      all
        .filter((d) =>
          file === undefined ? d.file === undefined : d.file?.fileName === join(dir, file),
        )
        .map(format);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("generates types that compile under strict options (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes, NodeNext)", () => {
    expect(diagnosticsOf(undefined), "global diagnostics").toEqual([]);
    expect(diagnosticsOf("schema.ts"), "schema.ts (the generated types)").toEqual([]);
    expect(diagnosticsOf("valid.ts"), "valid.ts").toEqual([]);
  });

  it("rejects wrong values", () => {
    for (const file of Object.keys(wrong))
      expect(
        diagnosticsOf(file).length,
        `${file} must not compile: ${wrong[file]}`,
      ).toBeGreaterThan(0);
  });

  it("types free-form objects (google.protobuf.Struct: metadata) so that a JSON object can be assigned", () => {
    expect(diagnosticsOf("structured.ts"), "structured.ts").toEqual([]);
  });
});

describe.each(DOCUMENTS)(
  "requests built from the OpenAPI document alone, %s, against the generated REST server",
  (_name, doc) => {
    const agent = new RecordingAgent();
    let server: Listening;
    const check = schemaChecker(doc);
    const operations = operationsOf(doc);
    let sent = 0;

    beforeAll(async () => {
      const rest = createA2AServiceRestServer(agent, { keepAliveMs: 0, logger: { error() {} } });
      server = await listen(rest.node);
    });
    afterAll(() => server.close());

    it("covers every route", () => {
      expect(operations).toHaveLength(A2AServiceRoutes.routes.length);
    });

    interface RequestOptions {
      /** A required body property to leave out. */
      readonly leaveOut?: string;
      /** Every query parameter, not only the required ones (`A2A-Version` as 1.0 there, instead of the header). */
      readonly allQuery?: boolean;
      /** The optional top-level body properties whose minimal value is a scalar, too. */
      readonly fullBody?: boolean;
    }

    /** The request of an operation from the document alone: path, query and header parameters, a minimal body. */
    function requestOf(label: string, o: OpenApiOperation, options: RequestOptions = {}) {
      const pathValues: Record<string, string> = {};
      const queryValues: Record<string, string> = {};
      const bodyValues: Record<string, Json> = {};
      let path = o.path;
      const query = new URLSearchParams();
      const headers: Record<string, string> = options.allQuery ? {} : { "A2A-Version": "1.0" };
      for (const { value: p, pointer } of parametersOf(doc, o)) {
        const name = p["name"] as string;
        if (p["in"] === "path") {
          const value = String(
            sampleOf(p["schema"], doc, {
              string: name === "tenant" ? "acme" : `${name.replace(/_/g, "-")}-1`,
            }),
          );
          expect(check(`${pointer}/schema`, value), `${label}: path parameter ${name}`).toEqual([]);
          pathValues[name] = value;
          path = path.replace(`{${name}}`, encodeURIComponent(value));
        } else if (p["in"] === "query" && (p["required"] === true || options.allQuery)) {
          const value = name === "A2A-Version" ? "1.0" : sampleOf(p["schema"], doc);
          expect(check(`${pointer}/schema`, value), `${label}: query parameter ${name}`).toEqual(
            [],
          );
          const values = (Array.isArray(value) ? value : [value]).map((v) =>
            typeof v === "string" ? v : JSON.stringify(v),
          );
          for (const v of values) query.append(name, v);
          queryValues[name] = values.join(",");
        } else if (p["required"] === true && p["in"] === "header") {
          headers[name] = String(sampleOf(p["schema"], doc));
        }
      }
      expect(path, `${label}: every path template variable is a parameter`).not.toMatch(/[{}]/);
      let body: string | undefined;
      if (o.op["requestBody"] !== undefined) {
        const schemaPointer = bodySchemaOf(o);
        const instance = sampleOf(resolvePointer(doc, schemaPointer), doc) as Record<string, Json>;
        if (options.fullBody) {
          const resolved = at(doc, schemaPointer);
          for (const [prop, schema] of Object.entries(
            (resolved.value["properties"] ?? {}) as Obj,
          )) {
            if (Object.hasOwn(instance, prop)) continue;
            const value = sampleOf(schema, doc);
            if (
              typeof value === "string" ||
              typeof value === "number" ||
              typeof value === "boolean"
            )
              bodyValues[prop] = instance[prop] = value;
          }
        }
        expect(
          check(schemaPointer, instance),
          `${label}: the generated body ${JSON.stringify(instance)}`,
        ).toEqual([]);
        if (options.leaveOut !== undefined) {
          expect(
            Object.hasOwn(instance, options.leaveOut),
            `${label}: ${options.leaveOut} in the minimal body`,
          ).toBe(true);
          delete instance[options.leaveOut];
        }
        body = JSON.stringify(instance);
        headers["content-type"] = "application/a2a+json";
      }
      const base = new URL((doc["servers"] as { url: string }[])[0]!.url, server.url).href.replace(
        /\/$/,
        "",
      );
      const url = `${base}${path}${query.toString() === "" ? "" : `?${query}`}`;
      return {
        url,
        init: { method: o.method.toUpperCase(), headers, ...(body === undefined ? {} : { body }) },
        body,
        pathValues,
        queryValues,
        bodyValues,
      };
    }

    /** The pointer of the application/a2a+json request body schema of an operation. */
    function bodySchemaOf(o: OpenApiOperation): string {
      return `${at(doc, `${o.pointer}/requestBody`).pointer}/content/${escapePointer("application/a2a+json")}/schema`;
    }

    it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
      "%s reaches the operation of its operationId",
      async (label, o) => {
        const { url, init, body, pathValues } = requestOf(label, o);
        const before = agent.calls.length;
        sent++;
        const res = await fetch(url, init);
        const rpc = rpcOf(o.op["operationId"]);
        const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
        if (res.status !== 200)
          throw new Error(
            `${label} (${url}, body ${body}): HTTP ${res.status} ${await res.text()}`,
          );
        const ok = at(doc, `${o.pointer}/responses/200`);
        if (STREAMING.has(rpc)) {
          expect(contentType, label).toBe(SSE);
          const events = await readEventStream(res);
          expect(events.length, `${label}: events`).toBeGreaterThan(0);
          const media = ok.value["content"][SSE] as Obj;
          const eventSchema = `${ok.pointer}/content/${escapePointer(SSE)}/${media["itemSchema"] === undefined ? "x-a2a-item-schema" : "itemSchema/properties/data/contentSchema"}`;
          for (const data of events)
            expect(check(eventSchema, JSON.parse(data)), `${label}: event ${data}`).toEqual([]);
        } else {
          expect(Object.keys(ok.value["content"]), label).toContain(contentType);
          const json = (await res.json()) as unknown;
          expect(
            check(`${ok.pointer}/content/${escapePointer(contentType)}/schema`, json),
            `${label}: response ${JSON.stringify(json)}`,
          ).toEqual([]);
        }
        const call = onlyCallSince(agent, before, rpc, label);
        expect(call.context.operation, label).toBe(rpc);
        expect(call.context.binding, label).toBe("HTTP+JSON");
        // The path values arrived in the request fields of the same (camelCase) names.
        for (const [name, value] of Object.entries(pathValues))
          expect(call.request[camel(name)], `${label}: ${name}`).toBe(value);
        if (pathValues["tenant"] !== undefined) expect(call.context.tenant, label).toBe("acme");
      },
    );

    const requiredBodyFields = operations.flatMap((o) => {
      if (o.op["requestBody"] === undefined) return [];
      const required = (at(doc, bodySchemaOf(o)).value["required"] ?? []) as string[];
      return required.map((field) => [`${o.method.toUpperCase()} ${o.path}`, field, o] as const);
    });

    it("documents required body fields on the message and push-config routes", () => {
      expect(requiredBodyFields.map(([label, field]) => `${label} ${field}`).sort()).toEqual(
        [
          "POST /message:send message",
          "POST /{tenant}/message:send message",
          "POST /message:stream message",
          "POST /{tenant}/message:stream message",
          "POST /tasks/{task_id}/pushNotificationConfigs url",
          "POST /{tenant}/tasks/{task_id}/pushNotificationConfigs url",
        ].sort(),
      );
    });

    it.each(requiredBodyFields)(
      "%s without the required body field %s: HTTP 400 with the documented error body, the handler not called",
      async (label, field, o) => {
        const { url, init } = requestOf(label, o, { leaveOut: field });
        const before = agent.calls.length;
        sent++;
        const res = await fetch(url, init);
        const text = await res.text();
        expect(res.status, `${label} without ${field}: ${text}`).toBe(400);
        const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
        const documented = at(doc, `${o.pointer}/responses/400`);
        expect(Object.keys(documented.value["content"]), label).toContain(contentType);
        expect(
          check(
            `${documented.pointer}/content/${escapePointer(contentType)}/schema`,
            JSON.parse(text),
          ),
          `${label} without ${field}: ${text}`,
        ).toEqual([]);
        expect(agent.calls.length, label).toBe(before);
      },
    );

    /** Sends a request and answers the one call it caused, with its request in ProtoJSON (implicit fields too). */
    async function callOf(label: string, o: OpenApiOperation, url: string, init: RequestInit) {
      const before = agent.calls.length;
      sent++;
      const res = await fetch(url, init);
      const text = await res.text();
      if (res.status !== 200)
        throw new Error(`${label} (${url}, body ${String(init.body)}): HTTP ${res.status} ${text}`);
      const rpc = rpcOf(o.op["operationId"]);
      const call = onlyCallSince(agent, before, rpc, label);
      const json = toJson(
        A2AServiceOperationsByName[rpc as keyof typeof A2AServiceOperationsByName].input,
        call.request as never,
        { alwaysEmitImplicit: true },
      ) as Obj;
      return { call, json };
    }

    const withQuery = operations.filter((o) =>
      parametersOf(doc, o).some((p) => p.value["in"] === "query"),
    );
    it.each(withQuery.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
      "%s with every documented query parameter: each arrives in the request field of its name",
      async (label, o) => {
        const { url, init, queryValues } = requestOf(label, o, { allQuery: true });
        expect(Object.keys(queryValues), label).toContain("A2A-Version");
        const { call, json } = await callOf(label, o, url, init);
        expect(call.context.requestedVersion, `${label}: A2A-Version as a query parameter`).toBe(
          "1.0",
        );
        for (const [name, value] of Object.entries(queryValues)) {
          if (name === "A2A-Version") continue;
          expect(
            Object.hasOwn(json, name),
            `${label}: query parameter ${name} is a request field`,
          ).toBe(true);
          expect(String(json[name]), `${label}: ${name}=${value}`).toBe(value);
        }
      },
    );

    const withBody = operations.filter((o) => o.op["requestBody"] !== undefined);
    it.each(withBody.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
      "%s with every optional scalar body property too (a body the document allows): accepted, each in the request field of its name",
      async (label, o) => {
        const { url, init, bodyValues, pathValues } = requestOf(label, o, { fullBody: true });
        const { json } = await callOf(label, o, url, init);
        for (const [name, value] of Object.entries(bodyValues))
          expect(json[name], `${label}: body ${name}`).toBe(value);
        for (const [name, value] of Object.entries(pathValues))
          expect(json[camel(name)], `${label}: path ${name}`).toBe(value);
      },
    );

    it("sent one request per path × method, one per required body field left out, one per route with query parameters and one per route with a body", () => {
      expect(sent).toBe(
        operations.length + requiredBodyFields.length + withQuery.length + withBody.length,
      );
      expect([
        operations.length,
        requiredBodyFields.length,
        withQuery.length,
        withBody.length,
      ]).toEqual([24, 6, 24, 10]);
    });
  },
);
