/**
 * The OpenRPC document of the JSON-RPC binding (generated-example/gen/a2a_a2a_openrpc.json):
 * valid against the OpenRPC 1.3 meta-schema (@open-rpc/meta-schema, draft-07, with the
 * JSON Schema meta-schema it refers to, @json-schema-tools/meta-schema); one method per
 * JSON-RPC method of the service, by-name params that are the request message's fields with
 * its `required` (and the server's REQUIRED table), every error of the catalog on every
 * method, `x-a2a-streaming` on the streaming ones only, `$ref`s that resolve, schemas that
 * compile (Ajv draft-07, strict) and have instances. Requests built from the document alone
 * (the method name, params generated from each param's schema, in a JSON-RPC 2.0 envelope)
 * reach, over real HTTP, exactly their operation on the generated JSON-RPC server, with a
 * result (or an SSE stream of results) matching the documented schemas: with the required
 * params, with every optional scalar param too (each arriving in its request field), and with
 * a required param left out (InvalidParams with the documented ErrorInfo, the handler not called).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import { toJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorSpecs } from "../../../../generated-example/gen/a2a_a2a_errors.js";
import {
  A2AServiceOperationsByName,
  A2AServiceRequiredFields,
} from "../../../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcMethods } from "../../../../generated-example/gen/a2a_a2a_jsonrpc_methods.js";
import { createA2AServiceJsonRpcServer } from "../../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
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
import { addFormats } from "../../../support/schema-validator.js";
import { RecordingAgent, readEventStream } from "../../../support/openapi-recording-agent.js";
import { listen, type Listening } from "../../../support/servers.js";

// The meta-schema packages declare only generated types, not their runtime exports.
const require = createRequire(import.meta.url);
const { openrpcDocument } = require("@open-rpc/meta-schema") as {
  openrpcDocument: Record<string, unknown>;
};
const { jsonSchema } = require("@json-schema-tools/meta-schema") as {
  jsonSchema: Record<string, unknown>;
};

type Obj = Record<string, any>;

const doc = JSON.parse(
  readFileSync(
    new URL("../../../../generated-example/gen/a2a_a2a_openrpc.json", import.meta.url),
    "utf8",
  ),
) as Obj;
const methods = doc["methods"] as Obj[];

const RPC_METHODS = Object.keys(A2AServiceJsonRpcMethods);
const STREAMING = new Set(
  A2AService.methods.filter((m) => m.methodKind === "server_streaming").map((m) => m.name),
);
const inputOf = (name: string) => A2AService.methods.find((m) => m.name === name)!.input;

/** The object at `pointer`, following a Reference Object (`$ref`) there. */
function at(pointer: string): { value: Obj; pointer: string } {
  return derefAt(doc, pointer) as { value: Obj; pointer: string };
}

/** A draft-07 Ajv (OpenRPC's dialect, strict) holding the document, validating values against the schema at a pointer in it. */
function schemaChecker() {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  return pointerChecker(ajv, doc, "https://openrpc.test/document.json");
}

describe("the OpenRPC document", () => {
  it("is valid OpenRPC 1.3 (@open-rpc/meta-schema with @json-schema-tools/meta-schema, Ajv draft-07)", () => {
    expect(jsonSchema["$id"]).toBe("https://meta.json-schema.tools/");
    // The third-party draft-07 meta-schemas do not compile in Ajv's strict mode (additionalItems without an items array).
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(jsonSchema, "https://meta.json-schema.tools");
    const validate = ajv.compile(openrpcDocument);
    const valid = validate(doc);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    expect(doc["openrpc"]).toBe("1.3.2");
    // The check can fail: a wrong schema and a wrong paramStructure are refused.
    const bad = structuredClone(doc);
    bad["methods"][0]["params"][0]["schema"] = { type: 5 };
    bad["methods"][1]["paramStructure"] = "by-nonsense";
    expect(validate(bad)).toBe(false);
  });

  it("has one method per JSON-RPC method of the service, names unique", () => {
    expect(RPC_METHODS).toHaveLength(11);
    const names = methods.map((m) => m["name"] as string);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect([...names].sort()).toEqual([...RPC_METHODS].sort());
    expect([...names].sort()).toEqual(A2AService.methods.map((m) => m.name).sort());
  });

  it("has only local $refs, every one resolving to an object", () => {
    const { total, broken } = brokenRefs(doc);
    expect(total).toBeGreaterThan(100);
    expect(broken).toEqual([]);
    const check = schemaChecker();
    for (const name of Object.keys(doc["components"]["schemas"] as Obj))
      expect(() => check(`#/components/schemas/${escapePointer(name)}`, {}), name).not.toThrow();
  });

  it("gives every component schema, and every property schema of one, a minimal instance that validates against it (draft-07)", () => {
    const check = schemaChecker();
    const { checked, violations } = componentSampleViolations(doc, check);
    expect(checked).toBeGreaterThan(200);
    expect(violations).toEqual([]);
  });

  it("takes params by name: the request message's fields, `required` as the message schema and the server's REQUIRED table say", () => {
    for (const m of methods) {
      const name = m["name"] as string;
      expect(m["paramStructure"], name).toBe("by-name");
      const params = m["params"] as Obj[];
      const paramNames = params.map((p) => p["name"] as string);
      expect(
        paramNames.filter((n, i) => paramNames.indexOf(n) !== i),
        name,
      ).toEqual([]);
      const input = inputOf(name);
      expect(paramNames, name).toEqual(input.fields.map((f) => f.jsonName));
      const message = doc["components"]["schemas"][input.typeName] as Obj;
      expect(message, `${name}: components.schemas[${input.typeName}]`).toBeDefined();
      expect(paramNames, name).toEqual(Object.keys(message["properties"]));
      for (const p of params)
        expect(p["schema"], `${name}.${p["name"]}`).toEqual(message["properties"][p["name"]]);
      const required = params.filter((p) => p["required"] === true).map((p) => p["name"] as string);
      expect(required, `${name}: required params vs ${input.typeName}.required`).toEqual(
        (message["required"] ?? []) as string[],
      );
      const table = (A2AServiceRequiredFields[input.typeName] ?? [])
        .filter((r) => r.check !== undefined && r.check !== "oneof")
        .map((r) => r.json);
      expect(
        [...required].sort(),
        `${name}: required params vs the server's REQUIRED table`,
      ).toEqual([...table].sort());
    }
  });

  it("lists every error of the catalog (its JSON-RPC code) on every method", () => {
    const codes = Object.values(errorSpecs)
      .map((e) => e.jsonRpcCode)
      .sort((a, b) => a - b);
    expect(codes).toHaveLength(16);
    for (const [mi, m] of methods.entries()) {
      const errors = (m["errors"] as unknown[]).map(
        (_, i) => at(`#/methods/${mi}/errors/${i}`).value,
      );
      expect(
        errors.map((e) => e["code"] as number).sort((a, b) => a - b),
        m["name"],
      ).toEqual(codes);
    }
    for (const spec of Object.values(errorSpecs)) {
      const e = doc["components"]["errors"][spec.name] as Obj;
      expect(e, spec.name).toMatchObject({ code: spec.jsonRpcCode, message: spec.message });
    }
  });

  it("marks the streaming methods, and only them, with x-a2a-streaming", () => {
    expect([...STREAMING].sort()).toEqual(["SendStreamingMessage", "SubscribeToTask"]);
    for (const [mi, m] of methods.entries()) {
      const ext = m["x-a2a-streaming"] as Obj | undefined;
      if (!STREAMING.has(m["name"])) {
        expect(ext, m["name"]).toBeUndefined();
        continue;
      }
      expect(ext?.["mediaType"], m["name"]).toBe("text/event-stream");
      expect(
        at(`#/methods/${mi}/x-a2a-streaming/event`).value,
        `${m["name"]}: the event schema`,
      ).toBeTypeOf("object");
    }
  });
});

describe("requests built from the OpenRPC document alone, against the generated JSON-RPC server", () => {
  const agent = new RecordingAgent();
  let server: Listening;
  const check = schemaChecker();
  let sent = 0;
  let id = 0;

  beforeAll(async () => {
    const jsonrpc = createA2AServiceJsonRpcServer(agent, {
      keepAliveMs: 0,
      logger: { error() {} },
    });
    server = await listen(jsonrpc.node);
  });
  afterAll(() => server.close());

  /**
   * The params of a method: a minimal instance of every required param's schema (but
   * `leaveOut`), and with `optionalScalars` of every optional param whose minimal instance is a scalar.
   */
  function paramsOf(mi: number, leaveOut?: string, optionalScalars = false): Record<string, Json> {
    const params: Record<string, Json> = {};
    (methods[mi]!["params"] as Obj[]).forEach((p, pi) => {
      if (p["name"] === leaveOut) return;
      const pointer = `#/methods/${mi}/params/${pi}/schema`;
      const value = sampleOf(resolvePointer(doc, pointer), doc);
      if (
        p["required"] !== true &&
        !(
          optionalScalars &&
          (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        )
      )
        return;
      expect(
        check(pointer, value),
        `${methods[mi]!["name"]}.${p["name"]}: the generated value ${JSON.stringify(value)}`,
      ).toEqual([]);
      params[p["name"] as string] = value;
    });
    return params;
  }

  async function post(method: string, params: Record<string, Json>) {
    const requestId = ++id;
    sent++;
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: requestId, method, params }),
    });
    return { res, requestId };
  }

  it.each(methods.map((m, mi) => [m["name"] as string, mi] as const))(
    "%s reaches its operation, with a result matching the documented one",
    async (name, mi) => {
      const params = paramsOf(mi);
      const before = agent.calls.length;
      const { res, requestId } = await post(name, params);
      expect(res.status, name).toBe(200);
      const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
      const m = methods[mi]!;
      const resultSchema = `#/methods/${mi}/result/schema`;
      if (m["x-a2a-streaming"] !== undefined) {
        expect(contentType, name).toBe(m["x-a2a-streaming"]["mediaType"]);
        const events = (await readEventStream(res)).map((d) => JSON.parse(d) as Obj);
        expect(events.length, `${name}: events`).toBeGreaterThan(0);
        for (const e of events) {
          expect(
            check(`#/methods/${mi}/x-a2a-streaming/event`, e),
            `${name}: event ${JSON.stringify(e)}`,
          ).toEqual([]);
          expect(e["error"], `${name}: event ${JSON.stringify(e)}`).toBeUndefined();
          expect(e["id"], name).toBe(requestId);
          expect(
            check(resultSchema, e["result"]),
            `${name}: result ${JSON.stringify(e["result"])}`,
          ).toEqual([]);
        }
      } else {
        expect(contentType, name).toBe("application/json");
        const body = (await res.json()) as Obj;
        expect(body["error"], `${name}: ${JSON.stringify(body)}`).toBeUndefined();
        expect(body, name).toMatchObject({ jsonrpc: "2.0", id: requestId });
        expect(
          check(resultSchema, body["result"]),
          `${name}: result ${JSON.stringify(body["result"])}`,
        ).toEqual([]);
      }
      const calls = agent.calls.slice(before);
      expect(
        calls.map((c) => c.operation),
        name,
      ).toEqual([name]);
      expect(calls[0]!.context.operation, name).toBe(name);
      expect(calls[0]!.context.binding, name).toBe("JSONRPC");
    },
  );

  const requiredParams = methods.flatMap((m, mi) =>
    (m["params"] as Obj[])
      .filter((p) => p["required"] === true)
      .map((p) => [`${m["name"]}.${p["name"]}`, mi, p["name"] as string] as const),
  );
  it.each(requiredParams)(
    "%s, documented as required, left out: InvalidParams (an error the method lists), the handler not called",
    async (_label, mi, param) => {
      const name = methods[mi]!["name"] as string;
      const before = agent.calls.length;
      const { res } = await post(name, paramsOf(mi, param));
      const text = await res.text();
      const body = JSON.parse(
        text.startsWith("data:") ? text.replace(/^data: ?/, "").split("\n")[0]! : text,
      ) as Obj;
      expect(body["result"], `${name} without ${param}: ${text}`).toBeUndefined();
      const listed = (methods[mi]!["errors"] as unknown[]).map(
        (_, i) => at(`#/methods/${mi}/errors/${i}`).value,
      );
      const documented = listed.find((e) => e["code"] === body["error"]?.["code"]);
      expect(documented, `${name} without ${param}: ${text}`).toBeDefined();
      // The ErrorInfo of the answer is the one the document gives for that code.
      expect(body["error"]?.["data"]?.[0], `${name} without ${param}: ${text}`).toMatchObject(
        documented!["data"][0],
      );
      expect(body["error"]?.["code"], `${name} without ${param}: ${text}`).toBe(
        errorSpecs.InvalidParamsError.jsonRpcCode,
      );
      expect(
        check("#/components/schemas/jsonrpc.ErrorResponse", body),
        `${name} without ${param}: ${text}`,
      ).toEqual([]);
      expect(agent.calls.length, `${name} without ${param}`).toBe(before);
    },
  );

  it.each(methods.map((m, mi) => [m["name"] as string, mi] as const))(
    "%s with every optional scalar param too: a result, each param in the request field of its name",
    async (name, mi) => {
      const params = paramsOf(mi, undefined, true);
      const before = agent.calls.length;
      const { res } = await post(name, params);
      const text = await res.text();
      expect(res.status, `${name}: ${text}`).toBe(200);
      expect(text, name).not.toContain('"error"');
      const calls = agent.calls.slice(before);
      expect(
        calls.map((c) => c.operation),
        `${name}: ${text}`,
      ).toEqual([name]);
      const json = toJson(
        A2AServiceOperationsByName[name as keyof typeof A2AServiceOperationsByName].input,
        calls[0]!.request as never,
        { alwaysEmitImplicit: true },
      ) as Obj;
      for (const [param, value] of Object.entries(params))
        if (typeof value !== "object" || value === null)
          expect(json[param], `${name}.${param}`).toBe(value);
    },
  );

  it("sent one request per method, one per required param left out and one per method with its optional params", () => {
    expect(sent).toBe(2 * methods.length + requiredParams.length);
    expect(sent).toBe(11 + 11 + 11);
  });
});
