/**
 * The weight of a task (runtime/src/task/size.ts), the one measure of every byte budget: close
 * to the length of its ProtoJSON text, cached per stored object, NaN for a task no JSON binding
 * could answer (a non-finite number in a Value), with the path of that number for error messages.
 */
import { create, toJsonString } from "@bufbuild/protobuf";
import { ValueSchema, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { messageBytes, nonFinitePath, taskBytes, valueBytes } from "@protoc-gen-a2a/runtime/task";
import {
  MessageSchema,
  Role,
  TaskSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";

const jsonLength = (task: Task) => toJsonString(TaskSchema, task).length;

function sample(): Task {
  return create(TaskSchema, {
    id: "task-1",
    contextId: "ctx-1",
    status: { state: TaskState.WORKING, timestamp: timestampFromMs(1_700_000_000_000) },
    metadata: { a: 1, b: "two", c: [true, null, { d: "x".repeat(50) }] },
    history: [
      create(MessageSchema, {
        messageId: "m1",
        role: Role.USER,
        parts: [{ content: { case: "text", value: "hello ".repeat(100) } }],
      }),
      create(MessageSchema, {
        messageId: "m2",
        role: Role.AGENT,
        parts: [
          {
            content: { case: "raw", value: new Uint8Array(3000) },
            mediaType: "application/octet-stream",
          },
          {
            content: {
              case: "data",
              value: {
                kind: {
                  case: "structValue",
                  value: { fields: { k: { kind: { case: "numberValue", value: 3 } } } },
                },
              },
            },
          },
        ],
      }),
    ],
    artifacts: [
      {
        artifactId: "a1",
        name: "out",
        parts: [{ content: { case: "url", value: "https://example.com/file" } }],
      },
    ],
  });
}

describe("taskBytes", () => {
  it("is within 25% of the ProtoJSON text for a task of text, bytes, data and metadata", () => {
    const task = sample();
    const weight = taskBytes(task);
    const actual = jsonLength(task);
    expect(weight).toBeGreaterThan(actual * 0.75);
    expect(weight).toBeLessThan(actual * 1.25);
  });

  it("grows with the content: a 1 MB text part weighs about 1 MB, a 3 MB bytes part its 4 MB of base64", () => {
    const big = create(MessageSchema, {
      messageId: "m",
      parts: [{ content: { case: "text", value: "y".repeat(1_000_000) } }],
    });
    expect(messageBytes(big)).toBeGreaterThanOrEqual(1_000_000);
    expect(messageBytes(big)).toBeLessThan(1_000_200);
    const raw = create(MessageSchema, {
      messageId: "m",
      parts: [{ content: { case: "raw", value: new Uint8Array(3_000_000) } }],
    });
    expect(messageBytes(raw)).toBeGreaterThanOrEqual(4_000_000);
    expect(messageBytes(raw)).toBeLessThan(4_000_200);
  });

  it("caches by object: a stored task is weighed once; a copy that adds a message weighs only the new message more", () => {
    const task = sample();
    const before = taskBytes(task);
    expect(taskBytes(task)).toBe(before);
    const next = create(TaskSchema, {
      id: task.id,
      contextId: task.contextId,
      status: task.status,
      metadata: task.metadata,
    });
    next.history = [...task.history];
    next.artifacts = [...task.artifacts];
    const added = create(MessageSchema, {
      messageId: "m3",
      parts: [{ content: { case: "text", value: "z".repeat(1000) } }],
    });
    next.history.push(added);
    expect(taskBytes(next)).toBe(before + messageBytes(added) + 1);
  });

  it("is NaN when a Value or a Struct holds NaN or ±Infinity, and names where", () => {
    const inData = sample();
    const part = inData.history[1]!.parts[1]!;
    if (part.content.case !== "data" || part.content.value.kind.case !== "structValue")
      throw new Error("sample changed");
    part.content.value.kind.value.fields["k"] = create(ValueSchema, {
      kind: { case: "numberValue", value: Number.NaN },
    });
    expect(taskBytes(inData)).toBeNaN();
    expect(() => toJsonString(TaskSchema, inData)).toThrow();
    expect(nonFinitePath(inData)).toBe("history[1].parts[1].data.k");

    const inMetadata = sample();
    inMetadata.history[0]!.metadata = { deep: [1, { n: Number.POSITIVE_INFINITY }] };
    expect(taskBytes(inMetadata)).toBeNaN();
    expect(nonFinitePath(inMetadata)).toBe("history[0].metadata.deep[1].n");
    expect(valueBytes({ n: Number.NEGATIVE_INFINITY })).toBeNaN();
    expect(nonFinitePath(sample())).toBeUndefined();
  });
});
