// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * fast-check arbitraries of JSON-RPC requests to the example agent (POST /a2a/jsonrpc): valid
 * envelopes of the 11 methods with valid, mutated (test/support/proto-json-arbitrary.ts) or
 * random params; envelopes with a member missing, of the wrong type, repeated (duplicate keys)
 * or extra; batches; random JSON, bytes and unicode; huge numbers; non-finite numbers (`1e400`) in
 * Struct and Value fields at any depth (test/support/fuzz-nonfinite.ts); deep nesting; and the HTTP
 * around it (method, Content-Type, A2A-Version, A2A-Extensions, Authorization, stray headers,
 * query). A request may name the agent's known task as "@task@" (see {@link withKnownTask}).
 */
import { ScalarType, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { A2AServiceJsonRpcMethods } from "../../generated-example/gen/a2a_a2a_jsonrpc_methods.js";
import { MUTATION_KINDS, mutate, validJson } from "./proto-json-arbitrary.js";
import type { HttpInput } from "./fuzz-http.js";
import { nestsDeeperThan, PARSE_DEPTH } from "./fuzz-checks.js";
import {
  NONFINITE_JSON_TEXTS,
  nonFinitePlan,
  plantMark,
  withNonFiniteText,
} from "./fuzz-nonfinite.js";
import { BIG_TENANT, withRareInputs } from "./fuzz-sizes.js";
import { BIG_TASK } from "./fuzz-slow-readers.js";
import {
  authorizationValue,
  sometimes,
  extensionsValue,
  headerValue,
  httpMethod,
  jsonContentType,
  nastyText,
  numberText,
  strayHeaders,
  versionValue,
} from "./fuzz-headers.js";

/** The placeholder for the id of a task that exists (replaced before sending). */
export const KNOWN_TASK = "@task@";
/** The placeholder for a raw JSON number (replaced when the body is built). */
const NUM = "@num@";

/** The 11 JSON-RPC methods. */
export const METHODS = Object.keys(
  A2AServiceJsonRpcMethods,
) as (keyof typeof A2AServiceJsonRpcMethods)[];

const INT_TYPES: ReadonlySet<ScalarType> = new Set([
  ScalarType.INT32,
  ScalarType.INT64,
  ScalarType.UINT32,
  ScalarType.UINT64,
  ScalarType.SINT32,
  ScalarType.SINT64,
  ScalarType.FIXED32,
  ScalarType.FIXED64,
  ScalarType.SFIXED32,
  ScalarType.SFIXED64,
]);

/** Top-level fields of `desc` that name a task, and int fields (where huge numbers go). */
function fieldsOf(desc: DescMessage): { ids: string[]; ints: string[] } {
  const ids = desc.fields
    .filter((f) => f.fieldKind === "scalar" && (f.name === "id" || f.name === "task_id"))
    .map((f) => f.jsonName);
  const ints = desc.fields
    .filter((f) => f.fieldKind === "scalar" && INT_TYPES.has(f.scalar))
    .map((f) => f.jsonName);
  return { ids, ints };
}

/** Makes a SendMessageRequest's message one the example agent takes (text parts, no ids of its own), so that inputs reach deep. */
function realisticMessage(json: JsonObject): void {
  const message = json["message"];
  if (typeof message !== "object" || message === null || Array.isArray(message)) return;
  delete message["contextId"];
  delete message["taskId"];
  delete message["referenceTaskIds"];
  const parts = Array.isArray(message["parts"]) ? message["parts"] : [];
  message["parts"] =
    parts.length === 0
      ? [{ text: "fuzz" }]
      : parts.map((p, i) => ({
          text:
            typeof p === "object" &&
            p !== null &&
            !Array.isArray(p) &&
            typeof p["text"] === "string"
              ? p["text"]
              : `part ${i}`,
        }));
  const config = json["configuration"];
  if (typeof config === "object" && config !== null && !Array.isArray(config))
    delete config["taskPushNotificationConfig"];
}

/** Webhook URLs: public ones the agent takes, and the ones §13.2 says to refuse (private, metadata, other schemes). */
const WEBHOOKS = [
  "https://example.com/hook",
  "https://hooks.example.org/a2a?x=1",
  "http://127.0.0.1:9/x",
  "http://169.254.169.254/latest/meta-data/",
  "http://[::1]/x",
  "http://10.0.0.1/",
  "file:///etc/passwd",
  "javascript:alert(1)",
  "gopher://example.com/",
  "https://user:pass@example.com/",
  "not a url",
  "",
];

/** Gives the push config in `json` (top level, or the SendMessage configuration's) one of {@link WEBHOOKS}. */
function realisticWebhook(json: JsonObject, pick: number): void {
  const config = json["configuration"];
  const target =
    typeof json["url"] === "string"
      ? json
      : typeof config === "object" && config !== null && !Array.isArray(config)
        ? (config["taskPushNotificationConfig"] as JsonObject | undefined)
        : undefined;
  if (typeof target === "object" && target !== null && !Array.isArray(target))
    target["url"] = WEBHOOKS[pick % WEBHOOKS.length]!;
}

/** Params of `desc`: valid, then perhaps pointed at the known task, given a huge number, mutated, and given a non-finite number in a Struct or Value. */
export function paramsOf(desc: DescMessage): fc.Arbitrary<string> {
  const { ids, ints } = fieldsOf(desc);
  return fc
    .record({
      json: validJson(desc),
      known: fc.boolean(),
      num: sometimes(
        fc.tuple(fc.constantFrom(...(ints.length > 0 ? ints : ["historyLength"])), numberText),
        0.25,
      ),
      kind: fc.constantFrom(...MUTATION_KINDS),
      pick: fc.nat(50),
      salt: fc.nat(50),
      mutateFreq: fc.integer({ min: 0, max: 1 }),
      realistic: fc.boolean(),
      nonFinite: sometimes(fc.tuple(nonFinitePlan, fc.constantFrom(...NONFINITE_JSON_TEXTS)), 0.05),
    })
    .map(({ json, known, num, kind, pick, salt, mutateFreq, realistic, nonFinite }) => {
      let out: JsonObject = json;
      if (realistic) realisticMessage(out);
      else realisticWebhook(out, pick);
      if (known) for (const f of ids) out[f] = KNOWN_TASK;
      if (mutateFreq > 0) out = mutate(desc, out, kind, pick, salt) ?? out;
      if (num !== undefined) out[num[0]] = NUM;
      const planted = nonFinite !== undefined && plantMark(desc, out, nonFinite[0]);
      const text = JSON.stringify(out).replace(`"${NUM}"`, num?.[1] ?? "0");
      return planted ? withNonFiniteText(text, nonFinite[1]) : text;
    });
}

/** JSON text of any value, some of them odd. */
const rawValue: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  numberText,
  nastyText.map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"\\ud800"',
    '"\\udc00x"',
    '"\\u0000"',
    "[]",
    "{}",
    "null",
    "true",
    '""',
    '"2.0"',
    "2.0",
    '"SendMessage"',
  ),
);

const deepNest: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(10, 32, 63, 64, 65, 100, 1_000, 10_000, 100_000),
    fc.constantFrom("array", "object", "metadata"),
  )
  .map(([n, how]) => {
    if (how === "array") return `{"id":${"[".repeat(n)}${"]".repeat(n)}}`;
    if (how === "object") return `{"id":"x","metadata":${'{"a":'.repeat(n)}1${"}".repeat(n)}}`;
    return `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}],"metadata":${'{"a":['.repeat(n)}1${"]}".repeat(n)}}}`;
  });

/** A JSON object text from entries (names may repeat: duplicate keys). */
const objectText = (entries: readonly (readonly [string, string])[]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;

type EnvelopeChange = "none" | "drop" | "wrong" | "duplicate" | "extra" | "shuffle";

/** A JSON-RPC envelope text: a method (usually one of the 11), an id, params, perhaps changed. */
export const envelopeText: fc.Arbitrary<string> = fc
  .record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...METHODS) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "sendMessage",
          "message/send",
          "tasks/get",
          "rpc.discover",
          "",
          "SendMessage ",
          "toString",
          "__proto__",
          "constructor",
          "hasOwnProperty",
        ),
      },
      { weight: 1, arbitrary: nastyText },
    ),
    id: fc.oneof(
      { weight: 6, arbitrary: fc.integer().map(String) },
      { weight: 3, arbitrary: nastyText.map((s) => JSON.stringify(s)) },
      { weight: 1, arbitrary: rawValue },
    ),
    paramsKind: fc.constantFrom(
      "valid",
      "valid",
      "valid",
      "valid",
      "valid",
      "valid",
      "valid",
      "valid",
      "random",
      "deep",
      "absent",
    ),
    seed: fc.nat(),
    change: fc.oneof(
      { weight: 10, arbitrary: fc.constant<EnvelopeChange>("none") },
      {
        weight: 5,
        arbitrary: fc.constantFrom<EnvelopeChange>(
          "drop",
          "wrong",
          "duplicate",
          "extra",
          "shuffle",
        ),
      },
    ),
    which: fc.nat(3),
    odd: rawValue,
    extraKey: fc.oneof(
      fc.constantFrom("result", "error", "Jsonrpc", "ID", "__proto__", "params"),
      nastyText,
    ),
  })
  .chain((r) => {
    const known = (METHODS as readonly string[]).includes(r.method);
    const params: fc.Arbitrary<string | undefined> =
      r.paramsKind === "absent"
        ? fc.constant(undefined)
        : r.paramsKind === "deep"
          ? deepNest
          : r.paramsKind === "random" || !known
            ? rawValue
            : paramsOf(
                A2AServiceJsonRpcMethods[r.method as keyof typeof A2AServiceJsonRpcMethods].input,
              );
    return params.map((p) => {
      const entries: [string, string][] = [
        ["jsonrpc", '"2.0"'],
        ["id", r.id],
        ["method", JSON.stringify(r.method)],
      ];
      if (p !== undefined) entries.push(["params", p]);
      const at = r.which % entries.length;
      switch (r.change) {
        case "drop":
          entries.splice(at, 1);
          break;
        case "wrong":
          entries[at] = [entries[at]![0], r.odd];
          break;
        case "duplicate":
          entries.push([entries[at]![0], r.odd]);
          break;
        case "extra":
          entries.push([r.extraKey, r.odd]);
          break;
        case "shuffle":
          entries.reverse();
          break;
      }
      return objectText(entries);
    });
  });

/** A JSON-RPC request body: mostly an envelope, else a batch, random JSON, random bytes or unicode. */
export const jsonRpcBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 30, arbitrary: envelopeText.map((t) => Buffer.from(t)) },
  {
    weight: 1,
    arbitrary: fc.array(envelopeText, { maxLength: 3 }).map((a) => Buffer.from(`[${a.join(",")}]`)),
  },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }).map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }).map((s) => Buffer.from(s)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(envelopeText, fc.nat(), fc.constantFrom("cut", "bom", "nul", "latin1", "trailing"))
      .map(([t, n, how]) => {
        const b = Buffer.from(t);
        if (how === "cut") return b.subarray(0, n % (b.length + 1));
        if (how === "bom") return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
        if (how === "nul") return Buffer.concat([b, Buffer.from([0])]);
        if (how === "latin1") return Buffer.from(t.replace(/"2\.0"/, '"2.0é"'), "latin1");
        return Buffer.concat([b, Buffer.from(" {}")]);
      }),
  },
);

/** A whole JSON-RPC request: POST /a2a/jsonrpc with the A2A headers, mostly right. */
const plainJsonRpcInput: fc.Arbitrary<HttpInput> = fc
  .record({
    method: httpMethod(["POST"], 1),
    contentType: jsonContentType(["application/json"]),
    version: sometimes(versionValue, 0.92),
    extensions: sometimes(extensionsValue, 0.1),
    authorization: sometimes(authorizationValue, 0.2),
    stray: sometimes(strayHeaders, 0.1),
    abortAfterMs: sometimes(fc.integer({ min: 0, max: 30 }), 0.015),
    query: fc.oneof(
      { weight: 20, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: versionValue.map((v) => `A2A-Version=${encodeURIComponent(v)}`) },
      { weight: 1, arbitrary: headerValue(20) },
    ),
    body: jsonRpcBody,
  })
  .map((r) => {
    const headers: [string, string][] = [];
    if (r.contentType !== undefined) headers.push(["content-type", r.contentType]);
    if (r.version !== undefined) headers.push(["a2a-version", r.version]);
    if (r.extensions !== undefined) headers.push(["a2a-extensions", r.extensions]);
    if (r.authorization !== undefined) headers.push(["authorization", r.authorization]);
    if (r.stray !== undefined) headers.push(...r.stray);
    const input: HttpInput = {
      method: r.method,
      path: "/a2a/jsonrpc",
      query: urlSafe(r.query),
      headers,
      body: r.body.toString("base64"),
    };
    return r.abortAfterMs === undefined ? input : { ...input, abortAfterMs: r.abortAfterMs };
  });

/** The headers of a normal request (sized and slow-reader inputs), perhaps as a fuzz principal. */
export const normalHeaders: fc.Arbitrary<[string, string][]> = fc
  .constantFrom(undefined, "Bearer fuzz-alice", "Bearer fuzz-bob")
  .map((auth) => [
    ["content-type", "application/json"],
    ["a2a-version", "1.0"],
    ...(auth === undefined ? [] : [["authorization", auth] as [string, string]]),
  ]);

/** A JSON-RPC request of `method` with `params` (no placeholders replaced). */
const rpcInput = (
  method: string,
  params: unknown,
  headers: readonly (readonly [string, string])[],
): HttpInput => ({
  method: "POST",
  path: "/a2a/jsonrpc",
  query: "",
  headers,
  body: Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })).toString("base64"),
});

/**
 * A JSON-RPC request: mostly {@link plainJsonRpcInput}; rarely a SendMessage at a size limit (test/support/fuzz-sizes.ts),
 * or a request for a large answer that the client never reads over a socket (GetTask of the big task, ListTasks with
 * artifacts: test/support/fuzz-slow-readers.ts).
 */
export const jsonRpcInput: fc.Arbitrary<HttpInput> = withRareInputs(
  plainJsonRpcInput,
  (grow): HttpInput => ({
    method: "POST",
    path: "/a2a/jsonrpc",
    query: "",
    headers: [
      ["content-type", "application/json"],
      ["a2a-version", "1.0"],
    ],
    body: "",
    grow,
  }),
  fc.tuple(fc.boolean(), normalHeaders).map(
    ([get, headers]): HttpInput => ({
      ...rpcInput(
        get ? "GetTask" : "ListTasks",
        get
          ? { tenant: BIG_TENANT, id: BIG_TASK }
          : { tenant: BIG_TENANT, pageSize: 100, includeArtifacts: true },
        get ? headers.slice(0, 2) : headers,
      ),
      neverRead: true,
    }),
  ),
);

/** `text` with what may not appear raw in a request target (controls, space, "#", non-ASCII) percent-encoded. */
export function urlSafe(text: string): string {
  return text.replace(/[^\x21-\x7e]|#/gu, (c) =>
    [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
  );
}

/** `input` with the known-task placeholder replaced by `taskId` (path, query, body). */
export function withKnownTask(input: HttpInput, taskId: string): HttpInput {
  const body = Buffer.from(input.body, "base64");
  const text = body.toString("latin1");
  if (
    !text.includes(KNOWN_TASK) &&
    !input.path.includes(KNOWN_TASK) &&
    !input.query.includes(KNOWN_TASK)
  )
    return input;
  return {
    ...input,
    path: input.path.replaceAll(KNOWN_TASK, taskId),
    query: input.query.replaceAll(KNOWN_TASK, taskId),
    body: Buffer.from(text.replaceAll(KNOWN_TASK, taskId), "latin1").toString("base64"),
  };
}

/** The JSON-RPC method and params `input` asks for, when it is a readable envelope. */
export function envelopeOf(input: HttpInput): { method: string; params: JsonValue } | undefined {
  try {
    const text = Buffer.from(input.body, "base64").toString("utf8");
    // Too deep to be served: not parsed (it is what took most of such an input's time).
    if (nestsDeeperThan(text, PARSE_DEPTH)) return undefined;
    const body = JSON.parse(text) as unknown;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
    const o = body as Record<string, JsonValue>;
    return typeof o["method"] === "string"
      ? { method: o["method"], params: o["params"] ?? null }
      : undefined;
  } catch {
    return undefined;
  }
}
