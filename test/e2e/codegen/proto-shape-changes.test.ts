/**
 * Issue #15, "shape changes compile or fail clearly": regenerating from changed copies of
 * a2a.proto (test/fixtures/proto-history/), as a new user would, in throwaway agent projects
 * (buf generate with protoc-gen-es and the bundled protoc-gen-a2a: run `npm run build` first).
 *
 * - Every fixture but renamed-enum-value generates, and the output compiles under the strict
 *   tsconfig together with a small agent on it (test/support/shape-change-agent.ts).
 * - added-rpc: a notice names ArchiveTask; the task runtime answers it UnsupportedOperationError on
 *   all three bindings until `operations.archiveTask` implements it; the agent client has it.
 * - split-file: the A2A messages are found in the second file of the package.
 * - The ACTS suite (our client, three bindings) against the example agent (generated-example/agent,
 *   copied) built on the v1.0.0 and added-rpc outputs: the outcomes of test/conformance/expected-outcomes.ts;
 *   plus SendMessage, GetTask, ListTasks, CancelTask on both outputs with the generated clients.
 * - renamed-enum-value, and drift made in-process on the descriptors: one line, no stack.
 * - The contract (plugin/src/model/task-runtime-contract.ts) lists exactly what the runtime's
 *   shapes (runtime/src/task/shapes.ts, states.ts) read.
 */
import {
  cpSync,
  rmSync,
  mkdtempSync,
  mkdirSync,
  readFileSync,
  existsSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { Project } from "ts-morph";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setNoticeSink } from "../../../plugin/src/notices.js";
import { GenerationError } from "../../../plugin/src/generation-error.js";
import {
  contractEnums,
  contractMessages,
  contractRpcs,
} from "../../../plugin/src/model/task-runtime-contract.js";
import { generate, project, projectFrom } from "../../support/agent-project.js";
import { fileOf, repoRoot, runPlugin } from "../../support/plugin-runner.js";
import { ARCHIVE_SOURCE, SERVE_SOURCE } from "../../support/shape-change-agent.js";
import { typeCheck } from "../../support/type-check.js";
import { BINDINGS } from "../../support/acts/client.js";
import { loadActsSuite } from "../../support/acts/document.js";
import {
  createGeneratedClient,
  generatedClientFeatures,
} from "../../support/acts/generated-clients.js";
import type { TestResult } from "../../support/acts/runner.js";
import { EXPECTED_OUTCOMES } from "../../conformance/expected-outcomes.js";

/**
 * The ACTS harness (test/support/acts/harness.ts) starts generated-example's agent; here it gets
 * the same agent built on another output (a copy of generated-example/agent/ and bindings/ next to
 * that output), whichever `exampleAgent.current` is.
 */
const exampleAgent = vi.hoisted(() => ({
  current: undefined as undefined | { startExampleAgent: (...args: unknown[]) => unknown },
}));
vi.mock("../../../generated-example/agent/echo-agent.js", () => ({
  startExampleAgent: (...args: unknown[]) => exampleAgent.current!.startExampleAgent(...args),
}));

const HISTORY = join(repoRoot, "test/fixtures/proto-history");
const COMPILING = [
  "v1.0.0",
  "added-rpc",
  "added-required-field",
  "changed-route",
  "removed-field",
  "split-file",
] as const;
const ARCHIVE_NOTICE =
  "protoc-gen-a2a: notice: a2a.proto: rpc lf.a2a.v1.A2AService.ArchiveTask: not one of the eleven A2A operations: the task runtime answers it UnsupportedOperationError until createA2AServiceTaskHandler({ operations: { archiveTask } }) implements it";
const RENAMED_ERROR =
  "protoc-gen-a2a: a2a.proto: enum lf.a2a.v1.TaskState: the task runtime needs value TASK_STATE_REJECTED = 7 (renamed or removed?)";

let root: string;
const runs = new Map<string, { dir: string; status: number | null; stderr: string }>();
/** A project from proto/a2a.proto whose TaskState gains a value without the TASK_STATE_ prefix (protobuf-es then keeps full names). */
let unprefixed: string;
let diagnostics: string[] | undefined;
/** The outputs the ACTS suite runs against (through the example agent built on each). */
const ACTS_PROJECTS = ["v1.0.0", "added-rpc"] as const;
const actsProjects = new Map<string, string>();

/** The plugin's own stderr lines (buf adds its own "Failure: …" lines). */
const pluginLines = (stderr: string) =>
  stderr.split("\n").filter((l) => l.startsWith("protoc-gen-a2a:"));

beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  root = mkdtempSync(join(repoRoot, "test/.tmp/shapes-"));
  for (const name of [...COMPILING, "renamed-enum-value"]) {
    const dir = projectFrom(root, name, join(HISTORY, name));
    runs.set(name, { dir, ...generate(dir) });
    if (existsSync(join(dir, "src/gen/a2a_a2a_task_handler.ts")))
      writeFileSync(join(dir, "src/serve.ts"), SERVE_SOURCE);
  }
  writeFileSync(join(runs.get("added-rpc")!.dir, "src/archive.ts"), ARCHIVE_SOURCE);
  for (const name of ACTS_PROJECTS) {
    // The example agent's layout: gen/ (generated as generated-example/gen is), agent/, bindings/.
    const dir = projectFrom(root, `acts-${name}`, join(HISTORY, name), {
      out: "gen",
      options: ["target=ts", "import_extension=js", "task_store=sqlite+postgres"],
      withV03: true,
    });
    const run = generate(dir);
    if (run.status !== 0) throw new Error(run.stderr);
    cpSync(join(repoRoot, "generated-example/agent"), join(dir, "agent"), { recursive: true });
    cpSync(join(repoRoot, "generated-example/bindings"), join(dir, "bindings"), {
      recursive: true,
    });
    actsProjects.set(name, dir);
  }
  unprefixed = project(root, "unprefixed-enum", (proto) =>
    proto.replace(
      "  TASK_STATE_AUTH_REQUIRED = 8;",
      "  TASK_STATE_AUTH_REQUIRED = 8;\n  PAUSED = 9;",
    ),
  );
  writeFileSync(join(unprefixed, "src/serve.ts"), SERVE_SOURCE);
}, 240_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One type-check of every compiling project (one program: much faster than one per project). */
function allDiagnostics(): string[] {
  diagnostics ??= typeCheck(
    [
      ...COMPILING.map((name) => join(runs.get(name)!.dir, "src/**/*.ts")),
      join(unprefixed, "src/**/*.ts"),
    ],
    { exactOptionalPropertyTypes: true },
  );
  return diagnostics;
}

describe("regenerating from changed copies of a2a.proto", () => {
  it.each(COMPILING)(
    "%s: generates the task handler and agent client, and the output (with an agent on it) compiles",
    (name) => {
      const run = runs.get(name)!;
      expect(run.status, run.stderr).toBe(0);
      expect(pluginLines(run.stderr)).toEqual(name === "added-rpc" ? [ARCHIVE_NOTICE] : []);
      for (const file of [
        "a2a_a2a_task_handler.ts",
        "a2a_a2a_agent_client.ts",
        "a2a_a2a_handler.ts",
      ])
        expect(existsSync(join(run.dir, "src/gen", file)), file).toBe(true);
      const mine = allDiagnostics().filter((d) => d.includes(`/${name}/`));
      expect(mine).toEqual([]);
    },
    240_000,
  );

  it("renamed-enum-value: fails with one line naming the enum and the value, no stack, no TypeScript", () => {
    const run = runs.get("renamed-enum-value")!;
    expect(run.status).not.toBe(0);
    expect(pluginLines(run.stderr)).toEqual([RENAMED_ERROR]);
    expect(run.stderr).not.toMatch(/\n\s+at |TS\d{4}|error TS/);
    expect(existsSync(join(run.dir, "src/gen/a2a_a2a_task_handler.ts"))).toBe(false);
  });

  it("split-file: the A2A messages come from the second file of the package, and the task runtime runs on them", async () => {
    const dir = runs.get("split-file")!.dir;
    const binder = readFileSync(join(dir, "src/gen/a2a_a2a_task_handler.ts"), "utf8");
    expect(binder).toMatch(
      /import \{ AgentCardSchema, .*TaskState.* \} from "\.\/a2a_types_pb\.js";/,
    );
    expect(readFileSync(join(dir, "src/gen/a2a_a2a_agent_client.ts"), "utf8")).toContain(
      'from "./a2a_types_pb.js"',
    );
    const { executor } = await import(join(dir, "src/serve.ts"));
    const { createA2AServiceTaskHandler } = await import(
      join(dir, "src/gen/a2a_a2a_task_handler.ts")
    );
    const types = await import(join(dir, "src/gen/a2a_types_pb.ts"));
    const { createCallContext } = await import("@protoc-gen-a2a/runtime");
    const handler = createA2AServiceTaskHandler({ executor });
    const request = create(types.SendMessageRequestSchema, {
      message: {
        messageId: "m1",
        role: types.Role.USER,
        parts: [{ content: { case: "text", value: "hi" } }],
      },
    });
    const response = await handler.sendMessage(
      request,
      createCallContext({ operation: "SendMessage", binding: "JSONRPC" }),
    );
    expect(response.payload.case).toBe("task");
    expect(response.payload.value.status.state).toBe(types.TaskState.COMPLETED);
  });

  it("a TaskState value without the prefix (full TypeScript names): the binder spells the runtime's keys out, and it compiles", () => {
    const binder = readFileSync(join(unprefixed, "src/gen/a2a_a2a_task_handler.ts"), "utf8");
    expect(binder).toContain(
      "states: { SUBMITTED: TaskState.TASK_STATE_SUBMITTED, WORKING: TaskState.TASK_STATE_WORKING,",
    );
    expect(binder).toContain("roles: Role,");
    expect(allDiagnostics().filter((d) => d.includes("/unprefixed-enum/"))).toEqual([]);
  }, 240_000);
});

describe("added-rpc: ArchiveTask on the task runtime, on all three bindings", () => {
  const bindings = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
  /** A module of a generated project, imported at run time (untyped here; the project itself type-checks it). */
  type Module = any;
  let serveModule: Module;
  let archive: Module;
  let errors: Module;
  let pb: Module;

  beforeAll(async () => {
    const dir = runs.get("added-rpc")!.dir;
    serveModule = await import(join(dir, "src/serve.ts"));
    archive = await import(join(dir, "src/archive.ts"));
    errors = await import(join(dir, "src/gen/a2a_a2a_errors.ts"));
    pb = await import(join(dir, "src/gen/a2a_pb.ts"));
  });

  const send = (text: string) =>
    create(pb.SendMessageRequestSchema, {
      message: {
        messageId: `m-${text}-${Math.random()}`,
        role: pb.Role.USER,
        parts: [{ content: { case: "text", value: text } }],
      },
    });

  it("without an implementation: UnsupportedOperationError (JSON-RPC -32004, HTTP 400, gRPC FAILED_PRECONDITION); SendMessage and GetTask still work", async () => {
    const served = await serveModule.serve(archive.unimplemented());
    try {
      for (const binding of bindings) {
        const client = served.clients[binding];
        const sent = await client.sendMessage(send("hi"));
        expect(sent.payload.case, binding).toBe("task");
        const task = await client.getTask(
          create(pb.GetTaskRequestSchema, { id: sent.payload.value.id }),
        );
        expect(task.status.state, binding).toBe(pb.TaskState.COMPLETED);
        const failure = await client
          .archiveTask(create(pb.ArchiveTaskRequestSchema, { id: task.id }))
          .catch((e: unknown) => e);
        expect(failure, binding).toBeInstanceOf(errors.UnsupportedOperationError);
        expect(failure.message, binding).toBe("ArchiveTask is not implemented by this agent");
        expect([
          failure.spec.jsonRpcCode,
          failure.spec.httpStatus,
          failure.spec.grpcStatus,
        ]).toEqual([-32004, 400, "FAILED_PRECONDITION"]);
      }
      // On the wire, too.
      const rpc = await fetch(served.urls.JSONRPC, {
        method: "POST",
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "ArchiveTask",
          params: { id: "t1" },
        }),
      });
      expect(((await rpc.json()) as { error: { code: number } }).error.code).toBe(-32004);
      const rest = await fetch(`${served.urls["HTTP+JSON"]}/tasks/t1:archive`, {
        method: "POST",
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: "{}",
      });
      expect(rest.status).toBe(400);
      expect(
        ((await rest.json()) as { error: { status: string; details: { reason?: string }[] } })
          .error,
      ).toMatchObject({
        status: "FAILED_PRECONDITION",
        details: [{ reason: "UNSUPPORTED_OPERATION" }],
      });
    } finally {
      await served.close();
    }
  });

  it("with `operations.archiveTask`: its result on every binding, with the same call context; the other operations unchanged", async () => {
    const { handler, calls } = archive.implemented();
    const served = await serveModule.serve(handler);
    try {
      for (const binding of bindings) {
        const client = served.clients[binding];
        const sent = await client.sendMessage(send("hi"));
        const archived = await client.archiveTask(
          create(pb.ArchiveTaskRequestSchema, { id: sent.payload.value.id }),
        );
        expect(archived.id, binding).toBe(sent.payload.value.id);
        expect(archived.metadata, binding).toEqual({ archived: true });
        expect(archived.artifacts[0]?.parts[0]?.content.value, binding).toBe("echo hi");
        const unknown = await client
          .archiveTask(create(pb.ArchiveTaskRequestSchema, { id: "nope" }))
          .catch((e: unknown) => e);
        expect(unknown, binding).toBeInstanceOf(errors.TaskNotFoundError);
        const reply = await client.sendMessage(send("reply"));
        expect(reply.payload.case, binding).toBe("message");
      }
      expect(calls.map((c: { operation: string }) => c.operation)).toEqual(
        Array(6).fill("ArchiveTask"),
      );
    } finally {
      await served.close();
    }
  });

  it("the agent client has archiveTask, and it reaches the implementation", async () => {
    const { handler } = archive.implemented();
    const served = await serveModule.serve(handler);
    try {
      const connection = await archive.connect(served.urls.JSONRPC);
      const sent = await connection.client.sendMessage(send("hi"));
      const archived = await connection.client.archiveTask(
        create(pb.ArchiveTaskRequestSchema, { id: sent.payload.value.id }),
      );
      expect(archived.metadata).toEqual({ archived: true });
    } finally {
      await served.close();
    }
  });

  it("a name in `operations` that is not an extra RPC is refused when the handler is created", async () => {
    const { createA2AServiceTaskHandler } = await import(
      join(runs.get("added-rpc")!.dir, "src/gen/a2a_a2a_task_handler.ts")
    );
    expect(() =>
      createA2AServiceTaskHandler({
        executor: serveModule.executor,
        operations: { getTask: async () => ({}) },
      }),
    ).toThrow(
      "operations.getTask: not an RPC of this service beyond the eleven A2A operations (those are: archiveTask)",
    );
  });
});

describe("the runtime's extra operations", () => {
  it("a server-streaming extra RPC without an implementation: a stream that fails with UnsupportedOperationError before its first event", async () => {
    const pb = await import("../../../generated-example/gen/a2a_pb.js");
    const errors = await import("../../../generated-example/gen/a2a_a2a_errors.js");
    const { createTaskHandler } = await import("@protoc-gen-a2a/runtime/task");
    const make = (name: keyof typeof errors) => (message?: string, options?: object) =>
      new (errors[name] as new (m?: string, o?: object) => Error)(message, options);
    const binding = {
      schemas: {
        Task: pb.TaskSchema,
        TaskStatus: pb.TaskStatusSchema,
        Message: pb.MessageSchema,
        Artifact: pb.ArtifactSchema,
        TaskStatusUpdateEvent: pb.TaskStatusUpdateEventSchema,
        TaskArtifactUpdateEvent: pb.TaskArtifactUpdateEventSchema,
        StreamResponse: pb.StreamResponseSchema,
        SendMessageResponse: pb.SendMessageResponseSchema,
        ListTasksResponse: pb.ListTasksResponseSchema,
        TaskPushNotificationConfig: pb.TaskPushNotificationConfigSchema,
        ListTaskPushNotificationConfigsResponse: pb.ListTaskPushNotificationConfigsResponseSchema,
        AgentCard: pb.AgentCardSchema,
      },
      states: pb.TaskState,
      roles: pb.Role,
      errors: {
        TaskNotFound: make("TaskNotFoundError"),
        TaskNotCancelable: make("TaskNotCancelableError"),
        UnsupportedOperation: make("UnsupportedOperationError"),
        PushNotificationNotSupported: make("PushNotificationNotSupportedError"),
        ExtendedAgentCardNotConfigured: make("ExtendedAgentCardNotConfiguredError"),
        InvalidParams: make("InvalidParamsError"),
        Internal: make("InternalError"),
        Unauthenticated: make("UnauthenticatedError"),
      },
      extraOperations: [
        { name: "WatchThings", localName: "watchThings", kind: "server_streaming" as const },
        { name: "CountThings", localName: "countThings", kind: "unary" as const },
      ],
    };
    type Extra = {
      watchThings(request: object, context: object): AsyncIterable<unknown>;
      countThings(request: object, context: object): Promise<number>;
    };
    const handler = createTaskHandler<unknown, typeof binding.schemas, Extra>(binding, {
      executor: { execute: () => {} },
    });
    const stream = handler.watchThings({}, {})[Symbol.asyncIterator]();
    await expect(stream.next()).rejects.toThrow(errors.UnsupportedOperationError);
    await expect(handler.countThings({}, {})).rejects.toMatchObject({
      message: "CountThings is not implemented by this agent",
      metadata: { method: "CountThings" },
    });
    const implemented = createTaskHandler<unknown, typeof binding.schemas, Extra>(binding, {
      executor: { execute: () => {} },
      operations: {
        countThings: async (_request: object, _context: object, self: { getTask?: unknown }) =>
          typeof self.getTask === "function" ? 42 : 0,
      },
    });
    expect(await implemented.countThings({}, {})).toBe(42);
  });
});

describe("task operations on the v1.0.0 and added-rpc outputs, on all three bindings", () => {
  it.each(["v1.0.0", "added-rpc"])(
    "%s: SendMessage (task and message), GetTask, ListTasks, CancelTask",
    async (name) => {
      const dir = runs.get(name)!.dir;
      const serveModule = await import(join(dir, "src/serve.ts"));
      const { createA2AServiceTaskHandler } = await import(
        join(dir, "src/gen/a2a_a2a_task_handler.ts")
      );
      const pb = await import(join(dir, "src/gen/a2a_pb.ts"));
      const errors = await import(join(dir, "src/gen/a2a_a2a_errors.ts"));
      const served = await serveModule.serve(
        createA2AServiceTaskHandler({ executor: serveModule.executor }),
      );
      const send = (text: string, taskId = "") =>
        create(pb.SendMessageRequestSchema, {
          message: {
            messageId: `m-${Math.random()}`,
            role: pb.Role.USER,
            taskId,
            parts: [{ content: { case: "text", value: text } }],
          },
        });
      try {
        for (const binding of ["JSONRPC", "HTTP+JSON", "GRPC"]) {
          const client = served.clients[binding];
          const done = await client.sendMessage(send("hi"));
          expect(done.payload.value.status.state, binding).toBe(pb.TaskState.COMPLETED);
          expect((await client.sendMessage(send("reply"))).payload.case, binding).toBe("message");
          const asking = await client.sendMessage(send("ask"));
          expect(asking.payload.value.status.state, binding).toBe(pb.TaskState.INPUT_REQUIRED);
          const list = await client.listTasks(
            create(pb.ListTasksRequestSchema, { contextId: asking.payload.value.contextId }),
          );
          expect(
            list.tasks.map((t: { id: string }) => t.id),
            binding,
          ).toEqual([asking.payload.value.id]);
          const canceled = await client.cancelTask(
            create(pb.CancelTaskRequestSchema, { id: asking.payload.value.id }),
          );
          expect(canceled.status.state, binding).toBe(pb.TaskState.CANCELED);
          const again = await client
            .sendMessage(send("more", asking.payload.value.id))
            .catch((e: unknown) => e);
          expect(again, binding).toBeInstanceOf(errors.UnsupportedOperationError);
          const missing = await client
            .getTask(create(pb.GetTaskRequestSchema, { id: "nope" }))
            .catch((e: unknown) => e);
          expect(missing, binding).toBeInstanceOf(errors.TaskNotFoundError);
        }
      } finally {
        await served.close();
      }
    },
  );
});

describe.each(ACTS_PROJECTS)(
  "ACTS against the example agent built on the %s output (our client, three bindings)",
  (name) => {
    const documents = loadActsSuite(
      join(repoRoot, "test", "conformance", "acts", "suite.acts.yaml"),
    );
    const results = new Map<string, readonly TestResult[]>();
    let archiveCode: number | undefined;

    beforeAll(async () => {
      exampleAgent.current = await import(join(actsProjects.get(name)!, "agent/echo-agent.ts"));
      const { runSuite, startHarness } = await import("../../support/acts/harness.js");
      const harness = await startHarness({ longRunningMs: 5000 });
      try {
        // The harness's agent is the one built on this output: it knows ArchiveTask exactly when the proto has it.
        const probe = await fetch(harness.profiles[0]!.agent.endpoints.jsonrpc, {
          method: "POST",
          headers: { "content-type": "application/json", "a2a-version": "1.0" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "ArchiveTask",
            params: { id: "t1" },
          }),
        });
        archiveCode = ((await probe.json()) as { error: { code: number } }).error.code;
        const client = {
          name: "protoc-gen-a2a",
          factory: createGeneratedClient,
          features: generatedClientFeatures,
        };
        const runs = await Promise.all(
          BINDINGS.map((binding) => runSuite(harness, documents, client, binding)),
        );
        for (const run of runs) results.set(run.binding, run.results);
      } finally {
        await harness.close();
      }
    }, 300_000);

    it("runs on that output: ArchiveTask is UnsupportedOperationError (-32004) with added-rpc, an unknown method (-32601) with v1.0.0", () => {
      expect(archiveCode).toBe(name === "added-rpc" ? -32004 : -32601);
    });

    it.each([...BINDINGS])(
      "over %s: every test has the outcome it has on proto/a2a.proto (test/conformance/expected-outcomes.ts)",
      (binding) => {
        const tests = documents.flatMap((d) => d.suites.flatMap((suite) => suite.tests));
        const got = results.get(binding)!;
        const problems: string[] = [];
        for (const test of tests) {
          const r = got.find((x) => x.id === test.id);
          if (r === undefined) {
            problems.push(`${test.id}: no result`);
            continue;
          }
          const summary = `${r.result}${r.skip_reason ? ` (${r.skip_reason})` : ""}${r.failure ? `: ${r.failure.step_id ? `[${r.failure.step_id}] ` : ""}${r.failure.message}` : ""}`;
          const expected = (EXPECTED_OUTCOMES[test.id] ?? []).find(
            (e) =>
              (e.bindings ?? BINDINGS).includes(binding) &&
              (e.implementations ?? ["protoc-gen-a2a"]).includes("protoc-gen-a2a"),
          );
          if (expected !== undefined) {
            const text = r.result === "skip" ? (r.skip_reason ?? "") : (r.failure?.message ?? "");
            if (
              r.result !== expected.result ||
              r.failure?.step_id !== expected.step ||
              !expected.message.test(text)
            )
              problems.push(`${test.id}: expected ${expected.result}, got ${summary}`);
            continue;
          }
          const applicable =
            r.result !== "skip" || r.skip_kind === "transport" || r.skip_kind === "capability";
          if (!applicable || r.result === "fail" || r.result === "error")
            problems.push(`${test.id}: ${summary}`);
        }
        expect(problems).toEqual([]);
        expect(got.filter((r) => r.result === "pass").length).toBeGreaterThan(50);
      },
    );
  },
);

// ---------------------------------------------------------------------------------------------
// Drift made in-process on the descriptors of proto/a2a.proto (test/fixtures/a2a.binpb).

function a2aFile(files: FileDescriptorProto[]): FileDescriptorProto {
  return files.find((f) => f.name === "a2a.proto")!;
}

function messageOf(files: FileDescriptorProto[], name: string) {
  return a2aFile(files).messageType.find((m) => m.name === name)!;
}

function generationFailure(mutate: (files: FileDescriptorProto[]) => void): string {
  try {
    runPlugin("a2a", "target=ts,import_extension=js", mutate);
  } catch (e) {
    expect(e).toBeInstanceOf(GenerationError);
    return (e as Error).message;
  }
  throw new Error("generation succeeded");
}

describe("drift the task runtime cannot take fails generation with one message naming the element", () => {
  it.each([
    [
      "a removed field",
      (files: FileDescriptorProto[]) => {
        const task = messageOf(files, "Task");
        task.field = task.field.filter((f) => f.name !== "context_id");
      },
      "a2a.proto: message lf.a2a.v1.Task: the task runtime needs field string context_id = 2 (renamed or removed?)",
    ],
    [
      "a field of another type",
      (files: FileDescriptorProto[]) => {
        messageOf(files, "Task").field.find((f) => f.name === "context_id")!.type =
          FieldDescriptorProto_Type.INT64;
      },
      "a2a.proto: message lf.a2a.v1.Task: the task runtime needs field string context_id = 2, found int64 context_id = 2",
    ],
    [
      "a repeated field made singular",
      (files: FileDescriptorProto[]) => {
        messageOf(files, "Message").field.find((f) => f.name === "parts")!.label = 1;
      },
      "a2a.proto: message lf.a2a.v1.Message: the task runtime needs field repeated Part parts = 5, found Part parts = 5",
    ],
    [
      "a request field removed",
      (files: FileDescriptorProto[]) => {
        const request = messageOf(files, "ListTaskPushNotificationConfigsRequest");
        request.field = request.field.filter((f) => f.name !== "page_token");
      },
      "a2a.proto: message lf.a2a.v1.ListTaskPushNotificationConfigsRequest: the task runtime needs field string page_token = 3 (renamed or removed?)",
    ],
    [
      "a new member of a oneof the runtime switches over",
      (files: FileDescriptorProto[]) => {
        messageOf(files, "StreamResponse").field.push(
          create(FieldDescriptorProtoSchema, {
            name: "heartbeat",
            jsonName: "heartbeat",
            number: 5,
            label: 1,
            type: FieldDescriptorProto_Type.STRING,
            oneofIndex: 0,
          }),
        );
      },
      "a2a.proto: message lf.a2a.v1.StreamResponse: the task runtime needs oneof payload to have exactly the members task, message, status_update, artifact_update (it handles no other), found also string heartbeat = 5",
    ],
    [
      "an RPC returning another message",
      (files: FileDescriptorProto[]) => {
        a2aFile(files).service[0]!.method.find((m) => m.name === "GetTask")!.outputType =
          ".lf.a2a.v1.TaskStatus";
      },
      "a2a.proto: rpc lf.a2a.v1.A2AService.GetTask: the task runtime needs it to return lf.a2a.v1.Task, found lf.a2a.v1.TaskStatus",
    ],
    [
      "a streaming RPC made unary",
      (files: FileDescriptorProto[]) => {
        a2aFile(files).service[0]!.method.find(
          (m) => m.name === "SubscribeToTask",
        )!.serverStreaming = false;
      },
      "a2a.proto: rpc lf.a2a.v1.A2AService.SubscribeToTask: the task runtime implements it as a server-streaming RPC, found unary",
    ],
    [
      "a removed enum value",
      (files: FileDescriptorProto[]) => {
        const role = a2aFile(files).enumType.find((e) => e.name === "Role")!;
        role.value = role.value.filter((v) => v.name !== "ROLE_AGENT");
      },
      "a2a.proto: enum lf.a2a.v1.Role: the task runtime needs value ROLE_AGENT = 2 (renamed or removed?)",
    ],
  ])("%s", (_name, mutate, message) => {
    expect(generationFailure(mutate)).toBe(message);
  });

  it("fields the runtime does not read may go (and not a word is said)", () => {
    const lines: string[] = [];
    const previous = setNoticeSink((line) => lines.push(line));
    try {
      const run = runPlugin("a2a", "target=ts,import_extension=js", (files) => {
        const card = messageOf(files, "AgentCard");
        card.field = card.field.filter(
          (f) => f.name !== "icon_url" && f.name !== "documentation_url",
        );
        const part = messageOf(files, "Part");
        part.field = part.field.filter((f) => f.name !== "filename");
      });
      expect(fileOf(run, "a2a_a2a_task_handler.ts")).toContain(
        "export function createA2AServiceTaskHandler",
      );
      expect(lines).toEqual([]);
    } finally {
      setNoticeSink(previous);
    }
  });

  it("a service without all eleven A2A operations gets no task runtime and no error, and a notice when it has SendMessage", () => {
    const lines: string[] = [];
    const previous = setNoticeSink((line) => lines.push(line));
    try {
      const run = runPlugin("a2a", "target=ts,import_extension=js", (files) => {
        const service = a2aFile(files).service[0]!;
        service.method = service.method.filter((m) => m.name !== "ListTaskPushNotificationConfigs");
      });
      expect(
        [...run.files.keys()].filter((n) => /task_handler|agent_client|equivalence/.test(n)),
      ).toEqual([]);
      expect(lines).toEqual([
        "protoc-gen-a2a: notice: a2a.proto: service lf.a2a.v1.A2AService: not A2A-shaped (no ListTaskPushNotificationConfigs): no task handler, agent client or equivalence kit is generated for it (they need all eleven A2A operations)",
      ]);
      lines.length = 0;
      runPlugin("library");
      expect(lines).toEqual([]);
    } finally {
      setNoticeSink(previous);
    }
  });
});

describe("the contract (plugin/src/model/task-runtime-contract.ts)", () => {
  const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  /** The runtime's shapes → the contract messages they describe. */
  const shapes: Record<string, keyof typeof contractMessages> = {
    PartShape: "Part",
    MessageShape: "Message",
    TaskStatusShape: "TaskStatus",
    ArtifactShape: "Artifact",
    TaskShape: "Task",
    TaskStatusUpdateEventShape: "TaskStatusUpdateEvent",
    TaskArtifactUpdateEventShape: "TaskArtifactUpdateEvent",
    StreamResponseShape: "StreamResponse",
    SendMessageResponseShape: "SendMessageResponse",
    ListTasksResponseShape: "ListTasksResponse",
    PushConfigShape: "TaskPushNotificationConfig",
    ListPushConfigsResponseShape: "ListTaskPushNotificationConfigsResponse",
    SendMessageConfigurationShape: "SendMessageConfiguration",
    SendMessageRequestShape: "SendMessageRequest",
    GetTaskRequestShape: "GetTaskRequest",
    ListTasksRequestShape: "ListTasksRequest",
    CancelTaskRequestShape: "CancelTaskRequest",
    SubscribeToTaskRequestShape: "SubscribeToTaskRequest",
    PushConfigRefShape: "GetTaskPushNotificationConfigRequest",
    ListPushConfigsRequestShape: "ListTaskPushNotificationConfigsRequest",
  };
  const project = new Project({ skipAddingFilesFromTsConfig: true });
  const source = (path: string) => project.addSourceFileAtPath(join(repoRoot, path));

  it("lists exactly the fields of every shape the runtime reads and writes", () => {
    const file = source("runtime/src/task/shapes.ts");
    const declared = file.getInterfaces().filter((i) => i.getName().endsWith("Shape"));
    expect(declared.map((i) => i.getName()).sort()).toEqual(Object.keys(shapes).sort());
    for (const shape of declared) {
      const contract = contractMessages[shapes[shape.getName()]!];
      const listed = [
        ...contract.fields.filter((f) => f.ifPresent !== true).map((f) => camel(f.name)),
        ...(contract.oneofs ?? []).map((o) => camel(o.name)),
      ];
      expect(
        shape
          .getProperties()
          .map((p) => p.getName())
          .sort(),
        shape.getName(),
      ).toEqual(listed.sort());
    }
    // The push sender reads these when present (casts in task/push/sender.ts).
    expect(source("runtime/src/task/push/sender.ts").getFullText()).toMatch(
      /authentication\?: \{ scheme: string; credentials: string \}[\s\S]*token\?: string/,
    );
  });

  it("lists the agent client's card fields, the runtime's enum keys and the eleven operations", () => {
    const client = source("runtime/src/client/agent-client.ts");
    const props = (name: string) =>
      client
        .getInterfaceOrThrow(name)
        .getProperties()
        .map((p) => p.getName())
        .sort();
    expect(props("AgentInterfaceLike")).toEqual(
      contractMessages.AgentInterface.fields.map((f) => camel(f.name)).sort(),
    );
    expect(props("AgentCardLike")).toEqual(
      contractMessages.AgentCard.fields.map((f) => camel(f.name)).sort(),
    );
    const states = source("runtime/src/task/states.ts");
    const keys = (name: string) =>
      states
        .getInterfaceOrThrow(name)
        .getProperties()
        .map((p) => p.getName());
    expect(keys("TaskStateNumbers")).toEqual(contractEnums.TaskState.map((v) => v.key));
    expect(keys("RoleNumbers")).toEqual(contractEnums.Role.map((v) => v.key));
    const handler = source("runtime/src/task/options.ts").getInterfaceOrThrow("TaskServiceHandler");
    expect(handler.getMethods().map((m) => m.getName())).toEqual(
      Object.keys(contractRpcs).map((n) => n[0]!.toLowerCase() + n.slice(1)),
    );
  });
});
