// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Table-driven tests of the A2A 0.3 ⇄ 1.0 translators (runtime/src/v0_3): each function in both directions on
 * hand-written inputs modelled on the 0.3 and 1.0 specs' examples; every 1.0 output is proved canonical 1.0 ProtoJSON
 * (protobuf-es fromJson → toJson gives it back), every 0.3 JSON-RPC output validates against the 0.3 JSON Schema and
 * every 0.3 ProtoJSON output parses against the 0.3 proto; bad input throws V03TranslationError.
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
import { describe, expect, it } from "vitest";
import * as pb from "../../../generated-example/gen/a2a_pb.js";
import * as v03 from "../../../runtime/src/v0_3/index.js";
import { V03TranslationError } from "../../../runtime/src/v0_3/index.js";
import { errorSpecs } from "../../../generated-example/gen/a2a_a2a_errors.js";
import { addFormats } from "../../support/schema-validator.js";

// ---------------------------------------------------------------- validators

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

/** Asserts `json` is valid 0.3 JSON-RPC JSON of definition `def`. */
function expectV03(def: string, json: JsonValue): void {
  const validate = ajv.getSchema(`a2a.json#/definitions/${def}`);
  if (validate === undefined) throw new Error(`no definition ${def}`);
  const ok = validate(json);
  expect(ok, `${def}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(json)}`).toBe(true);
}

/** Asserts `json` is canonical 1.0 ProtoJSON of `schema` (fromJson → toJson gives it back). */
function expectV1(schema: DescMessage, json: JsonValue): void {
  expect(toJson(schema, fromJson(schema, json))).toEqual(json);
}

/** Asserts `json` is canonical 0.3 ProtoJSON of message `name` of the 0.3 proto. */
function expectV03Proto(name: string, json: JsonValue): void {
  const schema = registry03.getMessage(`a2a.v1.${name}`);
  if (schema === undefined) throw new Error(`no message ${name}`);
  expect(toJson(schema, fromJson(schema, json))).toEqual(json);
}

/** Asserts `fn` throws a V03TranslationError whose field is `field`. */
function expectBad(fn: () => unknown, field: string | RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(V03TranslationError);
  const err = caught as V03TranslationError;
  if (typeof field === "string") expect(err.field).toBe(field);
  else expect(err.field).toMatch(field);
  expect(err.message).toContain(err.reason);
}

// ---------------------------------------------------------------- parts

describe("parts", () => {
  const cases: {
    name: string;
    v03: JsonObject;
    v1: JsonObject;
    proto: JsonObject;
    protoBack?: JsonObject;
  }[] = [
    { name: "text", v03: { kind: "text", text: "hi" }, v1: { text: "hi" }, proto: { text: "hi" } },
    { name: "empty text", v03: { kind: "text", text: "" }, v1: { text: "" }, proto: { text: "" } },
    {
      name: "text with metadata",
      v03: { kind: "text", text: "hi", metadata: { a: 1, b: [true, null] } },
      v1: { text: "hi", metadata: { a: 1, b: [true, null] } },
      proto: { text: "hi" },
      protoBack: { text: "hi" },
    },
    {
      name: "file bytes",
      v03: {
        kind: "file",
        file: { name: "input_image.png", mimeType: "image/png", bytes: "iVBORw0KGgo=" },
      },
      v1: { raw: "iVBORw0KGgo=", mediaType: "image/png", filename: "input_image.png" },
      proto: { file: { fileWithBytes: "iVBORw0KGgo=", mimeType: "image/png" } },
      protoBack: { raw: "iVBORw0KGgo=", mediaType: "image/png" },
    },
    {
      name: "file uri",
      v03: {
        kind: "file",
        file: { uri: "https://storage.example.com/processed/image.png", mimeType: "image/png" },
      },
      v1: { url: "https://storage.example.com/processed/image.png", mediaType: "image/png" },
      proto: {
        file: {
          fileWithUri: "https://storage.example.com/processed/image.png",
          mimeType: "image/png",
        },
      },
    },
    {
      name: "data",
      v03: { kind: "data", data: { flight: "XYZ123", legs: [{ from: "JFK", to: "LHR" }] } },
      v1: { data: { flight: "XYZ123", legs: [{ from: "JFK", to: "LHR" }] } },
      proto: { data: { data: { flight: "XYZ123", legs: [{ from: "JFK", to: "LHR" }] } } },
    },
  ];
  it.each(cases)("$name: 0.3 ⇄ 1.0 ⇄ 0.3 proto", ({ v03: rpc, v1, proto, protoBack }) => {
    expect(v03.partFromV03(rpc)).toEqual(v1);
    expectV1(pb.PartSchema, v1);
    expect(v03.partToV03(v1)).toEqual(rpc);
    expectV03("Part", rpc);
    expect(v03.partToV03Proto(v1)).toEqual(proto);
    expectV03Proto("Part", proto);
    expect(v03.partFromV03Proto(proto)).toEqual(protoBack ?? v1);
  });

  it.each([["a string"], [42], [true], [null], [[1, "two"]]] as [JsonValue][])(
    "1.0 data %j is wrapped for 0.3 and unwrapped again",
    (data) => {
      const v1 = { data };
      const rpc = v03.partToV03(v1);
      expect(rpc).toEqual({
        kind: "data",
        data: { value: data },
        metadata: { [v03.DATA_PART_COMPAT_KEY]: true },
      });
      expectV03("Part", rpc);
      expect(v03.partFromV03(rpc)).toEqual(v1);
      expect(v03.partToV03Proto(v1)).toEqual({ data: { data: { value: data } } });
    },
  );

  it("keeps other metadata next to the wrap flag", () => {
    const rpc = v03.partToV03({ data: 7, metadata: { k: "v" } });
    expect(rpc["metadata"]).toEqual({ k: "v", data_part_compat: true });
    expect(v03.partFromV03(rpc)).toEqual({ data: 7, metadata: { k: "v" } });
  });

  it("drops 1.0 mediaType/filename on text parts toward 0.3", () => {
    expect(v03.partToV03({ text: "x", mediaType: "text/markdown", filename: "a.md" })).toEqual({
      kind: "text",
      text: "x",
    });
  });

  it.each([
    ["not an object", "x", "part"],
    ["unknown kind", { kind: "image", text: "x" }, "part.kind"],
    ["missing kind", { text: "x" }, "part.kind"],
    ["text not a string", { kind: "text", text: 5 }, "part.text"],
    ["file with both", { kind: "file", file: { uri: "u", bytes: "AA==" } }, "part.file"],
    ["file with neither", { kind: "file", file: { name: "n" } }, "part.file"],
    ["bad base64", { kind: "file", file: { bytes: "not base64!" } }, "part.file.bytes"],
    ["data not an object", { kind: "data", data: [1] }, "part.data"],
    ["metadata not an object", { kind: "text", text: "x", metadata: "m" }, "part.metadata"],
  ] as [string, JsonValue, string][])("0.3 part: %s", (_n, input, field) =>
    expectBad(() => v03.partFromV03(input), field),
  );

  it.each([
    ["no member", {}],
    ["two members", { text: "a", url: "b" }],
  ] as [string, JsonValue][])("1.0 part: %s", (_n, input) => {
    expectBad(() => v03.partToV03(input), "part");
    expectBad(() => v03.partToV03Proto(input), "part");
  });

  it("0.3 proto part errors", () => {
    expectBad(() => v03.partFromV03Proto({}), "part");
    expectBad(() => v03.partFromV03Proto({ file: { mimeType: "x" } }), "part.file");
  });
});

// ---------------------------------------------------------------- messages

const specMessage03: JsonObject = {
  role: "user",
  parts: [
    {
      kind: "text",
      text: "I want to fly from New York (JFK) to London (LHR) around October 10th, returning October 17th.",
    },
  ],
  contextId: "c295ea44-7543-4f78-b524-7a38915ad6e4",
  taskId: "3f36680c-7f37-4a5f-945e-d78981fafd36",
  messageId: "0db1d6c4-3976-40ed-b9b8-0043ea7a03d3",
  kind: "message",
};
const specMessage1: JsonObject = {
  role: "ROLE_USER",
  parts: [
    {
      text: "I want to fly from New York (JFK) to London (LHR) around October 10th, returning October 17th.",
    },
  ],
  contextId: "c295ea44-7543-4f78-b524-7a38915ad6e4",
  taskId: "3f36680c-7f37-4a5f-945e-d78981fafd36",
  messageId: "0db1d6c4-3976-40ed-b9b8-0043ea7a03d3",
};

describe("messages", () => {
  it("spec example message ⇄ 1.0", () => {
    expect(v03.messageFromV03(specMessage03)).toEqual(specMessage1);
    expectV1(pb.MessageSchema, specMessage1);
    expect(v03.messageToV03(specMessage1)).toEqual(specMessage03);
    expectV03("Message", specMessage03);
  });

  it("all optional fields survive 0.3 JSON-RPC and lose referenceTaskIds on 0.3 proto", () => {
    const rpc: JsonObject = {
      kind: "message",
      messageId: "m1",
      role: "agent",
      parts: [{ kind: "text", text: "a" }],
      metadata: { x: { y: 1 } },
      extensions: ["https://ext.example/1"],
      referenceTaskIds: ["t0"],
    };
    const v1 = v03.messageFromV03(rpc);
    expect(v1).toEqual({
      messageId: "m1",
      role: "ROLE_AGENT",
      parts: [{ text: "a" }],
      metadata: { x: { y: 1 } },
      extensions: ["https://ext.example/1"],
      referenceTaskIds: ["t0"],
    });
    expectV1(pb.MessageSchema, v1);
    expect(v03.messageToV03(v1)).toEqual(rpc);
    const proto = v03.messageToV03Proto(v1);
    expect(proto).toEqual({
      messageId: "m1",
      role: "ROLE_AGENT",
      content: [{ text: "a" }],
      metadata: { x: { y: 1 } },
      extensions: ["https://ext.example/1"],
    });
    expectV03Proto("Message", proto);
    const { referenceTaskIds: _dropped, ...rest } = v1;
    expect(v03.messageFromV03Proto(proto)).toEqual(rest);
  });

  it("normalises empty ids and arrays, writes parts: [] to 0.3", () => {
    expect(
      v03.messageFromV03({
        kind: "message",
        messageId: "m",
        role: "user",
        parts: [],
        contextId: "",
        extensions: [],
      }),
    ).toEqual({ messageId: "m", role: "ROLE_USER" });
    expect(v03.messageToV03({ messageId: "m", role: "ROLE_USER" })).toEqual({
      kind: "message",
      messageId: "m",
      role: "user",
      parts: [],
    });
    expect(v03.messageToV03({ messageId: "m", role: 2 })).toMatchObject({ role: "agent" });
  });

  it.each([
    ["missing messageId", { role: "user", parts: [] }, "message.messageId"],
    ["empty messageId", { messageId: "", role: "user", parts: [] }, "message.messageId"],
    ["bad role", { messageId: "m", role: "system", parts: [] }, "message.role"],
    ["missing parts", { messageId: "m", role: "user" }, "message.parts"],
    ["parts not an array", { messageId: "m", role: "user", parts: {} }, "message.parts"],
    [
      "bad nested part",
      { messageId: "m", role: "user", parts: [{ kind: "text" }] },
      "message.parts[0].text",
    ],
    ["wrong kind", { kind: "task", messageId: "m", role: "user", parts: [] }, "message.kind"],
    [
      "extensions not strings",
      { messageId: "m", role: "user", parts: [], extensions: [1] },
      "message.extensions[0]",
    ],
  ] as [string, JsonValue, string][])("0.3 message: %s", (_n, input, field) =>
    expectBad(() => v03.messageFromV03(input), field),
  );

  it("1.0 message errors", () => {
    expectBad(() => v03.messageToV03({ messageId: "m", parts: [] }), "message.role");
    expectBad(() => v03.messageToV03({ messageId: "m", role: "ROLE_BOSS" }), "message.role");
    expectBad(() => v03.messageToV03Proto({ role: "ROLE_USER" }), "message.messageId");
    expectBad(() => v03.messageFromV03Proto({ messageId: "m", role: "user" }), "message.role");
  });
});

// ---------------------------------------------------------------- tasks

describe("task states", () => {
  const table: [v03.V03TaskState, string, string][] = [
    ["submitted", "TASK_STATE_SUBMITTED", "TASK_STATE_SUBMITTED"],
    ["working", "TASK_STATE_WORKING", "TASK_STATE_WORKING"],
    ["input-required", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_INPUT_REQUIRED"],
    ["completed", "TASK_STATE_COMPLETED", "TASK_STATE_COMPLETED"],
    ["canceled", "TASK_STATE_CANCELED", "TASK_STATE_CANCELLED"],
    ["failed", "TASK_STATE_FAILED", "TASK_STATE_FAILED"],
    ["rejected", "TASK_STATE_REJECTED", "TASK_STATE_REJECTED"],
    ["auth-required", "TASK_STATE_AUTH_REQUIRED", "TASK_STATE_AUTH_REQUIRED"],
    ["unknown", "TASK_STATE_UNSPECIFIED", "TASK_STATE_UNSPECIFIED"],
  ];
  it.each(table)("%s ⇄ %s ⇄ %s", (rpc, v1, proto) => {
    expect(v03.taskStateFromV03(rpc)).toBe(v1);
    expect(v03.taskStateToV03(v1)).toBe(rpc);
    expect(v03.taskStateToV03Proto(v1)).toBe(proto);
    expect(v03.taskStateFromV03Proto(proto)).toBe(v1);
  });
  it("reads enum numbers and absence", () => {
    expect(v03.taskStateToV03(5)).toBe("canceled");
    expect(v03.taskStateToV03(undefined)).toBe("unknown");
    expect(v03.taskStateFromV03Proto(5)).toBe("TASK_STATE_CANCELED");
  });
  it("rejects unknown states", () => {
    expectBad(() => v03.taskStateFromV03("cancelled"), "state");
    expectBad(() => v03.taskStateFromV03("TASK_STATE_COMPLETED"), "state");
    expectBad(() => v03.taskStateToV03("TASK_STATE_CANCELLED"), "state");
    expectBad(() => v03.taskStateFromV03Proto("TASK_STATE_CANCELED"), "state");
    expectBad(() => v03.taskStateToV03(42), "state");
  });
  it.each([
    ["TASK_STATE_COMPLETED", true],
    ["TASK_STATE_FAILED", true],
    ["TASK_STATE_CANCELED", true],
    ["TASK_STATE_REJECTED", true],
    ["TASK_STATE_INPUT_REQUIRED", true],
    ["TASK_STATE_AUTH_REQUIRED", true],
    ["TASK_STATE_SUBMITTED", false],
    ["TASK_STATE_WORKING", false],
    [undefined, false],
  ] as [string | undefined, boolean][])("isFinalV1State(%s) = %s", (state, final) =>
    expect(v03.isFinalV1State(state)).toBe(final),
  );
});

const specTask03: JsonObject = {
  kind: "task",
  id: "3f36680c-7f37-4a5f-945e-d78981fafd36",
  contextId: "c295ea44-7543-4f78-b524-7a38915ad6e4",
  status: {
    state: "completed",
    message: {
      kind: "message",
      messageId: "m-2",
      role: "agent",
      parts: [{ kind: "text", text: "Okay, I've found a flight for you. Confirmation XYZ123." }],
    },
    timestamp: "2024-03-15T18:30:00Z",
  },
  artifacts: [
    {
      artifactId: "9b6934dd-37e3-4eb1-8766-962efaab63a1",
      name: "FlightItinerary.json",
      parts: [{ kind: "data", data: { confirmationId: "XYZ123", from: "JFK", to: "LHR" } }],
    },
  ],
  history: [specMessage03],
  metadata: { priority: "high" },
};
const specTask1: JsonObject = {
  id: "3f36680c-7f37-4a5f-945e-d78981fafd36",
  contextId: "c295ea44-7543-4f78-b524-7a38915ad6e4",
  status: {
    state: "TASK_STATE_COMPLETED",
    message: {
      messageId: "m-2",
      role: "ROLE_AGENT",
      parts: [{ text: "Okay, I've found a flight for you. Confirmation XYZ123." }],
    },
    timestamp: "2024-03-15T18:30:00Z",
  },
  artifacts: [
    {
      artifactId: "9b6934dd-37e3-4eb1-8766-962efaab63a1",
      name: "FlightItinerary.json",
      parts: [{ data: { confirmationId: "XYZ123", from: "JFK", to: "LHR" } }],
    },
  ],
  history: [specMessage1],
  metadata: { priority: "high" },
};

describe("tasks", () => {
  it("spec example task ⇄ 1.0 ⇄ 0.3 proto", () => {
    expect(v03.taskFromV03(specTask03)).toEqual(specTask1);
    expectV1(pb.TaskSchema, specTask1);
    expect(v03.taskToV03(specTask1)).toEqual(specTask03);
    expectV03("Task", specTask03);
    const proto = v03.taskToV03Proto(specTask1);
    expectV03Proto("Task", proto);
    expect((proto["history"] as JsonObject[])[0]).toHaveProperty("content");
    expect(v03.taskFromV03Proto(proto)).toEqual(specTask1);
  });

  it("canceled task uses CANCELLED on the 0.3 proto", () => {
    const v1 = { id: "t", status: { state: "TASK_STATE_CANCELED" } };
    const proto = v03.taskToV03Proto(v1);
    expect(proto).toEqual({ id: "t", status: { state: "TASK_STATE_CANCELLED" } });
    expectV03Proto("Task", proto);
    expect(v03.taskFromV03Proto(proto)).toEqual(v1);
  });

  it('unknown state ⇄ unspecified (omitted), missing contextId written as ""', () => {
    const rpc = { kind: "task", id: "t", contextId: "", status: { state: "unknown" } };
    const v1 = v03.taskFromV03(rpc);
    expect(v1).toEqual({ id: "t", status: {} });
    expectV1(pb.TaskSchema, v1);
    expect(v03.taskToV03(v1)).toEqual(rpc);
    expectV03("Task", rpc);
  });

  it.each([
    ["2024-03-15T18:30:00Z", "2024-03-15T18:30:00Z"],
    ["2024-03-15T18:30:00.5Z", "2024-03-15T18:30:00.500Z"],
    ["2024-03-15T18:30:00.123456Z", "2024-03-15T18:30:00.123456Z"],
    ["2024-03-15T18:30:00.1234567Z", "2024-03-15T18:30:00.123456700Z"],
    ["2024-03-15T18:30:00.000Z", "2024-03-15T18:30:00Z"],
    ["2024-03-15T20:30:00+02:00", "2024-03-15T18:30:00Z"],
    ["2024-03-15T18:30:00.123456+00:00", "2024-03-15T18:30:00.123456Z"],
    ["2024-03-15T00:30:00-05:30", "2024-03-15T06:00:00Z"],
    ["2024-03-15T18:30:00.123456", "2024-03-15T18:30:00.123456Z"],
    ["2024-03-15t18:30:00z", "2024-03-15T18:30:00Z"],
  ])("timestamp %s → %s (canonical 1.0 ProtoJSON)", (input, canonical) => {
    const status = v03.taskStatusFromV03({ state: "working", timestamp: input });
    expect(status).toEqual({ state: "TASK_STATE_WORKING", timestamp: canonical });
    expectV1(pb.TaskStatusSchema, status);
  });

  it.each([
    "yesterday",
    "2024-02-30T00:00:00Z",
    "2024-03-15T25:00:00Z",
    "2024-03-15",
    "0000-12-31T23:00:00Z",
  ])("rejects timestamp %s", (ts) =>
    expectBad(() => v03.taskStatusFromV03({ state: "working", timestamp: ts }), "status.timestamp"),
  );

  it.each([
    ["missing id", { kind: "task", contextId: "c", status: { state: "working" } }, "task.id"],
    ["missing status", { kind: "task", id: "t", contextId: "c" }, "task.status"],
    ["missing state", { kind: "task", id: "t", contextId: "c", status: {} }, "task.status.state"],
    [
      "bad artifact",
      {
        kind: "task",
        id: "t",
        contextId: "c",
        status: { state: "working" },
        artifacts: [{ parts: [] }],
      },
      "task.artifacts[0].artifactId",
    ],
    [
      "artifact without parts",
      {
        kind: "task",
        id: "t",
        contextId: "c",
        status: { state: "working" },
        artifacts: [{ artifactId: "a" }],
      },
      "task.artifacts[0].parts",
    ],
    [
      "bad history",
      { kind: "task", id: "t", contextId: "c", status: { state: "working" }, history: [5] },
      "task.history[0]",
    ],
  ] as [string, JsonValue, string][])("0.3 task: %s", (_n, input, field) =>
    expectBad(() => v03.taskFromV03(input), field),
  );

  it("artifacts: all directions", () => {
    const rpc = {
      artifactId: "a",
      name: "n",
      description: "d",
      parts: [{ kind: "text", text: "x" }],
      metadata: {},
      extensions: ["e"],
    };
    const v1 = v03.artifactFromV03(rpc);
    expect(v1).toEqual({
      artifactId: "a",
      name: "n",
      description: "d",
      parts: [{ text: "x" }],
      metadata: {},
      extensions: ["e"],
    });
    expectV1(pb.ArtifactSchema, v1);
    expect(v03.artifactToV03(v1)).toEqual(rpc);
    const proto = v03.artifactToV03Proto(v1);
    expectV03Proto("Artifact", proto);
    expect(v03.artifactFromV03Proto(proto)).toEqual(v1);
    expect(v03.artifactToV03({ artifactId: "a" })).toEqual({ artifactId: "a", parts: [] });
  });
});

// ---------------------------------------------------------------- events

describe("events", () => {
  const status03 = (state: string, final: boolean) => ({
    kind: "status-update",
    taskId: "t",
    contextId: "c",
    status: { state },
    final,
  });
  it.each([
    ["submitted", false],
    ["working", false],
    ["input-required", true],
    ["auth-required", true],
    ["completed", true],
    ["failed", true],
    ["canceled", true],
    ["rejected", true],
    ["unknown", false],
  ])("status-update %s → final %s", (state, final) => {
    const v1 = v03.statusUpdateFromV03(status03(state, !final));
    expectV1(pb.TaskStatusUpdateEventSchema, v1);
    expect(v1).not.toHaveProperty("final");
    const back = v03.statusUpdateToV03(v1);
    expect(back).toEqual(status03(state, final));
    expectV03("TaskStatusUpdateEvent", back);
    const proto = v03.statusUpdateToV03Proto(v1);
    expectV03Proto("TaskStatusUpdateEvent", proto);
    expect(proto["final"] === true).toBe(final);
    expect(v03.statusUpdateFromV03Proto(proto)).toEqual(v1);
  });

  it("final can be overridden", () => {
    const v1 = { taskId: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } };
    expect(v03.statusUpdateToV03(v1, { final: true })["final"]).toBe(true);
    expect(v03.statusUpdateToV03(v1, { final: false })["final"]).toBe(false);
    expect(v03.streamResponseToV03({ statusUpdate: v1 }, { final: true })["final"]).toBe(true);
  });

  it("artifact-update with append/lastChunk", () => {
    const rpc = {
      kind: "artifact-update",
      taskId: "t",
      contextId: "c",
      artifact: { artifactId: "a", parts: [{ kind: "text", text: "chunk" }] },
      append: true,
      lastChunk: true,
      metadata: { seq: 2 },
    };
    const v1 = v03.artifactUpdateFromV03(rpc);
    expect(v1).toEqual({
      taskId: "t",
      contextId: "c",
      artifact: { artifactId: "a", parts: [{ text: "chunk" }] },
      append: true,
      lastChunk: true,
      metadata: { seq: 2 },
    });
    expectV1(pb.TaskArtifactUpdateEventSchema, v1);
    expect(v03.artifactUpdateToV03(v1)).toEqual(rpc);
    expectV03("TaskArtifactUpdateEvent", rpc);
    const proto = v03.artifactUpdateToV03Proto(v1);
    expectV03Proto("TaskArtifactUpdateEvent", proto);
    expect(v03.artifactUpdateFromV03Proto(proto)).toEqual(v1);
    // false ≡ absent
    const plain = v03.artifactUpdateFromV03({ ...rpc, append: false, lastChunk: false });
    expect(plain).not.toHaveProperty("append");
    expect(v03.artifactUpdateToV03(plain)).not.toHaveProperty("lastChunk");
  });

  const streamCases: [string, JsonObject, JsonObject, string][] = [
    ["task", { task: specTask1 }, specTask03, "task"],
    ["message", { message: specMessage1 }, specMessage03, "message"],
    [
      "statusUpdate",
      { statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_COMPLETED" } } },
      status03("completed", true),
      "statusUpdate",
    ],
    [
      "artifactUpdate",
      {
        artifactUpdate: {
          taskId: "t",
          contextId: "c",
          artifact: { artifactId: "a", parts: [{ url: "https://x/y" }] },
        },
      },
      {
        kind: "artifact-update",
        taskId: "t",
        contextId: "c",
        artifact: { artifactId: "a", parts: [{ kind: "file", file: { uri: "https://x/y" } }] },
      },
      "artifactUpdate",
    ],
  ];
  it.each(streamCases)("StreamResponse %s ⇄ 0.3 event ⇄ 0.3 proto", (_n, v1, rpc, member) => {
    expectV1(pb.StreamResponseSchema, v1);
    expect(v03.streamResponseToV03(v1)).toEqual(rpc);
    expectV03("SendStreamingMessageSuccessResponse", { jsonrpc: "2.0", id: 1, result: rpc });
    expect(v03.streamResponseFromV03(rpc)).toEqual(v1);
    const proto = v03.streamResponseToV03Proto(v1);
    expect(Object.keys(proto)).toEqual([member]);
    expectV03Proto("StreamResponse", proto);
    expect(v03.streamResponseFromV03Proto(proto)).toEqual(v1);
  });

  it("SendMessageResponse ⇄ message/send result", () => {
    for (const [v1, rpc] of [
      [{ task: specTask1 }, specTask03],
      [{ message: specMessage1 }, specMessage03],
    ] as [JsonObject, JsonObject][]) {
      expectV1(pb.SendMessageResponseSchema, v1);
      expect(v03.sendMessageResponseToV03(v1)).toEqual(rpc);
      expectV03("SendMessageSuccessResponse", { jsonrpc: "2.0", id: "req-004", result: rpc });
      expect(v03.sendMessageResponseFromV03(rpc)).toEqual(v1);
      const proto = v03.sendMessageResponseToV03Proto(v1);
      expectV03Proto("SendMessageResponse", proto);
      expect(v03.sendMessageResponseFromV03Proto(proto)).toEqual(v1);
    }
  });

  it("event errors", () => {
    expectBad(() => v03.streamResponseToV03({}), "streamResponse");
    expectBad(
      () => v03.streamResponseToV03({ task: specTask1, message: specMessage1 }),
      "streamResponse",
    );
    expectBad(() => v03.streamResponseFromV03({ taskId: "t" }), "result.kind");
    expectBad(
      () =>
        v03.streamResponseFromV03({
          kind: "status-update",
          taskId: "t",
          contextId: "c",
          final: true,
        }),
      "result.status",
    );
    expectBad(() => v03.sendMessageResponseFromV03({ kind: "status-update" }), "result.kind");
    expectBad(() => v03.sendMessageResponseToV03({ statusUpdate: {} }), "sendMessageResponse");
    expectBad(
      () =>
        v03.statusUpdateFromV03({
          kind: "artifact-update",
          taskId: "t",
          contextId: "c",
          status: { state: "working" },
        }),
      "statusUpdate.kind",
    );
    expectBad(
      () => v03.artifactUpdateToV03({ taskId: "t", contextId: "c" }),
      "artifactUpdate.artifact",
    );
    expectBad(() => v03.statusUpdateToV03({ contextId: "c", status: {} }), "statusUpdate.taskId");
    expectBad(() => v03.streamResponseFromV03Proto({ msg: {} }), "streamResponse");
  });
});

// ---------------------------------------------------------------- requests

describe("message/send params", () => {
  const push03 = {
    id: "cfg-1",
    url: "https://client.example.com/webhook",
    token: "tok",
    authentication: { schemes: ["Bearer"], credentials: "secret" },
  };
  const push1 = {
    id: "cfg-1",
    url: "https://client.example.com/webhook",
    token: "tok",
    authentication: { scheme: "Bearer", credentials: "secret" },
  };

  it("spec example with blocking: true", () => {
    const params = { message: specMessage03, configuration: { blocking: true } };
    const v1 = v03.sendMessageParamsFromV03(params);
    expect(v1).toEqual({ message: specMessage1, configuration: {} });
    expectV1(pb.SendMessageRequestSchema, v1);
    expect(v03.sendMessageParamsToV03(v1)).toEqual(params);
    expectV03("MessageSendParams", params);
  });

  it("full configuration", () => {
    const params = {
      message: specMessage03,
      configuration: {
        acceptedOutputModes: ["text/plain", "application/json"],
        blocking: false,
        historyLength: 5,
        pushNotificationConfig: push03,
      },
      metadata: { trace: "abc" },
    };
    const v1 = v03.sendMessageParamsFromV03(params);
    expect(v1).toEqual({
      message: specMessage1,
      configuration: {
        acceptedOutputModes: ["text/plain", "application/json"],
        returnImmediately: true,
        historyLength: 5,
        taskPushNotificationConfig: push1,
      },
      metadata: { trace: "abc" },
    });
    expectV1(pb.SendMessageRequestSchema, v1);
    const back = v03.sendMessageParamsToV03(v1);
    expect(back).toEqual(params);
    expectV03("MessageSendParams", back);
    const proto = v03.sendMessageRequestToV03Proto(v1);
    expect(proto["configuration"]).toEqual({
      acceptedOutputModes: ["text/plain", "application/json"],
      historyLength: 5,
      pushNotification: push03,
    });
    expectV03Proto("SendMessageRequest", proto);
    expect(v03.sendMessageRequestFromV03Proto(proto)).toEqual(v1);
  });

  it.each([
    ["absent blocking = blocking", {}, {}, { blocking: true }],
    ["blocking true", { blocking: true }, {}, { blocking: true }],
    ["blocking false", { blocking: false }, { returnImmediately: true }, { blocking: false }],
    ["historyLength 0 = unlimited", { historyLength: 0 }, {}, { blocking: true }],
    [
      "historyLength 3",
      { historyLength: 3 },
      { historyLength: 3 },
      { historyLength: 3, blocking: true },
    ],
    ["empty acceptedOutputModes", { acceptedOutputModes: [] }, {}, { blocking: true }],
  ] as [string, JsonObject, JsonObject, JsonObject][])(
    "configuration: %s",
    (_n, cfg03, cfg1, cfgBack) => {
      const v1 = v03.sendMessageParamsFromV03({ message: specMessage03, configuration: cfg03 });
      expect(v1["configuration"]).toEqual(cfg1);
      expect(v03.sendMessageParamsToV03(v1)["configuration"]).toEqual(cfgBack);
    },
  );

  it("1.0 historyLength 0 (no history) is written as 0 to JSON-RPC and omitted on the proto wire", () => {
    const v1 = { message: specMessage1, configuration: { historyLength: 0 } };
    expect(v03.sendMessageParamsToV03(v1)["configuration"]).toEqual({
      historyLength: 0,
      blocking: true,
    });
    expect(v03.sendMessageRequestToV03Proto(v1)["configuration"]).toEqual({ blocking: true });
  });

  it.each([
    ["no configuration = blocking", undefined, undefined],
    [
      "configuration without blocking = non-blocking (proto3 default false)",
      {},
      { returnImmediately: true },
    ],
    ["blocking true", { blocking: true }, {}],
  ] as [string, JsonObject | undefined, JsonObject | undefined][])(
    "0.3 proto configuration: %s",
    (_n, cfg, cfg1) => {
      const proto: JsonObject = {
        message: { messageId: "m", role: "ROLE_USER", content: [{ text: "x" }] },
      };
      if (cfg !== undefined) proto["configuration"] = cfg;
      expectV03Proto("SendMessageRequest", proto);
      const v1 = v03.sendMessageRequestFromV03Proto(proto);
      expect(v1["configuration"]).toEqual(cfg1);
      expectV1(pb.SendMessageRequestSchema, v1);
    },
  );

  it("0.3 proto: blockingDefault makes an absent blocking mean blocking (HTTP+JSON à la a2a-js 0.3)", () => {
    const proto = {
      message: { messageId: "m", role: "ROLE_USER" },
      configuration: { historyLength: 2 },
    };
    expect(
      v03.sendMessageRequestFromV03Proto(proto, { blockingDefault: true })["configuration"],
    ).toEqual({ historyLength: 2 });
    expect(v03.sendMessageRequestFromV03Proto(proto)["configuration"]).toEqual({
      historyLength: 2,
      returnImmediately: true,
    });
    expect(
      v03.sendMessageRequestFromV03Proto(
        { ...proto, configuration: { blocking: false } },
        { blockingDefault: true },
      )["configuration"],
    ).toEqual({ returnImmediately: true });
  });

  it("multiple push schemes keep the first", () => {
    const v1 = v03.sendMessageParamsFromV03({
      message: specMessage03,
      configuration: {
        pushNotificationConfig: { url: "u", authentication: { schemes: ["Bearer", "Basic"] } },
      },
    });
    expect((v1["configuration"] as JsonObject)["taskPushNotificationConfig"]).toEqual({
      url: "u",
      authentication: { scheme: "Bearer" },
    });
  });

  it.each([
    ["missing message", {}, "params.message"],
    [
      "bad blocking",
      { message: specMessage03, configuration: { blocking: "yes" } },
      "params.configuration.blocking",
    ],
    [
      "bad historyLength",
      { message: specMessage03, configuration: { historyLength: 1.5 } },
      "params.configuration.historyLength",
    ],
    [
      "push without url",
      { message: specMessage03, configuration: { pushNotificationConfig: { id: "x" } } },
      "params.configuration.pushNotificationConfig.url",
    ],
    ["metadata array", { message: specMessage03, metadata: [] }, "params.metadata"],
  ] as [string, JsonValue, string][])("bad params: %s", (_n, input, field) =>
    expectBad(() => v03.sendMessageParamsFromV03(input), field),
  );
});

describe("task and push-config params", () => {
  it("tasks/get", () => {
    expect(v03.getTaskParamsFromV03({ id: "t", historyLength: 10, metadata: { a: 1 } })).toEqual({
      id: "t",
      historyLength: 10,
    });
    expect(v03.getTaskParamsFromV03({ id: "t", historyLength: 0 })).toEqual({ id: "t" });
    expect(v03.getTaskParamsToV03({ id: "t", historyLength: 0 })).toEqual({
      id: "t",
      historyLength: 0,
    });
    expectV1(pb.GetTaskRequestSchema, { id: "t", historyLength: 10 });
    expectV03("TaskQueryParams", v03.getTaskParamsToV03({ id: "t", historyLength: 10 }));
    expectBad(() => v03.getTaskParamsFromV03({ historyLength: 1 }), "params.id");
    expectBad(() => v03.getTaskParamsFromV03({ id: 7 }), "params.id");
  });

  it("tasks/cancel keeps metadata, tasks/resubscribe drops it", () => {
    expect(v03.cancelTaskParamsFromV03({ id: "t", metadata: { why: "user" } })).toEqual({
      id: "t",
      metadata: { why: "user" },
    });
    expectV1(pb.CancelTaskRequestSchema, { id: "t", metadata: { why: "user" } });
    expect(v03.cancelTaskParamsToV03({ id: "t", metadata: { why: "user" } })).toEqual({
      id: "t",
      metadata: { why: "user" },
    });
    expect(v03.subscribeParamsFromV03({ id: "t", metadata: { a: 1 } })).toEqual({ id: "t" });
    expect(v03.subscribeParamsToV03({ id: "t" })).toEqual({ id: "t" });
    expectBad(() => v03.cancelTaskParamsFromV03(null), "params");
  });

  const tpc03 = {
    taskId: "t1",
    pushNotificationConfig: {
      id: "c1",
      url: "https://h/w",
      token: "tk",
      authentication: { schemes: ["Bearer"] },
    },
  };
  const tpc1 = {
    taskId: "t1",
    id: "c1",
    url: "https://h/w",
    token: "tk",
    authentication: { scheme: "Bearer" },
  };

  it("tasks/pushNotificationConfig/set ⇄ TaskPushNotificationConfig", () => {
    expect(v03.setPushConfigParamsFromV03(tpc03)).toEqual(tpc1);
    expectV1(pb.TaskPushNotificationConfigSchema, tpc1);
    expect(v03.setPushConfigParamsToV03({ ...tpc1, tenant: "acme" })).toEqual(tpc03);
    expectV03("TaskPushNotificationConfig", tpc03);
    // missing config id → task id (the 0.3 SDKs' default)
    expect(
      v03.taskPushConfigFromV03({ taskId: "t1", pushNotificationConfig: { url: "u" } }),
    ).toEqual({ taskId: "t1", id: "t1", url: "u" });
    // empty schemes are required in 0.3 JSON-RPC
    expect(
      v03.taskPushConfigToV03({ taskId: "t", url: "u", authentication: { credentials: "c" } }),
    ).toEqual({
      taskId: "t",
      pushNotificationConfig: { url: "u", authentication: { schemes: [], credentials: "c" } },
    });
    expectBad(
      () => v03.taskPushConfigFromV03({ pushNotificationConfig: { url: "u" } }),
      "params.taskId",
    );
    expectBad(() => v03.taskPushConfigFromV03({ taskId: "t" }), "params.pushNotificationConfig");
    expectBad(() => v03.taskPushConfigToV03({ taskId: "t" }), "config.url");
  });

  it("get / list / delete params", () => {
    expect(v03.getPushConfigParamsFromV03({ id: "t1", pushNotificationConfigId: "c1" })).toEqual({
      taskId: "t1",
      id: "c1",
    });
    expect(v03.getPushConfigParamsFromV03({ id: "t1" })).toEqual({ taskId: "t1", id: "t1" });
    expectV1(pb.GetTaskPushNotificationConfigRequestSchema, { taskId: "t1", id: "c1" });
    const get03 = v03.getPushConfigParamsToV03({ taskId: "t1", id: "c1" });
    expect(get03).toEqual({ id: "t1", pushNotificationConfigId: "c1" });
    expectV03("GetTaskPushNotificationConfigParams", get03);
    expect(v03.listPushConfigsParamsFromV03({ id: "t1", metadata: {} })).toEqual({ taskId: "t1" });
    expect(v03.listPushConfigsParamsToV03({ taskId: "t1", pageSize: 5 })).toEqual({ id: "t1" });
    expect(v03.deletePushConfigParamsFromV03({ id: "t1", pushNotificationConfigId: "c1" })).toEqual(
      { taskId: "t1", id: "c1" },
    );
    const del03 = v03.deletePushConfigParamsToV03({ taskId: "t1", id: "c1" });
    expectV03("DeleteTaskPushNotificationConfigParams", del03);
    expectBad(
      () => v03.deletePushConfigParamsFromV03({ id: "t1" }),
      "params.pushNotificationConfigId",
    );
  });

  it("list result ⇄ ListTaskPushNotificationConfigsResponse", () => {
    const v1 = {
      configs: [tpc1, { taskId: "t1", id: "c2", url: "https://h/2" }],
      nextPageToken: "p2",
    };
    expectV1(pb.ListTaskPushNotificationConfigsResponseSchema, v1);
    const result = v03.listPushConfigsResponseToV03(v1);
    expect(result).toEqual([
      tpc03,
      { taskId: "t1", pushNotificationConfig: { id: "c2", url: "https://h/2" } },
    ]);
    expectV03("ListTaskPushNotificationConfigSuccessResponse", { jsonrpc: "2.0", id: 3, result });
    expect(v03.listPushConfigsResponseFromV03(result)).toEqual({ configs: v1.configs });
    expect(v03.listPushConfigsResponseToV03({})).toEqual([]);
    expectBad(() => v03.listPushConfigsResponseFromV03({}), "result");
    expectBad(
      () => v03.listPushConfigsResponseFromV03([{ taskId: "t" }]),
      "result[0].pushNotificationConfig",
    );
  });
});

// ---------------------------------------------------------------- 0.3 proto requests and resource names

describe("0.3 proto requests", () => {
  it("resource names", () => {
    expect(v03.taskResourceName("t1")).toBe("tasks/t1");
    expect(v03.parseTaskResourceName("tasks/t1")).toBe("t1");
    expect(v03.pushConfigResourceName("t1", "c1")).toBe("tasks/t1/pushNotificationConfigs/c1");
    expect(v03.parsePushConfigResourceName("tasks/t1/pushNotificationConfigs/c1")).toEqual({
      taskId: "t1",
      id: "c1",
    });
    expect(v03.parsePushConfigResourceName("tasks/t1", "name", true)).toEqual({
      taskId: "t1",
      id: undefined,
    });
    expect(v03.parsePushConfigParent("tasks/t1")).toBe("t1");
    expect(v03.parsePushConfigParent("task/t1/pushNotificationConfigs")).toBe("t1");
    for (const bad of ["t1", "tasks/", "tasks/a/b", "/tasks/a", "task/t1"])
      expectBad(() => v03.parseTaskResourceName(bad), "name");
    for (const bad of ["tasks/t1", "tasks/t1/pushNotificationConfigs/", "tasks/t1/configs/c1"])
      expectBad(() => v03.parsePushConfigResourceName(bad), "name");
    expectBad(() => v03.parsePushConfigParent("jobs/t1"), "parent");
    expectBad(() => v03.taskResourceName("a/b"), "id");
    expectBad(() => v03.taskResourceName(""), "id");
  });

  it("GetTask / CancelTask / TaskSubscription", () => {
    const get = { name: "tasks/t1", historyLength: 4 };
    expectV03Proto("GetTaskRequest", get);
    expect(v03.getTaskRequestFromV03Proto(get)).toEqual({ id: "t1", historyLength: 4 });
    expect(v03.getTaskRequestFromV03Proto({ name: "tasks/t1" })).toEqual({ id: "t1" });
    expect(v03.getTaskRequestToV03Proto({ id: "t1", historyLength: 4 })).toEqual(get);
    expect(v03.getTaskRequestToV03Proto({ id: "t1", historyLength: 0 })).toEqual({
      name: "tasks/t1",
    });
    expect(v03.taskNameRequestFromV03Proto({ name: "tasks/t1" })).toEqual({ id: "t1" });
    expect(v03.taskNameRequestToV03Proto({ id: "t1", metadata: { a: 1 } })).toEqual({
      name: "tasks/t1",
    });
    expectV03Proto("CancelTaskRequest", { name: "tasks/t1" });
    expectV03Proto("TaskSubscriptionRequest", { name: "tasks/t1" });
    expectBad(() => v03.getTaskRequestFromV03Proto({ name: "t1" }), "request.name");
    expectBad(() => v03.taskNameRequestFromV03Proto({}), "request.name");
  });

  it("push-config requests", () => {
    const create = {
      parent: "tasks/t1",
      configId: "c1",
      config: {
        name: "tasks/t1/pushNotificationConfigs/c1",
        pushNotificationConfig: {
          id: "c1",
          url: "https://h/w",
          authentication: { schemes: ["Bearer"] },
        },
      },
    };
    expectV03Proto("CreateTaskPushNotificationConfigRequest", create);
    const v1 = v03.createPushConfigRequestFromV03Proto(create);
    expect(v1).toEqual({
      taskId: "t1",
      id: "c1",
      url: "https://h/w",
      authentication: { scheme: "Bearer" },
    });
    expectV1(pb.TaskPushNotificationConfigSchema, v1);
    expect(v03.createPushConfigRequestToV03Proto(v1)).toEqual(create);
    // body of the REST binding: config without a name, parent with the typo'd "task/" prefix
    expect(
      v03.createPushConfigRequestFromV03Proto({
        parent: "task/t1/pushNotificationConfigs",
        config: { pushNotificationConfig: { url: "u" } },
      }),
    ).toEqual({ taskId: "t1", id: "t1", url: "u" });
    expectBad(
      () =>
        v03.createPushConfigRequestFromV03Proto({
          parent: "tasks/t1",
          config: {
            name: "tasks/t2/pushNotificationConfigs/c",
            pushNotificationConfig: { url: "u" },
          },
        }),
      "request.config.name",
    );
    expect(
      v03.pushConfigNameRequestFromV03Proto({ name: "tasks/t1/pushNotificationConfigs/c1" }),
    ).toEqual({ taskId: "t1", id: "c1" });
    expect(v03.pushConfigNameRequestFromV03Proto({ name: "tasks/t1" })).toEqual({
      taskId: "t1",
      id: "t1",
    });
    expect(v03.pushConfigNameRequestToV03Proto({ taskId: "t1", id: "c1" })).toEqual({
      name: "tasks/t1/pushNotificationConfigs/c1",
    });
    const list = { parent: "tasks/t1", pageSize: 10, pageToken: "p" };
    expectV03Proto("ListTaskPushNotificationConfigRequest", list);
    expect(v03.listPushConfigsRequestFromV03Proto(list)).toEqual({
      taskId: "t1",
      pageSize: 10,
      pageToken: "p",
    });
    expect(
      v03.listPushConfigsRequestToV03Proto({ taskId: "t1", pageSize: 10, pageToken: "p" }),
    ).toEqual(list);
    const res1 = { configs: [{ taskId: "t1", id: "c1", url: "u" }], nextPageToken: "n" };
    const res03 = v03.listPushConfigsResponseToV03Proto(res1);
    expect(res03).toEqual({
      configs: [
        {
          name: "tasks/t1/pushNotificationConfigs/c1",
          pushNotificationConfig: { id: "c1", url: "u" },
        },
      ],
      nextPageToken: "n",
    });
    expectV03Proto("ListTaskPushNotificationConfigResponse", res03);
    expect(v03.listPushConfigsResponseFromV03Proto(res03)).toEqual(res1);
    expect(v03.taskPushConfigToV03Proto({ taskId: "t1", url: "u" })).toEqual({
      name: "tasks/t1",
      pushNotificationConfig: { url: "u" },
    });
  });
});

// ---------------------------------------------------------------- agent cards

const specCard03: JsonObject = JSON.parse(
  readFileSync(new URL("../../../proto/v0_3/specification.md", import.meta.url), "utf8")
    .split("### 5.7. Sample Agent Card")[1]!
    .split("```json")[1]!
    .split("```")[0]!,
) as JsonObject;

const card1: JsonObject = {
  name: "GeoSpatial Route Planner Agent",
  description: "Route planning.",
  supportedInterfaces: [
    { url: "https://geo.example.com/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: "https://geo.example.com/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    {
      url: "https://geo.example.com/a2a/rest03",
      protocolBinding: "HTTP+JSON",
      protocolVersion: "0.3",
    },
  ],
  provider: {
    url: "https://www.examplegeoservices.com",
    organization: "Example Geo Services Inc.",
  },
  version: "1.2.0",
  documentationUrl: "https://docs.example.com",
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [{ uri: "https://ext/1", required: true }],
    extendedAgentCard: true,
  },
  securitySchemes: {
    google: {
      openIdConnectSecurityScheme: {
        openIdConnectUrl: "https://accounts.google.com/.well-known/openid-configuration",
      },
    },
    key: {
      apiKeySecurityScheme: { location: "header", name: "X-API-Key", description: "API key" },
    },
    bearer: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } },
    oauth: {
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: "https://a/auth",
            tokenUrl: "https://a/token",
            scopes: { read: "Read" },
            pkceRequired: true,
          },
        },
        oauth2MetadataUrl: "https://a/.well-known/oauth-authorization-server",
      },
    },
    device: {
      oauth2SecurityScheme: {
        flows: {
          deviceCode: { deviceAuthorizationUrl: "https://a/device", tokenUrl: "https://a/token" },
        },
      },
    },
    mtls: { mtlsSecurityScheme: { description: "client certs" } },
  },
  securityRequirements: [
    { schemes: { google: { list: ["openid", "profile"] } } },
    { schemes: { key: {}, mtls: {} } },
  ],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["application/json"],
  skills: [
    {
      id: "route",
      name: "Route",
      description: "Routes",
      tags: ["maps"],
      examples: ["from A to B"],
      securityRequirements: [{ schemes: { oauth: { list: ["read"] } } }],
    },
  ],
  signatures: [{ protected: "eyJ", signature: "QFd" }],
  iconUrl: "https://geo.example.com/icon.png",
};

describe("agent cards", () => {
  it("1.0 card → 0.3 JSON-RPC card", () => {
    expectV1(pb.AgentCardSchema, card1);
    const card = v03.agentCardToV03(card1);
    expectV03("AgentCard", card);
    expect(card).toMatchObject({
      protocolVersion: "0.3.0",
      url: "https://geo.example.com/a2a/v1",
      preferredTransport: "JSONRPC",
      additionalInterfaces: [
        { url: "https://geo.example.com/a2a/v1", transport: "JSONRPC" },
        { url: "https://geo.example.com/a2a/rest03", transport: "HTTP+JSON" },
      ],
      supportsAuthenticatedExtendedCard: true,
      capabilities: {
        streaming: true,
        pushNotifications: false,
        extensions: [{ uri: "https://ext/1", required: true }],
      },
      security: [{ google: ["openid", "profile"] }, { key: [], mtls: [] }],
      skills: [
        {
          id: "route",
          name: "Route",
          description: "Routes",
          tags: ["maps"],
          examples: ["from A to B"],
          security: [{ oauth: ["read"] }],
        },
      ],
    });
    expect(card["securitySchemes"]).toEqual({
      google: {
        type: "openIdConnect",
        openIdConnectUrl: "https://accounts.google.com/.well-known/openid-configuration",
      },
      key: { type: "apiKey", in: "header", name: "X-API-Key", description: "API key" },
      bearer: { type: "http", scheme: "Bearer", bearerFormat: "JWT" },
      oauth: {
        type: "oauth2",
        flows: {
          authorizationCode: {
            authorizationUrl: "https://a/auth",
            tokenUrl: "https://a/token",
            scopes: { read: "Read" },
          },
        },
        oauth2MetadataUrl: "https://a/.well-known/oauth-authorization-server",
      },
      device: { type: "oauth2", flows: {} },
      mtls: { type: "mutualTLS", description: "client certs" },
    });
    expect(card).not.toHaveProperty("supportedInterfaces");
    expect(card).not.toHaveProperty("securityRequirements");
  });

  it("explicit interfaces and protocolVersion", () => {
    const card = v03.agentCardToV03(card1, {
      interfaces: [{ url: "https://x/grpc", transport: "GRPC" }],
      protocolVersion: "0.3.1",
    });
    expect(card).toMatchObject({
      protocolVersion: "0.3.1",
      url: "https://x/grpc",
      preferredTransport: "GRPC",
      additionalInterfaces: [{ url: "https://x/grpc", transport: "GRPC" }],
    });
  });

  it("a 1.0-only card without explicit 0.3 interfaces is rejected", () => {
    const only1 = {
      ...card1,
      supportedInterfaces: [
        { url: "https://x", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
    };
    expectBad(() => v03.agentCardToV03(only1), "agentCard.supportedInterfaces");
  });

  it("hybrid card validates as 0.3 and as 1.0 (ignoring unknown fields)", () => {
    const hybrid = v03.hybridAgentCard(card1);
    expectV03("AgentCard", hybrid);
    expect(hybrid["supportedInterfaces"]).toEqual(card1["supportedInterfaces"]);
    expect(hybrid["securityRequirements"]).toEqual(card1["securityRequirements"]);
    const parsed = toJson(
      pb.AgentCardSchema,
      fromJson(pb.AgentCardSchema, hybrid, { ignoreUnknownFields: true }),
    );
    expect(parsed).toEqual(card1);
    expect((hybrid["securitySchemes"] as JsonObject)["key"]).toEqual({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
      description: "API key",
      apiKeySecurityScheme: { location: "header", name: "X-API-Key", description: "API key" },
    });
  });

  it("0.3 spec sample card → 1.0", () => {
    expectV03("AgentCard", specCard03);
    const card = v03.agentCardFromV03(specCard03);
    expectV1(pb.AgentCardSchema, card);
    expect(card["supportedInterfaces"]).toEqual([
      {
        url: "https://georoute-agent.example.com/a2a/v1",
        protocolBinding: "JSONRPC",
        protocolVersion: "0.3",
      },
      {
        url: "https://georoute-agent.example.com/a2a/grpc",
        protocolBinding: "GRPC",
        protocolVersion: "0.3",
      },
      {
        url: "https://georoute-agent.example.com/a2a/json",
        protocolBinding: "HTTP+JSON",
        protocolVersion: "0.3",
      },
    ]);
    expect(card["capabilities"]).toEqual({
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
    });
    expect(card["securitySchemes"]).toEqual({
      google: {
        openIdConnectSecurityScheme: {
          openIdConnectUrl: "https://accounts.google.com/.well-known/openid-configuration",
        },
      },
    });
    expect(card["securityRequirements"]).toEqual([
      { schemes: { google: { list: ["openid", "profile", "email"] } } },
    ]);
    // and back: only stateTransitionHistory and the card protocolVersion differ
    const back = v03.agentCardToV03(card);
    const { stateTransitionHistory: _s, ...caps } = specCard03["capabilities"] as JsonObject;
    expect(back).toEqual({ ...specCard03, protocolVersion: "0.3.0", capabilities: caps });
  });

  it("a 0.3 card without preferredTransport defaults to JSONRPC", () => {
    const card = v03.agentCardFromV03({
      name: "n",
      description: "d",
      url: "https://x",
      version: "1",
      capabilities: {},
      defaultInputModes: [],
      defaultOutputModes: [],
      skills: [],
      protocolVersion: "0.3.0",
    });
    expect(card["supportedInterfaces"]).toEqual([
      { url: "https://x", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    ]);
    expectV1(pb.AgentCardSchema, card);
    expectBad(() => v03.agentCardFromV03({ name: "n" }), "agentCard.url");
    expectBad(
      () => v03.agentCardFromV03({ url: "u", securitySchemes: { x: { type: "magic" } } }),
      "agentCard.securitySchemes.x.type",
    );
  });

  it("0.3 proto card both ways", () => {
    const proto = v03.agentCardToV03Proto(card1);
    expectV03Proto("AgentCard", proto);
    expect(proto["security"]).toEqual(card1["securityRequirements"]);
    expect((proto["securitySchemes"] as JsonObject)["oauth"]).toEqual({
      oauth2SecurityScheme: {
        flows: {
          authorizationCode: {
            authorizationUrl: "https://a/auth",
            tokenUrl: "https://a/token",
            scopes: { read: "Read" },
          },
        },
        oauth2MetadataUrl: "https://a/.well-known/oauth-authorization-server",
      },
    });
    const v1 = v03.agentCardFromV03Proto(proto);
    expectV1(pb.AgentCardSchema, v1);
    expect(v1["supportedInterfaces"]).toEqual([
      { url: "https://geo.example.com/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      {
        url: "https://geo.example.com/a2a/rest03",
        protocolBinding: "HTTP+JSON",
        protocolVersion: "0.3",
      },
    ]);
    expect(v1["skills"]).toEqual(card1["skills"]);
    expect(proto).not.toHaveProperty("iconUrl");
  });
});

// ---------------------------------------------------------------- errors

describe("errors", () => {
  it("every 1.0 error of the generated catalogue has a 0.3 code", () => {
    for (const name of Object.keys(errorSpecs))
      expect(v03.V1_ERROR_TO_V03[name], name).toBeDefined();
  });

  it.each([
    ["TaskNotFoundError", -32001],
    ["TaskNotCancelableError", -32002],
    ["PushNotificationNotSupportedError", -32003],
    ["UnsupportedOperationError", -32004],
    ["ContentTypeNotSupportedError", -32005],
    ["InvalidAgentResponseError", -32006],
    ["ExtendedAgentCardNotConfiguredError", -32007],
    ["JsonParseError", -32700],
    ["InvalidRequestError", -32600],
    ["MethodNotFoundError", -32601],
    ["InvalidParamsError", -32602],
    ["InternalError", -32603],
  ])("%s ⇄ %i", (name, code) => {
    expect(v03.V1_ERROR_TO_V03[name]?.code).toBe(code);
    expect(v03.V03_CODE_TO_V1_ERROR[code]).toBe(name);
    const err = v03.errorToV03({ name });
    expectV03("JSONRPCErrorResponse", { jsonrpc: "2.0", id: null, error: err });
    expect(v03.errorFromV03(err)).toEqual({ name, message: v03.V1_ERROR_TO_V03[name]?.message });
  });

  it("1.0-only errors map to the nearest 0.3 code", () => {
    expect(v03.errorToV03({ name: "ExtensionSupportRequiredError", message: "needs ext" })).toEqual(
      { code: -32600, message: "needs ext" },
    );
    expect(v03.errorToV03({ name: "VersionNotSupportedError" })).toEqual({
      code: -32004,
      message: "This operation is not supported",
    });
    expect(v03.errorToV03({ name: "Weird", message: "boom", data: { a: 1 } })).toEqual({
      code: -32603,
      message: "boom",
      data: { a: 1 },
    });
  });

  it("reads 0.3 errors", () => {
    expect(
      v03.errorFromV03({ code: -32001, message: "Task not found", data: { id: "t" } }),
    ).toEqual({ name: "TaskNotFoundError", message: "Task not found", data: { id: "t" } });
    expect(v03.errorFromV03({ code: -31000, message: "custom" })).toEqual({
      name: "InternalError",
      message: "custom",
    });
    expectBad(() => v03.errorFromV03({ code: "x", message: "m" }), "error.code");
    expectBad(() => v03.errorFromV03([]), "error");
  });
});
