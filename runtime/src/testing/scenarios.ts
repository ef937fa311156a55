// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The scenarios: each runs through one binding's client against the reference agent and records
 * an outcome; the kit compares the outcomes across bindings. They cover every operation with a
 * valid request, every raisable error of the catalog (unary and streaming), streaming order and
 * termination, SubscribeToTask, tenant, version negotiation, extensions, authentication, the
 * REQUIRED fields and ranges of the REQUIRED table, and cancellation.
 */
import { toJson, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import { parseExtensions } from "../pipeline/service-parameters.js";
import {
  all,
  expectEcho,
  expectError,
  expectFact,
  expectStream,
  expectSuccess,
  type Expectation,
} from "./expectations.js";
import {
  REFERENCE_COMMANDS,
  REFERENCE_CONTEXT_TASK_ID,
  REFERENCE_ECHO_EXTENSION,
  REFERENCE_SECRET,
} from "./reference-agent.js";
import { invalidRequests, userMessage, VALID_REQUESTS } from "./requests.js";
import type { ScenarioContext } from "./scenario-context.js";
import { A2A_OPERATIONS, errorClass, type EquivalenceServiceSpec } from "./service-spec.js";

/** The groups scenarios are listed in, in report order. */
export type ScenarioGroup =
  | "operations"
  | "streaming"
  | "errors"
  | "call context"
  | "validation"
  | "cancellation";

/**
 * The server options a scenario needs: "default" (the kit's server options), or
 * "required-extension" (the same, plus one extension in `requiredExtensions`).
 */
export type ServerProfile = "default" | "required-extension";

/** One scenario. */
export interface EquivalenceScenario {
  /** Unique, shown in the report ("error mapping TaskNotFoundError"). */
  readonly name: string;
  readonly group: ScenarioGroup;
  readonly profile: ServerProfile;
  /** True when it needs `clientWith` (a tenant or version on the client): n/a on bindings without it. */
  readonly needsClientOptions: boolean;
  /** Runs the scenario on one binding, recording steps through the context. */
  readonly run: (context: ScenarioContext) => Promise<void>;
  /** What the outcome must be on every binding, references included. */
  readonly expect?: Expectation | undefined;
}

/** What the scenario list depends on besides the service. */
export interface ScenarioSettings {
  /** The extension the "required-extension" profile requires; no such scenarios without one. */
  readonly requiredExtension: string | undefined;
}

/** The tenant the tenant scenarios use. */
export const KIT_TENANT = "kit-tenant";

/** `authorization` values the kit's authenticate hook knows: a user, a user it denies; any other value is rejected. */
export const KIT_CREDENTIALS = {
  user: "Bearer kit-user",
  denied: "Bearer kit-denied",
  wrong: "Bearer kit-wrong",
} as const;

/** The principal the kit's authenticate hook returns for {@link KIT_CREDENTIALS}.user, and for calls without credentials. */
export const KIT_PRINCIPALS = { user: "kit-user", anonymous: "anonymous" } as const;

const STREAM_KINDS = [
  "task",
  "statusUpdate(WORKING)",
  "artifactUpdate",
  "artifactUpdate",
  "statusUpdate(COMPLETED)",
];
const SUBSCRIBE_KINDS = [
  "task",
  "statusUpdate(WORKING)",
  "artifactUpdate",
  "statusUpdate(COMPLETED)",
];
/** How long a cancellation scenario waits for the agent to see its signal abort. */
const AGENT_WAIT_MS = 5_000;

/** The scenarios for a service, in report order. */
export function equivalenceScenarios(
  spec: EquivalenceServiceSpec,
  settings: ScenarioSettings,
): EquivalenceScenario[] {
  const list: EquivalenceScenario[] = [];
  const add = (
    name: string,
    group: ScenarioGroup,
    run: EquivalenceScenario["run"],
    expect?: Expectation,
    more?: Partial<Pick<EquivalenceScenario, "profile" | "needsClientOptions">>,
  ) =>
    list.push({
      name,
      group,
      run,
      expect,
      profile: more?.profile ?? "default",
      needsClientOptions: more?.needsClientOptions ?? false,
    });
  const has = (name: string) => spec.errors[name] !== undefined;
  const errorSpec = (name: string) => errorClass(spec, name).spec;

  // Operations, each with a valid request.
  add(
    "SendMessage → Message",
    "operations",
    async (c) =>
      void (await c.unary("SendMessage", "SendMessage", {
        message: userMessage("hello", { contextId: contextOf(c) }),
      })),
    expectSuccess("SendMessage"),
  );
  add(
    "SendMessage → Task",
    "operations",
    async (c) =>
      void (await c.unary("SendMessage", "SendMessage", {
        message: userMessage(REFERENCE_COMMANDS.task),
      })),
    expectSuccess("SendMessage"),
  );
  add(
    "GetTask",
    "operations",
    async (c) => {
      const id = await createTask(c, REFERENCE_COMMANDS.task);
      await c.unary("GetTask", "GetTask", { id, historyLength: 1 });
    },
    expectSuccess("GetTask"),
  );
  add(
    "ListTasks",
    "operations",
    async (c) => {
      const contextId = contextOf(c);
      await createTask(c, REFERENCE_COMMANDS.task, contextId);
      await createTask(c, REFERENCE_COMMANDS.working, contextId);
      const first = await c.unary("ListTasks page 1", "ListTasks", { contextId, pageSize: 1 });
      const pageToken =
        first === undefined ? "" : String(json(c, "ListTasks", first)["nextPageToken"] ?? "");
      await c.unary("ListTasks page 2", "ListTasks", { contextId, pageSize: 1, pageToken });
      await c.unary("ListTasks by status", "ListTasks", {
        contextId,
        status: "TASK_STATE_WORKING",
        includeArtifacts: true,
        historyLength: 0,
      });
    },
    all(
      expectSuccess("ListTasks page 1"),
      expectSuccess("ListTasks page 2"),
      expectSuccess("ListTasks by status"),
    ),
  );
  add(
    "CancelTask",
    "operations",
    async (c) => {
      const id = await createTask(c, REFERENCE_COMMANDS.working);
      await c.unary("CancelTask", "CancelTask", { id });
    },
    expectSuccess("CancelTask"),
  );
  add(
    "CreateTaskPushNotificationConfig",
    "operations",
    async (c) => {
      const taskId = await createTask(c, REFERENCE_COMMANDS.working);
      await c.unary(
        "CreateTaskPushNotificationConfig",
        "CreateTaskPushNotificationConfig",
        pushConfig(taskId),
      );
    },
    expectSuccess("CreateTaskPushNotificationConfig"),
  );
  add(
    "GetTaskPushNotificationConfig",
    "operations",
    async (c) => {
      const taskId = await createTask(c, REFERENCE_COMMANDS.working);
      await c.unary("setup: CreateTaskPushNotificationConfig", "CreateTaskPushNotificationConfig", {
        ...pushConfig(taskId),
        id: "kit-config",
      });
      await c.unary("GetTaskPushNotificationConfig", "GetTaskPushNotificationConfig", {
        taskId,
        id: "kit-config",
      });
    },
    expectSuccess("GetTaskPushNotificationConfig"),
  );
  add(
    "ListTaskPushNotificationConfigs",
    "operations",
    async (c) => {
      const taskId = await createTask(c, REFERENCE_COMMANDS.working);
      await c.unary(
        "setup: CreateTaskPushNotificationConfig 1",
        "CreateTaskPushNotificationConfig",
        { ...pushConfig(taskId), id: "kit-config" },
      );
      await c.unary(
        "setup: CreateTaskPushNotificationConfig 2",
        "CreateTaskPushNotificationConfig",
        { taskId, url: "https://example.com/other-webhook" },
      );
      await c.unary("ListTaskPushNotificationConfigs", "ListTaskPushNotificationConfigs", {
        taskId,
      });
    },
    expectSuccess("ListTaskPushNotificationConfigs"),
  );
  add(
    "DeleteTaskPushNotificationConfig",
    "operations",
    async (c) => {
      const taskId = await createTask(c, REFERENCE_COMMANDS.working);
      await c.unary("setup: CreateTaskPushNotificationConfig", "CreateTaskPushNotificationConfig", {
        ...pushConfig(taskId),
        id: "kit-config",
      });
      await c.unary("DeleteTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig", {
        taskId,
        id: "kit-config",
      });
      await c.unary(
        "GetTaskPushNotificationConfig after the delete",
        "GetTaskPushNotificationConfig",
        { taskId, id: "kit-config" },
      );
    },
    all(
      expectSuccess("DeleteTaskPushNotificationConfig"),
      ...(has("TaskNotFoundError")
        ? [
            expectError(
              "GetTaskPushNotificationConfig after the delete",
              errorSpec("TaskNotFoundError"),
            ),
          ]
        : []),
    ),
  );
  add(
    "GetExtendedAgentCard",
    "operations",
    async (c) => void (await c.unary("GetExtendedAgentCard", "GetExtendedAgentCard", {})),
    expectSuccess("GetExtendedAgentCard"),
  );

  // Streaming: order and termination, a single-Message stream, SubscribeToTask (snapshot, then updates).
  add(
    "SendStreamingMessage",
    "streaming",
    async (c) =>
      void (await c.stream("SendStreamingMessage", "SendStreamingMessage", {
        message: userMessage(REFERENCE_COMMANDS.stream),
      })),
    expectStream("SendStreamingMessage", STREAM_KINDS, "end"),
  );
  add(
    "SendStreamingMessage → Message",
    "streaming",
    async (c) =>
      void (await c.stream("SendStreamingMessage", "SendStreamingMessage", {
        message: userMessage(REFERENCE_COMMANDS.streamMessage),
      })),
    expectStream("SendStreamingMessage", ["message"], "end"),
  );
  add(
    "SubscribeToTask: snapshot, then updates",
    "streaming",
    async (c) => {
      const id = await createTask(c, REFERENCE_COMMANDS.working);
      await c.stream("SubscribeToTask", "SubscribeToTask", { id });
      await c.unary("GetTask after the stream", "GetTask", { id });
    },
    all(
      expectStream("SubscribeToTask", SUBSCRIBE_KINDS, "end"),
      expectSuccess("GetTask after the stream"),
    ),
  );

  // Errors: the agent's own, every raisable error of the catalog (unary and streaming), a late stream error, a crash.
  if (has("TaskNotFoundError")) {
    add(
      "GetTask of an unknown task → TaskNotFoundError",
      "errors",
      async (c) => void (await c.unary("GetTask", "GetTask", { id: "kit-unknown-task" })),
      expectError("GetTask", errorSpec("TaskNotFoundError")),
    );
  }
  if (has("TaskNotCancelableError")) {
    add(
      "CancelTask of a completed task → TaskNotCancelableError",
      "errors",
      async (c) => {
        const id = await createTask(c, REFERENCE_COMMANDS.task);
        await c.unary("CancelTask", "CancelTask", { id });
      },
      expectError("CancelTask", errorSpec("TaskNotCancelableError")),
    );
  }
  if (has("UnsupportedOperationError")) {
    add(
      "SubscribeToTask of a completed task → UnsupportedOperationError",
      "errors",
      async (c) => {
        const id = await createTask(c, REFERENCE_COMMANDS.task);
        await c.stream("SubscribeToTask", "SubscribeToTask", { id });
      },
      expectError("SubscribeToTask", errorSpec("UnsupportedOperationError")),
    );
  }
  for (const name of spec.raisableErrors) {
    add(
      `error mapping ${name}`,
      "errors",
      async (c) =>
        void (await c.unary("SendMessage", "SendMessage", {
          message: userMessage(`${REFERENCE_COMMANDS.raise}${name}`),
        })),
      expectError("SendMessage", errorSpec(name)),
    );
  }
  for (const name of spec.raisableErrors) {
    add(
      `error mapping ${name} (stream)`,
      "errors",
      async (c) =>
        void (await c.stream("SendStreamingMessage", "SendStreamingMessage", {
          message: userMessage(`${REFERENCE_COMMANDS.raise}${name}`),
        })),
      expectError("SendStreamingMessage", errorSpec(name)),
    );
  }
  const late = spec.raisableErrors.includes("UnsupportedOperationError")
    ? "UnsupportedOperationError"
    : spec.raisableErrors[0];
  if (late !== undefined) {
    add(
      `stream error after two events (${late})`,
      "errors",
      async (c) =>
        void (await c.stream("SendStreamingMessage", "SendStreamingMessage", {
          message: userMessage(`${REFERENCE_COMMANDS.raiseLate}${late}`),
        })),
      expectStream("SendStreamingMessage", ["task", "statusUpdate(WORKING)"], late),
    );
  }
  if (has("InternalError")) {
    add(
      "unexpected throw → InternalError, no secret",
      "errors",
      async (c) => {
        await c.unary("SendMessage", "SendMessage", {
          message: userMessage(REFERENCE_COMMANDS.crash),
        });
        const last = c.lastStep();
        const message = last?.observed.kind === "error" ? last.observed.error.message : "";
        c.fact("the agent's secret reached the client", message.includes(REFERENCE_SECRET));
      },
      all(
        expectError("SendMessage", errorSpec("InternalError")),
        expectFact("the agent's secret reached the client", false),
      ),
    );
  }

  // Call context: tenant, version negotiation, extensions, authentication.
  const context = (c: ScenarioContext, label: string, client?: object, request?: JsonObject) =>
    c.unary(
      label,
      "SendMessage",
      { ...request, message: userMessage(REFERENCE_COMMANDS.context) },
      { client },
    );
  add(
    "tenant (client option)",
    "call context",
    async (c) => {
      const client = c.clientWith?.({ tenant: KIT_TENANT });
      await context(c, "SendMessage", client);
      await c.unary("GetTask", "GetTask", { id: REFERENCE_CONTEXT_TASK_ID }, { client });
    },
    all(
      expectEcho("SendMessage", { tenant: KIT_TENANT }),
      expectEcho("GetTask", { tenant: KIT_TENANT }),
    ),
    { needsClientOptions: true },
  );
  add(
    "tenant (request field)",
    "call context",
    async (c) => {
      await context(c, "SendMessage", undefined, { tenant: KIT_TENANT });
      await c.unary("GetTask", "GetTask", { tenant: KIT_TENANT, id: REFERENCE_CONTEXT_TASK_ID });
    },
    all(
      expectEcho("SendMessage", { tenant: KIT_TENANT }),
      expectEcho("GetTask", { tenant: KIT_TENANT }),
    ),
  );
  add(
    "no tenant",
    "call context",
    async (c) => void (await context(c, "SendMessage")),
    expectEcho("SendMessage", { tenant: "", version: "1.0", principal: KIT_PRINCIPALS.anonymous }),
  );
  add(
    "version 1.0.3 negotiates 1.0",
    "call context",
    async (c) => void (await context(c, "SendMessage", c.clientWith?.({ version: "1.0.3" }))),
    expectEcho("SendMessage", { version: "1.0" }),
    {
      needsClientOptions: true,
    },
  );
  if (has("VersionNotSupportedError")) {
    add(
      "unsupported version 0.3 → VersionNotSupportedError",
      "call context",
      async (c) => {
        const client = c.clientWith?.({ version: "0.3" });
        await context(c, "SendMessage", client);
        await c.stream(
          "SendStreamingMessage",
          "SendStreamingMessage",
          { message: userMessage(REFERENCE_COMMANDS.stream) },
          { client },
        );
      },
      all(
        expectError("SendMessage", errorSpec("VersionNotSupportedError")),
        expectError("SendStreamingMessage", errorSpec("VersionNotSupportedError")),
      ),
      { needsClientOptions: true },
    );
  }
  const other = "https://example.com/extensions/not-supported/v1";
  add(
    "extensions requested and activated",
    "call context",
    async (c) => {
      let unary: JsonValue = null;
      let streamed: JsonValue = null;
      const extensions = [REFERENCE_ECHO_EXTENSION, other];
      await c.unary(
        "SendMessage",
        "SendMessage",
        { message: userMessage(REFERENCE_COMMANDS.context) },
        { call: { extensions, onHeaders: (h) => (unary = headerList(h)) } },
      );
      c.fact("SendMessage response A2A-Extensions", unary);
      await c.stream(
        "SendStreamingMessage",
        "SendStreamingMessage",
        { message: userMessage(REFERENCE_COMMANDS.streamMessage) },
        { call: { extensions, onHeaders: (h) => (streamed = headerList(h)) } },
      );
      c.fact("SendStreamingMessage response A2A-Extensions", streamed);
    },
    all(
      expectEcho("SendMessage", {
        requestedExtensions: [REFERENCE_ECHO_EXTENSION, other],
        activatedExtensions: [REFERENCE_ECHO_EXTENSION],
      }),
      expectFact("SendMessage response A2A-Extensions", [REFERENCE_ECHO_EXTENSION]),
      expectFact("SendStreamingMessage response A2A-Extensions", [REFERENCE_ECHO_EXTENSION]),
    ),
  );
  const required = settings.requiredExtension;
  if (required !== undefined && has("ExtensionSupportRequiredError")) {
    add(
      "required extension missing → ExtensionSupportRequiredError",
      "call context",
      async (c) => {
        await context(c, "SendMessage");
        await c.stream("SendStreamingMessage", "SendStreamingMessage", {
          message: userMessage(REFERENCE_COMMANDS.stream),
        });
      },
      all(
        expectError("SendMessage", errorSpec("ExtensionSupportRequiredError")),
        expectError("SendStreamingMessage", errorSpec("ExtensionSupportRequiredError")),
      ),
      { profile: "required-extension" },
    );
    add(
      "required extension declared",
      "call context",
      async (c) =>
        void (await c.unary(
          "SendMessage",
          "SendMessage",
          { message: userMessage(REFERENCE_COMMANDS.context) },
          { call: { extensions: [required] } },
        )),
      expectEcho("SendMessage", { requestedExtensions: [required] }),
      { profile: "required-extension" },
    );
  }
  add(
    "authentication: the principal reaches the agent",
    "call context",
    async (c) =>
      void (await c.unary(
        "SendMessage",
        "SendMessage",
        { message: userMessage(REFERENCE_COMMANDS.context) },
        { call: { headers: { authorization: KIT_CREDENTIALS.user } } },
      )),
    expectEcho("SendMessage", { principal: KIT_PRINCIPALS.user }),
  );
  for (const [credentials, name] of [
    [KIT_CREDENTIALS.wrong, "UnauthenticatedError"],
    [KIT_CREDENTIALS.denied, "PermissionDeniedError"],
  ] as const) {
    if (!has(name)) continue;
    add(
      `authentication: ${credentials === KIT_CREDENTIALS.wrong ? "bad credentials" : "denied"} → ${name}`,
      "call context",
      async (c) => {
        const call = { headers: { authorization: credentials } };
        await c.unary("GetTask", "GetTask", { id: REFERENCE_CONTEXT_TASK_ID }, { call });
        await c.stream(
          "SendStreamingMessage",
          "SendStreamingMessage",
          { message: userMessage(REFERENCE_COMMANDS.stream) },
          { call },
        );
      },
      all(
        expectError("GetTask", errorSpec(name)),
        expectError("SendStreamingMessage", errorSpec(name)),
      ),
    );
  }

  // Validation: every REQUIRED field and range of the REQUIRED table, on every operation.
  if (has("InvalidParamsError")) {
    const invalidParams = errorSpec("InvalidParamsError");
    for (const rpc of A2A_OPERATIONS) {
      const op = Object.values(spec.operations).find((o) => o.name === rpc);
      if (op === undefined) continue;
      for (const variant of invalidRequests(
        spec.requiredFields,
        op.input.typeName,
        VALID_REQUESTS[rpc],
      )) {
        const name =
          variant.kind === "missing"
            ? `missing ${rpc}.${variant.field}`
            : `out of range ${rpc}.${variant.field} = ${variant.value}`;
        const run =
          op.kind === "server_streaming"
            ? async (c: ScenarioContext) => void (await c.stream(rpc, rpc, variant.request))
            : async (c: ScenarioContext) => void (await c.unary(rpc, rpc, variant.request));
        add(
          `${name} → InvalidParamsError`,
          "validation",
          run,
          expectError(rpc, invalidParams, variant.field),
        );
      }
    }
  }

  // Cancellation: the caller aborts a stream, or stops reading it; the agent's signal must fire.
  const cancellation = (end: "abort" | "closed") => async (c: ScenarioContext) => {
    const key = c.key;
    await c.stream(
      "SendStreamingMessage",
      "SendStreamingMessage",
      { message: userMessage(`${REFERENCE_COMMANDS.slow}${key}`) },
      end === "abort" ? { abortAfter: 1 } : { closeAfter: 1 },
    );
    c.fact("the agent's signal aborted", await c.agent.whenAborted(key, AGENT_WAIT_MS));
    c.fact("the agent's handler finished", await c.agent.whenFinished(key, AGENT_WAIT_MS));
  };
  const agentSawIt = [
    expectFact("the agent's signal aborted", true),
    expectFact("the agent's handler finished", true),
  ];
  add(
    "stream cancelled by the caller's abort",
    "cancellation",
    cancellation("abort"),
    all(expectStream("SendStreamingMessage", ["task"], "abort"), ...agentSawIt),
  );
  add(
    "stream closed by the caller (break)",
    "cancellation",
    cancellation("closed"),
    all(expectStream("SendStreamingMessage", ["task"], "closed"), ...agentSawIt),
  );

  const order: readonly ScenarioGroup[] = [
    "operations",
    "streaming",
    "errors",
    "call context",
    "validation",
    "cancellation",
  ];
  const sorted = list
    .map((s, i) => ({ s, i }))
    .sort((a, b) => order.indexOf(a.s.group) - order.indexOf(b.s.group) || a.i - b.i);
  const names = new Set<string>();
  for (const { s } of sorted) {
    if (names.has(s.name)) throw new Error(`duplicate equivalence scenario name ${s.name}`);
    names.add(s.name);
  }
  return sorted.map(({ s }) => s);
}

/** A context id of the scenario's own, the same on every binding. */
function contextOf(c: ScenarioContext): string {
  return `kit-context-${c.key}`;
}

/** Creates a task with SendMessage (`task` or `working`), recorded as a setup step; its id ("" when that failed). */
async function createTask(
  c: ScenarioContext,
  command: string,
  contextId?: string,
): Promise<string> {
  const response = await c.unary(`setup: SendMessage ${command}`, "SendMessage", {
    message: userMessage(command, contextId === undefined ? undefined : { contextId }),
  });
  if (response === undefined) return "";
  const task = json(c, "SendMessage", response)["task"];
  return typeof task === "object" &&
    task !== null &&
    !Array.isArray(task) &&
    typeof task["id"] === "string"
    ? task["id"]
    : "";
}

function pushConfig(taskId: string): JsonObject {
  return {
    taskId,
    url: "https://example.com/webhook",
    token: "kit-token",
    authentication: { scheme: "Bearer", credentials: "kit-secret" },
  };
}

function json(c: ScenarioContext, op: keyof ScenarioContext["ops"], message: Message): JsonObject {
  return toJson(c.ops[op].output, message) as JsonObject;
}

/** The `A2A-Extensions` of a response, as a sorted list (null when absent). */
function headerList(headers: Headers): JsonValue {
  const value = headers.get("a2a-extensions");
  return value === null ? null : parseExtensions(value).sort();
}
