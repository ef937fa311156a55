// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The example agent's one behaviour table (generated-example/agent/behaviours.ts) honours both SUT
 * contracts, through the real agent over JSON-RPC: each messageId prefix of the official A2A TCK
 * (scenarios/*.feature and its SUTs at a2aproject/a2a-tck 357c4a8; the text of the parts is
 * unrelated, as the TCK sends it) gives the TCK's exact contents, its multi-turn follow-ups
 * (each message naming its own behaviour) behave as its scenarios expect, and each ACTS text
 * trigger (ACTS specification §11; messageIds are UUIDs) gives the ACTS contract's result. CI has
 * no TCK checkout: this is what it can check of the contract.
 */
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import { ECHO_MAX_CHARS, echoed } from "../../../generated-example/agent/behaviours.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import {
  Role,
  TaskState,
  type Artifact,
  type Message,
  type Part,
  type StreamResponse,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import { collect } from "../../support/task-runtime-binding.js";

let agent: ExampleAgent;
let client: A2AServiceJsonRpcClient;
beforeAll(async () => {
  agent = await startExampleAgent({ longRunningMs: 200 });
  client = new A2AServiceJsonRpcClient({ url: agent.endpoints.jsonrpc });
});
afterAll(() => agent.close());

/** A SendMessage request with one text part. */
const request = (messageId: string, text: string, ids: { taskId?: string }) => ({
  message: {
    messageId,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
    ...ids,
  },
});
type Request = ReturnType<typeof request> & { configuration?: { returnImmediately?: boolean } };
/** A TCK message: the behaviour in the messageId (`tck-<name>-<8 hex>`), unrelated text. */
const tck = (prefix: string, ids: { taskId?: string } = {}, text = "TCK artifact test") =>
  request(`${prefix}-${crypto.randomUUID().slice(0, 8)}`, text, ids);
/** An ACTS message: a UUID messageId, the behaviour in the first part's text. */
const acts = (text: string, ids: { taskId?: string } = {}) =>
  request(crypto.randomUUID(), text, ids);

async function sendTask(request: Request): Promise<Task> {
  const response = await client.sendMessage(request);
  if (response.payload.case !== "task")
    throw new Error(`expected a task, got ${response.payload.case}`);
  return response.payload.value;
}
async function sendMessage(request: Request): Promise<Message> {
  const response = await client.sendMessage(request);
  if (response.payload.case !== "message")
    throw new Error(`expected a message, got ${response.payload.case}`);
  return response.payload.value;
}
const textOf = (m: Message | undefined) =>
  m?.parts[0]?.content.case === "text" ? m.parts[0].content.value : undefined;
const partOf = (task: Task): Part | undefined => task.artifacts[0]?.parts[0];
const dataOf = (part: Part | undefined) =>
  part?.content.case === "data" ? toJson(ValueSchema, part.content.value) : undefined;

async function until(id: string, state: TaskState): Promise<Task> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const task = await client.getTask({ id });
    if (task.status?.state === state || Date.now() > deadline) return task;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A stream's events, summarised: payload kinds, states, and each artifact chunk (text or file, append, lastChunk). */
function streamSummary(events: StreamResponse[]) {
  return events.map((e) => {
    const p = e.payload;
    if (p.case === "statusUpdate") return `status ${TaskState[p.value.status?.state ?? 0]}`;
    if (p.case === "artifactUpdate") {
      const part = p.value.artifact?.parts[0];
      const content =
        part?.content.case === "text"
          ? JSON.stringify(part.content.value)
          : `${part?.content.case} ${part?.filename} ${part?.mediaType}`;
      return `artifact ${content}${p.value.append ? " append" : ""}${p.value.lastChunk ? " last" : ""}`;
    }
    return p.case ?? "none";
  });
}

describe("the TCK contract: behaviours by messageId prefix, with the TCK's exact contents", () => {
  it("tck-complete-task → COMPLETED with the status message 'Hello from TCK'", async () => {
    const task = await sendTask(tck("tck-complete-task"));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    expect(textOf(task.status?.message)).toBe("Hello from TCK");
  });

  it("tck-message-response → a Message 'Direct message response', no task", async () => {
    const reply = await sendMessage(tck("tck-message-response"));
    expect([reply.role, textOf(reply)]).toEqual([Role.AGENT, "Direct message response"]);
  });

  it("tck-artifact-text, -file, -file-url, -data → COMPLETED with exactly the TCK's artifact", async () => {
    const text = await sendTask(tck("tck-artifact-text"));
    expect(text.status?.state).toBe(TaskState.COMPLETED);
    expect(partOf(text)?.content).toEqual({ case: "text", value: "Generated text content" });
    const file = partOf(await sendTask(tck("tck-artifact-file")));
    expect([file?.content.case, file?.filename, file?.mediaType]).toEqual([
      "raw",
      "output.txt",
      "text/plain",
    ]);
    const url = partOf(await sendTask(tck("tck-artifact-file-url")));
    expect([url?.content, url?.filename, url?.mediaType]).toEqual([
      { case: "url", value: "https://example.com/output.txt" },
      "output.txt",
      "text/plain",
    ]);
    expect(dataOf(partOf(await sendTask(tck("tck-artifact-data"))))).toEqual({
      key: "value",
      count: 42,
    });
  });

  it("tck-reject-task → REJECTED 'rejected'", async () => {
    const task = await sendTask(tck("tck-reject-task"));
    expect([task.status?.state, textOf(task.status?.message)]).toEqual([
      TaskState.REJECTED,
      "rejected",
    ]);
  });

  it("multi-turn: tck-input-required waits, a follow-up tck-input-required keeps it waiting, tck-complete-task completes it; the history keeps the user turns in order", async () => {
    const first = await sendTask(tck("tck-input-required", {}, "TCK prerequisite task creation"));
    expect(first.status?.state).toBe(TaskState.INPUT_REQUIRED);
    for (const text of ["TCK history message 1", "TCK history message 2"]) {
      expect(
        (await sendTask(tck("tck-input-required", { taskId: first.id }, text))).status?.state,
      ).toBe(TaskState.INPUT_REQUIRED);
    }
    const done = await sendTask(
      tck("tck-complete-task", { taskId: first.id }, "TCK complete after history"),
    );
    expect([done.status?.state, textOf(done.status?.message)]).toEqual([
      TaskState.COMPLETED,
      "Hello from TCK",
    ]);
    const history = (await client.getTask({ id: first.id, historyLength: 10 })).history;
    expect(history.filter((m) => m.role === Role.USER).map(textOf)).toEqual([
      "TCK prerequisite task creation",
      "TCK history message 1",
      "TCK history message 2",
      "TCK complete after history",
    ]);
  });

  it("the messageId wins over the text", async () => {
    const task = await sendTask(tck("tck-artifact-text", {}, "tck-reject-task please"));
    expect([task.status?.state, partOf(task)?.content.value]).toEqual([
      TaskState.COMPLETED,
      "Generated text content",
    ]);
  });

  it.each([
    [
      "tck-stream-001",
      ["task", "status WORKING", 'artifact "Stream hello from TCK" last', "status COMPLETED"],
    ],
    ["tck-stream-002", ["task", "status COMPLETED"]],
    [
      "tck-stream-003",
      ["task", "status WORKING", 'artifact "Stream task lifecycle" last', "status COMPLETED"],
    ],
    [
      "tck-stream-ordering-001",
      ["task", "status WORKING", 'artifact "Ordered output" last', "status COMPLETED"],
    ],
    [
      "tck-stream-artifact-text",
      ["task", "status WORKING", 'artifact "Streamed text content" last', "status COMPLETED"],
    ],
    [
      "tck-stream-artifact-file",
      ["task", "status WORKING", "artifact raw output.txt text/plain last", "status COMPLETED"],
    ],
    [
      "tck-stream-artifact-chunked",
      [
        "task",
        "status WORKING",
        'artifact "chunk-1 "',
        'artifact "chunk-2" append last',
        "status COMPLETED",
      ],
    ],
  ])("%s (streaming) → exactly the scenario's events", async (prefix, expected) => {
    expect(streamSummary(await collect(client.sendStreamingMessage(tck(prefix))))).toEqual(
      expected,
    );
  });

  it("test-resubscribe-message-id → WORKING for a while (4 s), then COMPLETED; a cancel stops it", async () => {
    const started = await sendTask({
      ...tck("test-resubscribe-message-id"),
      configuration: { returnImmediately: true },
    });
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(started.status?.state);
    expect((await until(started.id, TaskState.WORKING)).status?.state).toBe(TaskState.WORKING);
    expect((await until(started.id, TaskState.COMPLETED)).status?.state).toBe(TaskState.COMPLETED);
    const canceled = await sendTask({
      ...tck("test-resubscribe-message-id"),
      configuration: { returnImmediately: true },
    });
    await until(canceled.id, TaskState.WORKING);
    expect((await client.cancelTask({ id: canceled.id })).status?.state).toBe(TaskState.CANCELED);
  });

  it("an unknown prefix → the echo artifact (the TCK's unrelated text)", async () => {
    const task = await sendTask(tck("tck-transport-test-001", {}, "Hello from TCK transport test"));
    expect([task.status?.state, partOf(task)?.content.value]).toEqual([
      TaskState.COMPLETED,
      "Hello from TCK transport test",
    ]);
  });
});

describe("the ACTS contract: behaviours by the first part's text (UUID messageIds)", () => {
  it("tck-message-response and hello → a Message echoing the text", async () => {
    expect(textOf(await sendMessage(acts("tck-message-response hi")))).toBe(
      "tck-message-response hi",
    );
    expect(textOf(await sendMessage(acts("hello")))).toBe("hello");
  });

  it("tck-complete-task → COMPLETED with a 'Completed: …' artifact and 'Task completed.'", async () => {
    const task = await sendTask(acts("tck-complete-task now"));
    expect([task.status?.state, textOf(task.status?.message), partOf(task)?.content.value]).toEqual(
      [TaskState.COMPLETED, "Task completed.", "Completed: tck-complete-task now"],
    );
  });

  it("tck-artifact-* → ACTS's artifacts (example.txt, the example data)", async () => {
    expect(partOf(await sendTask(acts("tck-artifact-text x")))?.content).toEqual({
      case: "text",
      value: "Generated text content",
    });
    const file = partOf(await sendTask(acts("tck-artifact-file x")));
    expect([file?.content.case, file?.filename, file?.mediaType]).toEqual([
      "raw",
      "example.txt",
      "text/plain",
    ]);
    const url = partOf(await sendTask(acts("tck-artifact-file-url x")));
    expect([url?.content, url?.filename]).toEqual([
      { case: "url", value: "https://example.com/files/example.txt" },
      "example.txt",
    ]);
    expect(dataOf(partOf(await sendTask(acts("tck-artifact-data x"))))).toEqual({
      kind: "example",
      items: [1, 2, 3],
      nested: { ok: true },
    });
  });

  it.each([
    ["tck-reject-task", TaskState.REJECTED, "I will not do that."],
    ["tck-task-failure", TaskState.FAILED, "The task failed, as tck-task-failure asks."],
    ["tck-fail-task", TaskState.FAILED, "The task failed, as tck-task-failure asks."],
  ])("%s → its terminal state with a status message", async (text, state, status) => {
    const task = await sendTask(acts(`${text} now`));
    expect([task.status?.state, textOf(task.status?.message)]).toEqual([state, status]);
  });

  it.each([
    ["tck-input-required", TaskState.INPUT_REQUIRED],
    ["tck-auth-required", TaskState.AUTH_REQUIRED],
  ])(
    "%s → interrupted; the next message (whatever its text) completes it with the echo",
    async (text, state) => {
      const first = await sendTask(acts(text));
      expect(first.status?.state).toBe(state);
      const next = await sendTask(acts("tck-reject-task is only text here", { taskId: first.id }));
      expect([next.status?.state, next.artifacts.at(-1)?.parts[0]?.content.value]).toEqual([
        TaskState.COMPLETED,
        "tck-reject-task is only text here",
      ]);
    },
  );

  it('tck-multi-turn → INPUT_REQUIRED until "done"', async () => {
    const first = await sendTask(acts("tck-multi-turn start"));
    expect(first.status?.state).toBe(TaskState.INPUT_REQUIRED);
    expect((await sendTask(acts("more", { taskId: first.id }))).status?.state).toBe(
      TaskState.INPUT_REQUIRED,
    );
    const done = await sendTask(acts("done", { taskId: first.id }));
    expect([done.status?.state, textOf(done.status?.message)]).toEqual([
      TaskState.COMPLETED,
      "Conversation complete after 3 messages.",
    ]);
  });

  it("tck-long-running → WORKING, then the result; tck-cancel → WORKING until canceled", async () => {
    const long = await sendTask({
      ...acts("tck-long-running go"),
      configuration: { returnImmediately: true },
    });
    expect([TaskState.SUBMITTED, TaskState.WORKING]).toContain(long.status?.state);
    const finished = await until(long.id, TaskState.COMPLETED);
    expect([
      finished.status?.state,
      finished.artifacts.map((a: Artifact) => a.parts[0]?.content.value),
    ]).toEqual([TaskState.COMPLETED, ["Long-running work finished"]]);
    const cancel = await sendTask({
      ...acts("tck-cancel go"),
      configuration: { returnImmediately: true },
    });
    expect((await until(cancel.id, TaskState.WORKING)).status?.state).toBe(TaskState.WORKING);
    expect((await client.cancelTask({ id: cancel.id })).status?.state).toBe(TaskState.CANCELED);
  });

  it.each([
    [
      "tck-stream-basic x",
      ["task", "status WORKING", 'artifact "Streamed content" last', "status COMPLETED"],
    ],
    [
      "tck-stream-chunked x",
      [
        "task",
        "status WORKING",
        'artifact "Streamed "',
        'artifact "chunked " append',
        'artifact "content" append last',
        "status COMPLETED",
      ],
    ],
  ])("%s (streaming) → the ACTS events", async (text, expected) => {
    expect(streamSummary(await collect(client.sendStreamingMessage(acts(text))))).toEqual(expected);
  });

  it("anything else → the echo artifact", async () => {
    const task = await sendTask(acts("something else"));
    expect([task.status?.state, partOf(task)?.content.value]).toEqual([
      TaskState.COMPLETED,
      "something else",
    ]);
  });

  it("a text near the request limit → echoed cut to its first ECHO_MAX_CHARS, the task COMPLETED (not over maxTaskBytes, not FAILED) and served", async () => {
    const big = "é".repeat(4 * 1024 * 1024); // 8 MiB of UTF-8: message + whole echo would pass the 16 MiB of maxTaskBytes
    const task = await sendTask(acts(big));
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    const echoedText = partOf(task)?.content.value as string;
    expect(echoedText.startsWith("é".repeat(ECHO_MAX_CHARS))).toBe(true);
    expect(echoedText.slice(ECHO_MAX_CHARS)).toBe(
      `... (${big.length - ECHO_MAX_CHARS} more characters not echoed)`,
    );
    const stored = await client.getTask({ id: task.id, historyLength: 0 });
    expect(partOf(stored)?.content.value).toBe(echoedText);
  });
});

describe("echoed", () => {
  it("keeps a text up to ECHO_MAX_CHARS whole, cuts a longer one, never inside a surrogate pair", () => {
    const exact = "a".repeat(ECHO_MAX_CHARS);
    expect(echoed(exact)).toBe(exact);
    const pairAtCut = `${"a".repeat(ECHO_MAX_CHARS - 1)}😀tail`; // the pair's high half is the last unit kept
    const cut = echoed(pairAtCut);
    expect(cut).toBe(`${"a".repeat(ECHO_MAX_CHARS - 1)}... (6 more characters not echoed)`);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut)).toBe(false); // no lone high surrogate
  });
});
