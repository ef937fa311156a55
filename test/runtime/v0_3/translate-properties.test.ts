// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Property tests of the A2A 0.3 ⇄ 1.0 translators. Arbitraries, built by hand from the 0.3 JSON Schema
 * (proto/v0_3/a2a.json), generate every 0.3 JSON-RPC shape it allows for Part, Message, Task, the stream
 * events, MessageSendParams and TaskPushNotificationConfig (every part kind, every state, optional fields present
 * and absent). Properties:
 * - every generated value validates against the 0.3 JSON Schema (the arbitraries are honest);
 * - 0.3 → 1.0 gives canonical 1.0 ProtoJSON (protobuf-es fromJson → toJson gives it back);
 * - 0.3 → 1.0 → 0.3 gives the input back, modulo the documented normalisations, and validates against the schema;
 * - 1.0 → 0.3 → 1.0 is the identity on those 1.0 values;
 * - 1.0 → 0.3 ProtoJSON parses with the 0.3 proto (canonically) and → 1.0 gives the value back, modulo the fields
 *   the 0.3 proto lacks.
 */
import { readFileSync } from "node:fs";
import {
  createFileRegistry,
  fromBinary,
  fromJson,
  toJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as pb from "../../../generated-example/gen/a2a_pb.js";
import * as v03 from "../../../runtime/src/v0_3/index.js";
import { addFormats } from "../../support/schema-validator.js";

const registry03 = createFileRegistry(
  fromBinary(
    FileDescriptorSetSchema,
    readFileSync(new URL("../../fixtures/a2a-v0_3.binpb", import.meta.url)),
  ),
);
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
ajv.addSchema(
  JSON.parse(
    readFileSync(new URL("../../../proto/v0_3/a2a.json", import.meta.url), "utf8"),
  ) as object,
  "a2a.json",
);

function expectV03(def: string, json: JsonValue): void {
  const validate = ajv.getSchema(`a2a.json#/definitions/${def}`);
  if (validate === undefined) throw new Error(`no definition ${def}`);
  expect(
    validate(json),
    `${def}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(json)}`,
  ).toBe(true);
}
function expectV1(schema: DescMessage, json: JsonValue): void {
  expect(toJson(schema, fromJson(schema, json))).toEqual(json);
}
function expectV03Proto(name: string, json: JsonValue): void {
  const schema = registry03.getMessage(`a2a.v1.${name}`);
  if (schema === undefined) throw new Error(`no message ${name}`);
  expect(toJson(schema, fromJson(schema, json))).toEqual(json);
}
/** Deep copy (arbitraries' values may share structure). */
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const RUNS = { numRuns: 150 };

// ---------------------------------------------------------------- arbitraries (0.3 JSON-RPC, from the JSON Schema)

/** Optional fields: each key present or absent. */
function rec<T extends Record<string, fc.Arbitrary<unknown>>>(required: (keyof T)[], model: T) {
  return fc.record(model, { requiredKeys: required as never[] }) as fc.Arbitrary<JsonObject>;
}

const text = fc.string({ maxLength: 12 });
const nonEmpty = fc.string({ minLength: 1, maxLength: 12 });
/** Ids usable inside resource names (no "/"). */
const safeId = fc.oneof(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9_.-]{1,10}$/));
const json: fc.Arbitrary<JsonValue> = fc
  .jsonValue({ maxDepth: 2 })
  .map((v) => JSON.parse(JSON.stringify(v)) as JsonValue);
const struct: fc.Arbitrary<JsonObject> = fc.dictionary(
  text.filter((k) => k !== "data_part_compat"),
  json,
  { maxKeys: 3 },
);
const strings = fc.array(nonEmpty, { minLength: 1, maxLength: 3 });
const base64 = fc.uint8Array({ maxLength: 20 }).map((b) => Buffer.from(b).toString("base64"));

/** Canonical RFC 3339 timestamps (what 1.0 toJson writes: Z, 0/3/6/9 fractional digits). */
const timestamp = fc
  .tuple(
    fc.date({
      min: new Date("0001-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    }),
    fc.oneof(
      fc.constant(0),
      fc.integer({ min: 1, max: 999 }).map((n) => n * 1e6),
      fc.integer({ min: 1, max: 999999 }).map((n) => n * 1e3),
      fc.integer({ min: 1, max: 999999999 }),
    ),
  )
  .map(([d, nanos]) => {
    const digits = String(nanos).padStart(9, "0");
    const frac =
      nanos === 0
        ? ""
        : `.${nanos % 1e6 === 0 ? digits.slice(0, 3) : nanos % 1e3 === 0 ? digits.slice(0, 6) : digits}`;
    return `${d.toISOString().slice(0, 19)}${frac}Z`;
  });

const states = [
  "submitted",
  "working",
  "input-required",
  "completed",
  "canceled",
  "failed",
  "rejected",
  "auth-required",
  "unknown",
] as const;
const state = fc.constantFrom(...states);

const textPart = rec(["kind", "text"], { kind: fc.constant("text"), text, metadata: struct });
const fileWithBytes = rec(["bytes"], { bytes: base64, mimeType: nonEmpty, name: nonEmpty });
const fileWithUri = rec(["uri"], { uri: fc.webUrl(), mimeType: nonEmpty, name: nonEmpty });
const filePart = rec(["kind", "file"], {
  kind: fc.constant("file"),
  file: fc.oneof(fileWithBytes, fileWithUri),
  metadata: struct,
});
const dataPart = rec(["kind", "data"], {
  kind: fc.constant("data"),
  data: struct,
  metadata: struct,
});
const part = fc.oneof(textPart, filePart, dataPart);

const message = rec(["kind", "messageId", "role", "parts"], {
  kind: fc.constant("message"),
  messageId: nonEmpty,
  role: fc.constantFrom("user", "agent"),
  parts: fc.array(part, { maxLength: 3 }),
  contextId: nonEmpty,
  taskId: nonEmpty,
  metadata: struct,
  extensions: strings,
  referenceTaskIds: strings,
});
const status = rec(["state"], { state, message, timestamp });
const artifact = rec(["artifactId", "parts"], {
  artifactId: nonEmpty,
  parts: fc.array(part, { maxLength: 3 }),
  name: nonEmpty,
  description: nonEmpty,
  metadata: struct,
  extensions: strings,
});
const task = rec(["kind", "id", "contextId", "status"], {
  kind: fc.constant("task"),
  id: nonEmpty,
  contextId: text,
  status,
  artifacts: fc.array(artifact, { minLength: 1, maxLength: 2 }),
  history: fc.array(message, { minLength: 1, maxLength: 2 }),
  metadata: struct,
});
const statusUpdate = rec(["kind", "taskId", "contextId", "status", "final"], {
  kind: fc.constant("status-update"),
  taskId: nonEmpty,
  contextId: text,
  status,
  final: fc.boolean(),
  metadata: struct,
});
const artifactUpdate = rec(["kind", "taskId", "contextId", "artifact"], {
  kind: fc.constant("artifact-update"),
  taskId: nonEmpty,
  contextId: text,
  artifact,
  append: fc.boolean(),
  lastChunk: fc.boolean(),
  metadata: struct,
});
const event = fc.oneof(task, message, statusUpdate, artifactUpdate);
const auth = rec(["schemes"], {
  schemes: fc.array(nonEmpty, { maxLength: 2 }),
  credentials: nonEmpty,
});
const pushConfig = rec(["url"], {
  id: safeId,
  url: fc.webUrl(),
  token: nonEmpty,
  authentication: auth,
});
const taskPushConfig = rec(["taskId", "pushNotificationConfig"], {
  taskId: safeId,
  pushNotificationConfig: pushConfig,
});
const sendParams = rec(["message"], {
  message,
  configuration: rec([], {
    acceptedOutputModes: fc.array(nonEmpty, { maxLength: 2 }),
    blocking: fc.boolean(),
    historyLength: fc.integer({ min: 0, max: 1000 }),
    pushNotificationConfig: pushConfig,
  }),
  metadata: struct,
});

// ---------------------------------------------------------------- documented normalisations (0.3 → 1.0 → 0.3)

const FINAL = new Set([
  "completed",
  "failed",
  "canceled",
  "rejected",
  "input-required",
  "auth-required",
]);

/** Empty arrays ≡ absent (optional ones), `final` recomputed, false append/lastChunk ≡ absent, … */
function normalise(value: JsonValue, where = ""): JsonValue {
  if (Array.isArray(value)) return value.map((v) => normalise(v, where));
  if (value === null || typeof value !== "object") return value;
  const o = { ...value } as { [k: string]: JsonValue };
  if (where === "metadata") return o; // user data: untouched
  for (const k of [
    "extensions",
    "referenceTaskIds",
    "artifacts",
    "history",
    "acceptedOutputModes",
  ]) {
    if (Array.isArray(o[k]) && (o[k] as JsonValue[]).length === 0) delete o[k];
  }
  if (o["kind"] === "status-update")
    o["final"] = FINAL.has((o["status"] as JsonObject)["state"] as string);
  if (o["kind"] === "artifact-update")
    for (const k of ["append", "lastChunk"]) if (o[k] === false) delete o[k];
  if (Array.isArray(o["schemes"])) o["schemes"] = (o["schemes"] as JsonValue[]).slice(0, 1);
  const out: { [k: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(o))
    out[k] = k === "metadata" || k === "data" ? v : normalise(v, k);
  return out;
}

/** MessageSendParams: absent blocking = true, historyLength 0 = absent. */
function normaliseParams(p: JsonObject): JsonObject {
  const n = normalise(p) as JsonObject;
  const cfg = n["configuration"] as JsonObject | undefined;
  if (cfg !== undefined) {
    const c = { ...cfg };
    if (c["blocking"] === undefined) c["blocking"] = true;
    if (c["historyLength"] === 0) delete c["historyLength"];
    n["configuration"] = c;
  }
  return n;
}

/** TaskPushNotificationConfig: a missing config id becomes the task id. */
function normalisePush(p: JsonObject): JsonObject {
  const n = normalise(p) as JsonObject;
  const inner = { ...(n["pushNotificationConfig"] as JsonObject) };
  inner["id"] ??= n["taskId"] as string;
  return { ...n, pushNotificationConfig: inner };
}

/** What the 0.3 proto cannot carry: part metadata and file names, referenceTaskIds. */
function stripProtoLosses(value: JsonValue, key = ""): JsonValue {
  if (Array.isArray(value)) return value.map((v) => stripProtoLosses(v, key));
  if (value === null || typeof value !== "object") return value;
  const out: { [k: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "metadata" || k === "data") out[k] = v;
    else if (k === "referenceTaskIds") continue;
    else if (key === "parts" && k === "filename") continue;
    else out[k] = stripProtoLosses(v, k);
  }
  if (key === "parts") delete out["metadata"];
  return out;
}

// ---------------------------------------------------------------- properties

interface Case {
  name: string;
  arb: fc.Arbitrary<JsonObject>;
  def: string;
  schema: DescMessage;
  from: (v: JsonValue) => JsonValue;
  to: (v: JsonValue) => JsonValue;
  norm: (v: JsonObject) => JsonValue;
  proto?: {
    name: string;
    to: (v: JsonValue) => JsonValue;
    from: (v: JsonValue) => JsonValue;
    rootKey?: string;
  };
}

const cases: Case[] = [
  {
    name: "Part",
    arb: part,
    def: "Part",
    schema: pb.PartSchema,
    from: (v) => v03.partFromV03(v),
    to: (v) => v03.partToV03(v),
    norm: normalise,
    proto: {
      name: "Part",
      to: (v) => v03.partToV03Proto(v),
      from: (v) => v03.partFromV03Proto(v),
      rootKey: "parts",
    },
  },
  {
    name: "Message",
    arb: message,
    def: "Message",
    schema: pb.MessageSchema,
    from: (v) => v03.messageFromV03(v),
    to: (v) => v03.messageToV03(v),
    norm: normalise,
    proto: {
      name: "Message",
      to: (v) => v03.messageToV03Proto(v),
      from: (v) => v03.messageFromV03Proto(v),
    },
  },
  {
    name: "TaskStatus",
    arb: status,
    def: "TaskStatus",
    schema: pb.TaskStatusSchema,
    from: (v) => v03.taskStatusFromV03(v),
    to: (v) => v03.taskStatusToV03(v),
    norm: normalise,
    proto: {
      name: "TaskStatus",
      to: (v) => v03.taskStatusToV03Proto(v),
      from: (v) => v03.taskStatusFromV03Proto(v),
    },
  },
  {
    name: "Artifact",
    arb: artifact,
    def: "Artifact",
    schema: pb.ArtifactSchema,
    from: (v) => v03.artifactFromV03(v),
    to: (v) => v03.artifactToV03(v),
    norm: normalise,
    proto: {
      name: "Artifact",
      to: (v) => v03.artifactToV03Proto(v),
      from: (v) => v03.artifactFromV03Proto(v),
    },
  },
  {
    name: "Task",
    arb: task,
    def: "Task",
    schema: pb.TaskSchema,
    from: (v) => v03.taskFromV03(v),
    to: (v) => v03.taskToV03(v),
    norm: normalise,
    proto: { name: "Task", to: (v) => v03.taskToV03Proto(v), from: (v) => v03.taskFromV03Proto(v) },
  },
  {
    name: "TaskStatusUpdateEvent",
    arb: statusUpdate,
    def: "TaskStatusUpdateEvent",
    schema: pb.TaskStatusUpdateEventSchema,
    from: (v) => v03.statusUpdateFromV03(v),
    to: (v) => v03.statusUpdateToV03(v),
    norm: normalise,
    proto: {
      name: "TaskStatusUpdateEvent",
      to: (v) => v03.statusUpdateToV03Proto(v),
      from: (v) => v03.statusUpdateFromV03Proto(v),
    },
  },
  {
    name: "TaskArtifactUpdateEvent",
    arb: artifactUpdate,
    def: "TaskArtifactUpdateEvent",
    schema: pb.TaskArtifactUpdateEventSchema,
    from: (v) => v03.artifactUpdateFromV03(v),
    to: (v) => v03.artifactUpdateToV03(v),
    norm: normalise,
    proto: {
      name: "TaskArtifactUpdateEvent",
      to: (v) => v03.artifactUpdateToV03Proto(v),
      from: (v) => v03.artifactUpdateFromV03Proto(v),
    },
  },
  {
    name: "stream event ⇄ StreamResponse",
    arb: event,
    def: "SendStreamingMessageSuccessResponse/properties/result",
    schema: pb.StreamResponseSchema,
    from: (v) => v03.streamResponseFromV03(v),
    to: (v) => v03.streamResponseToV03(v),
    norm: normalise,
    proto: {
      name: "StreamResponse",
      to: (v) => v03.streamResponseToV03Proto(v),
      from: (v) => v03.streamResponseFromV03Proto(v),
    },
  },
  {
    name: "message/send result ⇄ SendMessageResponse",
    arb: fc.oneof(task, message),
    def: "SendMessageSuccessResponse/properties/result",
    schema: pb.SendMessageResponseSchema,
    from: (v) => v03.sendMessageResponseFromV03(v),
    to: (v) => v03.sendMessageResponseToV03(v),
    norm: normalise,
    proto: {
      name: "SendMessageResponse",
      to: (v) => v03.sendMessageResponseToV03Proto(v),
      from: (v) => v03.sendMessageResponseFromV03Proto(v),
    },
  },
  {
    name: "MessageSendParams ⇄ SendMessageRequest",
    arb: sendParams,
    def: "MessageSendParams",
    schema: pb.SendMessageRequestSchema,
    from: (v) => v03.sendMessageParamsFromV03(v),
    to: (v) => v03.sendMessageParamsToV03(v),
    norm: normaliseParams,
    proto: {
      name: "SendMessageRequest",
      to: (v) => v03.sendMessageRequestToV03Proto(v),
      from: (v) => v03.sendMessageRequestFromV03Proto(v),
    },
  },
  {
    name: "TaskPushNotificationConfig",
    arb: taskPushConfig,
    def: "TaskPushNotificationConfig",
    schema: pb.TaskPushNotificationConfigSchema,
    from: (v) => v03.taskPushConfigFromV03(v),
    to: (v) => v03.taskPushConfigToV03(v),
    norm: normalisePush,
    proto: {
      name: "TaskPushNotificationConfig",
      to: (v) => v03.taskPushConfigToV03Proto(v),
      from: (v) => v03.taskPushConfigFromV03Proto(v),
    },
  },
];

describe.each(cases)("$name", (c) => {
  it("generated 0.3 values validate against the 0.3 JSON Schema", () => {
    fc.assert(
      fc.property(c.arb, (x) => expectV03(c.def, x)),
      RUNS,
    );
  });

  it("0.3 → 1.0 is canonical 1.0 ProtoJSON and → 0.3 round-trips (modulo normalisations) and validates", () => {
    fc.assert(
      fc.property(c.arb, (x) => {
        const input = copy(x);
        const v1 = c.from(x);
        expect(x).toEqual(input); // inputs are not mutated
        expectV1(c.schema, v1);
        const back = c.to(v1);
        expectV03(c.def, back);
        expect(back).toEqual(c.norm(input as JsonObject));
      }),
      RUNS,
    );
  });

  it("1.0 → 0.3 → 1.0 is the identity", () => {
    fc.assert(
      fc.property(c.arb, (x) => {
        const v1 = c.from(x);
        expect(c.from(c.to(v1))).toEqual(v1);
      }),
      RUNS,
    );
  });

  if (c.proto !== undefined) {
    const proto = c.proto;
    it("1.0 → 0.3 ProtoJSON parses with the 0.3 proto and → 1.0 round-trips (modulo proto-only losses)", () => {
      fc.assert(
        fc.property(c.arb, (x) => {
          const v1 = c.from(x);
          const p = proto.to(v1);
          expectV03Proto(proto.name, p);
          expect(proto.from(p)).toEqual(stripProtoLosses(v1, proto.rootKey));
        }),
        RUNS,
      );
    });
  }
});

describe("TaskPushNotificationConfig list and params", () => {
  it("list response 1.0 → 0.3 array → 1.0, and via 0.3 ProtoJSON", () => {
    fc.assert(
      fc.property(fc.array(taskPushConfig, { maxLength: 3 }), (arr) => {
        const configs = arr.map((x) => v03.taskPushConfigFromV03(x));
        const v1: JsonObject = configs.length > 0 ? { configs } : {};
        expectV1(pb.ListTaskPushNotificationConfigsResponseSchema, v1);
        const result = v03.listPushConfigsResponseToV03(v1);
        expectV03("ListTaskPushNotificationConfigSuccessResponse", {
          jsonrpc: "2.0",
          id: 1,
          result,
        });
        expect(v03.listPushConfigsResponseFromV03(result)).toEqual(v1);
        const p = v03.listPushConfigsResponseToV03Proto(v1);
        expectV03Proto("ListTaskPushNotificationConfigResponse", p);
        expect(v03.listPushConfigsResponseFromV03Proto(p)).toEqual(v1);
      }),
      RUNS,
    );
  });

  it("get / delete / list / query params round-trip through 1.0 and the 0.3 proto", () => {
    fc.assert(
      fc.property(
        safeId,
        safeId,
        fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
        (taskId, configId, history) => {
          const get03 = { id: taskId, pushNotificationConfigId: configId };
          expectV03("GetTaskPushNotificationConfigParams", get03);
          const get1 = v03.getPushConfigParamsFromV03(get03);
          expectV1(pb.GetTaskPushNotificationConfigRequestSchema, get1);
          expect(v03.getPushConfigParamsToV03(get1)).toEqual(get03);
          const name = v03.pushConfigNameRequestToV03Proto(get1);
          expectV03Proto("GetTaskPushNotificationConfigRequest", name);
          expect(v03.pushConfigNameRequestFromV03Proto(name)).toEqual(get1);
          const del1 = v03.deletePushConfigParamsFromV03(get03);
          expectV1(pb.DeleteTaskPushNotificationConfigRequestSchema, del1);
          expect(v03.deletePushConfigParamsToV03(del1)).toEqual(get03);
          const list1 = v03.listPushConfigsParamsFromV03({ id: taskId });
          expectV1(pb.ListTaskPushNotificationConfigsRequestSchema, list1);
          expect(
            v03.listPushConfigsRequestFromV03Proto(v03.listPushConfigsRequestToV03Proto(list1)),
          ).toEqual(list1);
          const q03: JsonObject =
            history === undefined ? { id: taskId } : { id: taskId, historyLength: history };
          expectV03("TaskQueryParams", q03);
          const q1 = v03.getTaskParamsFromV03(q03);
          expectV1(pb.GetTaskRequestSchema, q1);
          expect(v03.getTaskParamsToV03(q1)).toEqual(q03);
          const gp = v03.getTaskRequestToV03Proto(q1);
          expectV03Proto("GetTaskRequest", gp);
          expect(v03.getTaskRequestFromV03Proto(gp)).toEqual(q1);
          const sub = v03.taskNameRequestToV03Proto(v03.subscribeParamsFromV03({ id: taskId }));
          expectV03Proto("TaskSubscriptionRequest", sub);
          expect(v03.subscribeParamsToV03(v03.taskNameRequestFromV03Proto(sub))).toEqual({
            id: taskId,
          });
        },
      ),
      RUNS,
    );
  });
});

describe("robustness", () => {
  const fns: [string, (v: JsonValue) => unknown][] = [
    ["messageFromV03", (v) => v03.messageFromV03(v)],
    ["taskFromV03", (v) => v03.taskFromV03(v)],
    ["streamResponseFromV03", (v) => v03.streamResponseFromV03(v)],
    ["sendMessageParamsFromV03", (v) => v03.sendMessageParamsFromV03(v)],
    ["taskPushConfigFromV03", (v) => v03.taskPushConfigFromV03(v)],
    ["agentCardFromV03", (v) => v03.agentCardFromV03(v)],
    ["streamResponseToV03", (v) => v03.streamResponseToV03(v)],
    ["sendMessageRequestFromV03Proto", (v) => v03.sendMessageRequestFromV03Proto(v)],
    ["createPushConfigRequestFromV03Proto", (v) => v03.createPushConfigRequestFromV03Proto(v)],
    ["agentCardToV03", (v) => v03.agentCardToV03(v)],
  ];
  it.each(fns)("%s throws only V03TranslationError on arbitrary JSON", (_n, fn) => {
    const anyJson = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>,
      event,
      sendParams,
      taskPushConfig,
    );
    // Mutate valid values too: drop or retype one key somewhere.
    const mutated = fc.tuple(fc.oneof(event, sendParams), json, fc.nat()).map(([v, junk, n]) => {
      const c = copy(v) as { [k: string]: JsonValue };
      const keys = Object.keys(c);
      const k = keys[n % keys.length] as string;
      c[k] = junk;
      return c as JsonValue;
    });
    fc.assert(
      fc.property(fc.oneof(anyJson, mutated), (v) => {
        try {
          fn(v);
        } catch (e) {
          expect(e).toBeInstanceOf(v03.V03TranslationError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("1.0-native parts (values 0.3 cannot produce)", () => {
  const v1Part: fc.Arbitrary<JsonObject> = fc
    .tuple(
      fc.oneof(
        text.map((t) => ({ text: t })),
        base64.map((b) => ({ raw: b })),
        fc.webUrl().map((u) => ({ url: u })),
        json.map((d) => ({ data: d })),
      ),
      rec([], { mediaType: nonEmpty, filename: nonEmpty, metadata: struct }),
    )
    .map(([content, rest]) => ({ ...content, ...rest }) as JsonObject);

  it("1.0 → 0.3 JSON-RPC → 1.0 keeps everything but mediaType/filename of text and data parts", () => {
    fc.assert(
      fc.property(v1Part, (p) => {
        const canonical = toJson(pb.PartSchema, fromJson(pb.PartSchema, p)) as JsonObject;
        const rpc = v03.partToV03(canonical);
        expectV03("Part", rpc);
        const expected = { ...canonical };
        if (!("raw" in expected) && !("url" in expected)) {
          delete expected["mediaType"];
          delete expected["filename"];
        }
        // A wrapped (non-object) data part cannot tell empty metadata from none.
        const d = expected["data"];
        const wrapped =
          "data" in expected && (d === null || typeof d !== "object" || Array.isArray(d));
        if (
          wrapped &&
          Object.keys((expected["metadata"] as JsonObject | undefined) ?? {}).length === 0
        )
          delete expected["metadata"];
        expect(v03.partFromV03(rpc)).toEqual(expected);
      }),
      RUNS,
    );
  });

  it("1.0 → 0.3 ProtoJSON → 1.0 keeps content and file media type; non-object data stays wrapped", () => {
    fc.assert(
      fc.property(v1Part, (p) => {
        const canonical = toJson(pb.PartSchema, fromJson(pb.PartSchema, p)) as JsonObject;
        const proto = v03.partToV03Proto(canonical);
        expectV03Proto("Part", proto);
        const back = v03.partFromV03Proto(proto);
        expectV1(pb.PartSchema, back);
        const expected: JsonObject =
          "data" in canonical
            ? {
                data:
                  canonical["data"] !== null &&
                  typeof canonical["data"] === "object" &&
                  !Array.isArray(canonical["data"])
                    ? canonical["data"]
                    : { value: canonical["data"] as JsonValue },
              }
            : "text" in canonical
              ? { text: canonical["text"] as string }
              : Object.fromEntries(
                  Object.entries(canonical).filter(
                    ([k]) => k === "raw" || k === "url" || k === "mediaType",
                  ),
                );
        expect(back).toEqual(expected);
      }),
      RUNS,
    );
  });
});
