/**
 * Every payload that crosses the wire in an end-to-end run, validated against the generated
 * JSON Schemas: the ACTS suite run through the generated clients against the example agent
 * on JSON-RPC and HTTP+JSON, each exchange recorded by the wire tap (test/support/acts/).
 * - What the agent sends (responses, SSE events, errors, the Agent Card) is always valid.
 * - What clients send: a request the schema rejects, the agent rejected as invalid; one the
 *   schema accepts and the agent refused as invalid (a contextId of another task, a media
 *   type it does not take: what it knows, not the request's shape) is replayed on servers
 *   over an accepting handler (test/support/stub-servers.ts), whose validation must take it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadActsSuite } from "../support/acts/document.js";
import { join } from "node:path";
import {
  createGeneratedClient,
  generatedClientFeatures,
} from "../support/acts/generated-clients.js";
import { runSuite, startHarness, type Harness } from "../support/acts/harness.js";
import type { WireExchange } from "../support/acts/wire-tap.js";
import { parseSse, restRouteOf } from "../support/acts/wire-judge.js";
import { definitionNames, operationDef, validate } from "../support/schema-validator.js";
import { jsonRpcVerdict, restVerdict } from "../support/stub-servers.js";
import { repoRoot } from "../support/repo-root.js";

const documents = loadActsSuite(join(repoRoot, "test", "conformance", "acts", "suite.acts.yaml"));
const STREAMING = new Set(["SendStreamingMessage", "SubscribeToTask"]);
const known = new Set(definitionNames());

interface Finding {
  readonly where: string;
  readonly problem: string;
}

interface Counts {
  requests: number;
  requestsRejectedByBoth: number;
  /** Accepted by the schema and by the servers' validation, refused by the agent's own logic (a context of another task, a media type it does not take). */
  refusedByTheAgent: number;
  responses: number;
  events: number;
  cards: number;
}

const counts: Counts = {
  requests: 0,
  requestsRejectedByBoth: 0,
  refusedByTheAgent: 0,
  responses: 0,
  events: 0,
  cards: 0,
};
const findings: Finding[] = [];
const exchanges: WireExchange[] = [];

const parse = (b: Buffer): unknown => {
  if (b.length === 0) return undefined;
  try {
    return JSON.parse(b.toString("utf8"));
  } catch {
    return undefined;
  }
};
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function check(def: string, payload: unknown): string[] {
  return validate(def, payload).map((v) => `${def}: ${v}`);
}

/** Requests the schema accepts and the agent refused: replayed on the accepting servers, whose validation must take them. */
const replays: (() => Promise<void>)[] = [];

/** The agent's payloads must all be valid; a client's request must get the server's verdict. */
function judgeExchange(e: WireExchange): void {
  const response = e.response;
  if (response === undefined) return;
  const where = `${e.binding} ${e.request.method} ${e.request.path}`;
  const sse = (response.headers["content-type"] ?? "").startsWith("text/event-stream");
  const responseJson = sse ? undefined : parse(response.body);
  const events = sse
    ? parseSse(response.body.toString("utf8")).map((ev) => ({
        event: ev.event,
        data: JSON.parse(ev.data) as unknown,
      }))
    : [];
  const agent = (def: string, payload: unknown, what: string) => {
    for (const problem of check(def, payload))
      findings.push({ where: `${where} (${what})`, problem });
  };

  if (e.binding === "card") {
    if (response.status === 200 && responseJson !== undefined) {
      counts.cards++;
      agent("lf.a2a.v1.AgentCard", responseJson, "card");
    }
    return;
  }

  if (e.binding === "jsonrpc") {
    const request = parse(e.request.body);
    const rpc =
      isObject(request) &&
      typeof request["method"] === "string" &&
      known.has(operationDef(request["method"], "JsonRpcRequest"))
        ? request["method"]
        : undefined;
    // The agent's side.
    const answers = sse
      ? events.map((ev) => ev.data)
      : responseJson === undefined
        ? []
        : [responseJson];
    for (const [i, answer] of answers.entries()) {
      if (sse) counts.events++;
      else counts.responses++;
      const isError = isObject(answer) && "error" in answer;
      const def =
        rpc === undefined || isError
          ? "jsonrpc.ErrorResponse"
          : operationDef(rpc, STREAMING.has(rpc) ? "JsonRpcStreamEvent" : "JsonRpcResponse");
      agent(def, answer, sse ? `event ${i}` : "response");
    }
    // The client's side: the schema's verdict against the server's.
    if (rpc === undefined) return;
    counts.requests++;
    const schemaRejects = validate(operationDef(rpc, "JsonRpcRequest"), request).length > 0;
    const first = answers[0];
    const code = isObject(first) && isObject(first["error"]) ? first["error"]["code"] : undefined;
    const serverRejects = code === -32602 || code === -32600;
    if (schemaRejects && serverRejects) counts.requestsRejectedByBoth++;
    if (schemaRejects && !serverRejects)
      findings.push({
        where,
        problem: `request ${JSON.stringify(request)}: the schema rejects it, the agent took it (${JSON.stringify(first).slice(0, 200)})`,
      });
    if (!schemaRejects && serverRejects) {
      replays.push(async () => {
        const replay = await jsonRpcVerdict(request);
        if (replay.verdict === "accepted") counts.refusedByTheAgent++;
        else
          findings.push({
            where,
            problem: `request ${JSON.stringify(request)}: the schema accepts it, the server's validation refuses it: ${replay.detail}`,
          });
      });
    }
    return;
  }

  // HTTP+JSON, relative to the interface URL /a2a/rest.
  const relative = e.request.path.replace(/^\/a2a\/rest/, "");
  const rpc = restRouteOf(e.request.method, relative);
  if (sse) {
    for (const [i, ev] of events.entries()) {
      counts.events++;
      agent(
        ev.event === "error" || rpc === undefined
          ? "http.ErrorResponse"
          : operationDef(rpc, "HttpStreamEvent"),
        ev.data,
        `event ${i}`,
      );
    }
  } else if (responseJson !== undefined) {
    counts.responses++;
    if (response.status >= 400 || rpc === undefined)
      agent("http.ErrorResponse", responseJson, `HTTP ${response.status}`);
    else agent(operationDef(rpc, "HttpResponse"), responseJson, "200");
  }
  const body = parse(e.request.body);
  if (rpc === undefined || body === undefined || !known.has(operationDef(rpc, "HttpRequestBody")))
    return;
  counts.requests++;
  const schemaRejects = validate(operationDef(rpc, "HttpRequestBody"), body).length > 0;
  const error =
    isObject(responseJson) && isObject(responseJson["error"]) ? responseJson["error"] : undefined;
  const serverRejects = response.status === 400 && error?.["status"] === "INVALID_ARGUMENT";
  if (schemaRejects && serverRejects) counts.requestsRejectedByBoth++;
  if (schemaRejects && !serverRejects)
    findings.push({
      where,
      problem: `body ${JSON.stringify(body)}: the schema rejects it, the agent took it (${JSON.stringify(responseJson).slice(0, 200)})`,
    });
  if (!schemaRejects && serverRejects) {
    replays.push(async () => {
      const replay = await restVerdict(e.request.method, relative, body);
      if (replay.verdict === "accepted") counts.refusedByTheAgent++;
      else
        findings.push({
          where,
          problem: `body ${JSON.stringify(body)}: the schema accepts it, the server's validation refuses it: ${replay.detail}`,
        });
    });
  }
}

describe("the payloads of an ACTS run, against the JSON Schemas", () => {
  let harness: Harness | undefined;

  beforeAll(async () => {
    harness = await startHarness({ longRunningMs: 3000 });
    const client = {
      name: "protoc-gen-a2a",
      factory: createGeneratedClient,
      features: generatedClientFeatures,
    };
    await Promise.all(
      (["jsonrpc", "rest"] as const).map((binding) =>
        runSuite(harness!, documents, client, binding, {
          onExchange: (e) => exchanges.push(e),
          judgeWire: false,
        }),
      ),
    );
    for (const e of exchanges) judgeExchange(e);
    for (const replay of replays) await replay();
  }, 240_000);

  afterAll(async () => {
    await harness?.close();
  });

  it("every response, event and card the agent sent is valid, every request got the server's verdict", () => {
    console.log(
      `schema-checked wire payloads: ${JSON.stringify(counts)} from ${exchanges.length} exchanges`,
    );
    expect(findings).toEqual([]);
    expect(counts.requests).toBeGreaterThan(150);
    expect(counts.responses).toBeGreaterThan(150);
    expect(counts.events).toBeGreaterThan(20);
    expect(counts.cards).toBeGreaterThan(0);
    // The suite's requests the agent refuses for what it knows (contexts, media types) were replayed.
    expect(counts.refusedByTheAgent).toBeGreaterThan(0);
  });
});
