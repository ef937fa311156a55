// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The example agent's JSON-RPC and HTTP+JSON servers, wired in-process the way
 * generated-example/agent/echo-agent.ts wires them (its executor, bearer tokens, owners,
 * clientContextIds "known", push sender policy), for the fuzzers to call through their universal
 * handlers without sockets. What differs, on purpose: the task store counts task creations and
 * push-config writes (so a fuzzer can assert that a rejected request changed nothing), the logger
 * records what the pipeline logs (an internal error is a finding), the store keeps the ledger of
 * the still-serves oracle (which tasks were saved, which it holds: test/support/fuzz-task-ledger.ts),
 * and the push sender neither resolves host names nor delivers (stubs: no network).
 */
import { StreamResponseSchema, type AgentCard } from "../../generated-example/gen/a2a_pb.js";
import {
  PermissionDeniedError,
  UnauthenticatedError,
} from "../../generated-example/gen/a2a_a2a_errors.js";
import {
  createA2AServiceTaskHandler,
  type A2AServiceExecutor,
} from "../../generated-example/gen/a2a_a2a_task_handler.js";
import { createA2AServiceJsonRpcServer } from "../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../generated-example/gen/a2a_a2a_rest_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import {
  createExampleExecutor,
  type ExamplePrincipal,
} from "../../generated-example/agent/echo-agent.js";
import { createPushNotificationSender, InMemoryTaskStore } from "@protoc-gen-a2a/runtime/task";
import type { AuthRequest } from "@protoc-gen-a2a/runtime";
import type { UniversalHandler } from "@protoc-gen-a2a/runtime/http";
import { taskKey, type HeldTask, type TaskLedger, type TaskRef } from "./fuzz-task-ledger.js";

/** The bearer tokens the fuzzers use (the example agent is started with the same ones). */
export const FUZZ_TOKENS: Readonly<Record<string, ExamplePrincipal>> = {
  "fuzz-alice": { subject: "alice", extendedCard: true },
  "fuzz-bob": { subject: "bob", extendedCard: false },
  "fuzz-carol": { subject: "carol", extendedCard: false, tasks: false },
};

/** An in-memory store that counts what rejected requests must not do, and keeps the still-serves oracle's ledger. */
export class CountingTaskStore extends InMemoryTaskStore implements TaskLedger {
  /** Tasks created. */
  creations = 0;
  /** Push configs saved or deleted. */
  pushConfigWrites = 0;
  /** Every task saved (pruned of those the store dropped when asked), with its last save's number. */
  readonly #known = new Map<string, { ref: TaskRef; version: number }>();
  /** Tasks saved since the last {@link takeSaved}. */
  readonly #saved = new Map<string, TaskRef>();
  #saves = 0;

  override async saveTask(...args: Parameters<InMemoryTaskStore["saveTask"]>): Promise<void> {
    const [scope, task] = args;
    const id = (task as { id: string }).id;
    const existed = (await super.getTask(scope, id)) !== undefined;
    await super.saveTask(...args);
    if (!existed) this.creations++;
    const ref = { tenant: scope.tenant, owner: scope.owner, id };
    const key = taskKey(ref);
    this.#known.set(key, { ref, version: ++this.#saves });
    this.#saved.set(key, ref);
  }

  async takeSaved(): Promise<TaskRef[]> {
    const out = [...this.#saved.values()];
    this.#saved.clear();
    return out;
  }

  async held(): Promise<HeldTask[]> {
    const out: HeldTask[] = [];
    for (const { ref } of [...this.#known.values()]) {
      const version = await this.version(ref);
      if (version !== undefined) out.push({ ref, version });
    }
    return out;
  }

  async version(ref: TaskRef): Promise<number | undefined> {
    const key = taskKey(ref);
    if ((await super.getTask(ref, ref.id)) === undefined) {
      // Dropped by retention (maxTasks): no longer the oracle's concern.
      this.#known.delete(key);
      return undefined;
    }
    return this.#known.get(key)?.version;
  }

  override async savePushConfig(
    ...args: Parameters<InMemoryTaskStore["savePushConfig"]>
  ): Promise<void> {
    await super.savePushConfig(...args);
    this.pushConfigWrites++;
  }

  override async deletePushConfig(
    ...args: Parameters<InMemoryTaskStore["deletePushConfig"]>
  ): Promise<void> {
    await super.deletePushConfig(...args);
    this.pushConfigWrites++;
  }
}

/** The in-process agent. */
export interface InProcessAgent {
  readonly jsonrpc: UniversalHandler;
  /** Mounted at /a2a/rest, as in the example agent. */
  readonly rest: UniversalHandler;
  readonly store: CountingTaskStore;
  readonly handler: A2AServiceHandler<ExamplePrincipal | undefined>;
  /** The options the servers are created with (authentication, the recording logger), for more servers on the same handler. */
  readonly serverOptions: {
    readonly authenticate: typeof exampleAuthenticate;
    readonly logger: { error(message: string, e?: unknown): void };
  };
  /** What the servers logged since the last {@link takeLogs}. */
  takeLogs(): string[];
  close(): Promise<void>;
}

/** The example agent's authentication (echo-agent.ts), over {@link FUZZ_TOKENS}. */
export function exampleAuthenticate({
  serviceParameters,
  operation,
}: AuthRequest): ExamplePrincipal | undefined {
  const header = serviceParameters.get("authorization")?.trim();
  if (header === undefined || header === "") return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const principal =
    match === null
      ? undefined
      : Object.hasOwn(FUZZ_TOKENS, match[1]!)
        ? FUZZ_TOKENS[match[1]!]
        : undefined;
  if (principal === undefined) throw new UnauthenticatedError("Unknown or malformed bearer token");
  if (principal.tasks === false && operation !== undefined && operation !== "GetExtendedAgentCard")
    throw new PermissionDeniedError("This token may not use messages or tasks");
  return principal;
}

/**
 * Builds the in-process agent; `extendedCard` is what GetExtendedAgentCard answers to a principal allowed to see it;
 * `store` replaces its store (the still-serves oracle's own tests plant defects in one).
 */
export function createInProcessAgent(
  extendedCard: AgentCard,
  store: CountingTaskStore = new CountingTaskStore(),
): InProcessAgent {
  const shutdown = new AbortController();
  const logs: string[] = [];
  const push = createPushNotificationSender({
    store,
    schemas: { StreamResponse: StreamResponseSchema },
    allowPrivateNetworks: false,
    resolveHost: async () => [{ address: "93.184.215.14", family: 4 }],
    fetch: async () => new Response(null, { status: 204 }),
    timeoutMs: 1_000,
    maxRetries: 0,
    closeTimeoutMs: 1_000,
    onDeliveryError: () => {},
  });
  const executor: A2AServiceExecutor<ExamplePrincipal | undefined> = createExampleExecutor({
    longRunningMs: 200,
    shutdown: shutdown.signal,
  });
  const handler = createA2AServiceTaskHandler<ExamplePrincipal | undefined>({
    executor,
    store,
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    clientContextIds: "known",
    ownerOf: (principal) => principal?.subject ?? "",
    extendedAgentCard: ({ principal }) => {
      if (principal?.extendedCard !== true)
        throw new PermissionDeniedError("This token may not read the extended agent card");
      return extendedCard;
    },
    onTaskEvent: push.onTaskEvent,
  });
  const logger = {
    error: (m: string, e?: unknown) => {
      logs.push(
        `${m}${e instanceof Error ? `: ${e.name}: ${e.message}` : e === undefined ? "" : `: ${String(e)}`}`,
      );
    },
  };
  const serverOptions = { authenticate: exampleAuthenticate, logger };
  return {
    jsonrpc: createA2AServiceJsonRpcServer(handler, serverOptions).handler,
    rest: createA2AServiceRestServer(handler, { ...serverOptions, basePath: "/a2a/rest" }).handler,
    store,
    handler,
    serverOptions,
    takeLogs: () => logs.splice(0, logs.length),
    close: async () => {
      shutdown.abort();
      await push.close();
    },
  };
}
