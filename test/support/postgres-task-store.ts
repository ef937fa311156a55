// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * PostgreSQL task stores for tests, each one empty: a SCHEMA of its own on one database per test file
 * (made at first use on the run's PostgreSQL, ./postgres-url.ts, and dropped after the file).
 *
 * - {@link openPostgresTaskStore}: a `PostgresTaskStore`, opened (async).
 * - {@link postgresTaskStore}: a store usable at once (sync), for `createA2ATaskHandler`
 *   (./task-runtime-binding.ts): a `TaskStore` with a `cluster`, whose every call waits for the
 *   `PostgresTaskStore` it opens.
 *
 * Every store is closed when the test that made it ends (after the file when made outside a test).
 *
 * Opening must be cheap (the task suites make a store per handler, hundreds per file): a new connection
 * costs ~100 ms (SCRAM authentication, a new backend) and the store's migration ~150 ms on a 2-core
 * machine. So the stores of a file share ONE pool of connections, each store seeing it through a
 * {@link SchemaPool} (its clients `SET search_path` to the store's schema), and a schema whose store
 * closed is emptied and handed to the next store (its tables are current: the migration is a no-op).
 */
import { randomUUID } from "node:crypto";
import { PostgresTaskStore } from "@protoc-gen-a2a/runtime/postgres";
import type {
  ClusteredTaskStore,
  TaskCluster,
  TaskEventRecord,
  TurnTicket,
} from "../../runtime/src/task/cluster.js";
import type {
  PushConfigShape,
  StreamResponseShape,
  TaskShape,
} from "../../runtime/src/task/shapes.js";
import type {
  PushConfigPage,
  PushConfigQuery,
  TaskPage,
  TaskQuery,
  TaskScope,
} from "../../runtime/src/task/store.js";
import pg from "pg";
import { afterAll, onTestFinished } from "vitest";
import {
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskSchema,
} from "../../generated-example/gen/a2a_pb.js";
import { freshDatabase, type FreshDatabase } from "./postgres.js";
import { postgresUrl } from "./postgres-url.js";

/** Options of the stores made here. */
export interface TestPostgresStoreOptions {
  /** Heartbeat period (default 1000 ms, the store's default). */
  readonly heartbeatMs?: number;
  /** Lease (default 10 000 ms, the store's default). */
  readonly leaseMs?: number;
  /** Background problems of the store (default: ignored; the handler reports what reaches a call). */
  readonly onError?: (error: unknown, context: string) => void;
}

const schemas = {
  Task: TaskSchema,
  TaskPushNotificationConfig: TaskPushNotificationConfigSchema,
  StreamResponse: StreamResponseSchema,
};

/** The store's tables, emptied before a schema is reused. */
const TABLES = [
  "a2a_tasks",
  "a2a_task_events",
  "a2a_push_configs",
  "a2a_instances",
  "a2a_turns",
  "a2a_push_outbox",
];

/** Connections of the file's shared pool (each open store holds one, LISTENing; the server allows 200 for all files). */
const MAX_CONNECTIONS = 20;

/** This file's database and pool (one per test file: vitest isolates modules per file). */
let shared: Promise<{ db: FreshDatabase; pool: pg.Pool }> | undefined;
let schemaCount = 0;
/** Schemas emptied after their store closed, ready for the next one. */
const idleSchemas: string[] = [];
/** Cleanups of stores made outside a test, run after the file. */
const leftovers: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of leftovers.splice(0)) await cleanup();
  const opened = shared;
  shared = undefined;
  idleSchemas.length = 0;
  const got = await opened?.catch(() => undefined);
  if (got === undefined) return;
  await got.pool.end().catch(() => {});
  await got.db.drop();
});

function sharedPool(): Promise<{ db: FreshDatabase; pool: pg.Pool }> {
  shared ??= freshDatabase(postgresUrl(), "store").then((db) => {
    const pool = new pg.Pool({ connectionString: db.url, max: MAX_CONNECTIONS });
    pool.on("error", () => {});
    return { db, pool };
  });
  return shared;
}

/** Runs `cleanup` when the current test ends, or after the file outside a test. */
function whenDone(cleanup: () => Promise<void>): void {
  try {
    onTestFinished(cleanup);
  } catch {
    leftovers.push(cleanup);
  }
}

/** The search_path each connection of the shared pool was last set to. */
const searchPathOf = new WeakMap<pg.PoolClient, string>();

/**
 * What a store sees as its pool: the file's shared pool, with every client set to the store's schema.
 * `end()` refuses new work and waits for the clients it lent to come back (their notification and
 * error listeners removed, LISTENs undone) before the schema may be emptied for another store.
 */
class SchemaPool {
  readonly schema: string;
  readonly #base: pg.Pool;
  #ended = false;
  #lent = 0;
  #drained: (() => void) | undefined;

  constructor(base: pg.Pool, schema: string) {
    this.#base = base;
    this.schema = schema;
  }

  async connect(): Promise<pg.PoolClient> {
    if (this.#ended) throw new Error("Cannot use a pool after calling end on the pool");
    this.#lent++;
    let client: pg.PoolClient;
    try {
      client = await this.#base.connect();
    } catch (e) {
      this.#returned();
      throw e;
    }
    try {
      if (searchPathOf.get(client) !== this.schema) {
        await client.query(`SET search_path TO ${this.schema}`);
        searchPathOf.set(client, this.schema);
      }
    } catch (e) {
      client.release(e instanceof Error ? e : true);
      this.#returned();
      throw e;
    }
    return this.#lend(client);
  }

  /** `client` as the store gets it: `on` is tracked and `release` undoes what the store set up on it. */
  #lend(client: pg.PoolClient): pg.PoolClient {
    type Listener = (...args: unknown[]) => void;
    const listeners: [string, Listener][] = [];
    let released = false;
    const release = (error?: Error | boolean): void => {
      if (released) return;
      released = true;
      for (const [event, listener] of listeners) client.removeListener(event, listener);
      const listened = listeners.some(([event]) => event === "notification");
      const done = (e?: Error | boolean): void => {
        client.release(e);
        this.#returned();
      };
      if (listened && error === undefined)
        client.query("UNLISTEN *").then(
          () => done(),
          (e: Error) => done(e),
        );
      else done(error);
    };
    return new Proxy(client, {
      get(target, property, receiver) {
        if (property === "release") return release;
        if (property === "on") {
          return (event: string, listener: Listener) => {
            listeners.push([event, listener]);
            target.on(event as never, listener as never);
            return receiver;
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  #returned(): void {
    this.#lent--;
    if (this.#lent === 0) this.#drained?.();
  }

  async query(...args: unknown[]): Promise<unknown> {
    const client = await this.connect();
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      client.release();
    }
  }

  on(): this {
    return this;
  }

  /** Refuses new work; resolves true once every client lent is back, false if some are not within `timeoutMs`. */
  async end(timeoutMs = 5_000): Promise<boolean> {
    this.#ended = true;
    if (this.#lent === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      new Promise<boolean>((resolve) => {
        this.#drained = () => resolve(true);
      }),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return drained;
  }
}

/** An empty schema: an idle one (emptied) or a new one. */
async function takeSchema(base: pg.Pool): Promise<string> {
  const idle = idleSchemas.pop();
  if (idle !== undefined) return idle;
  const schema = `store_${++schemaCount}`;
  await base.query(`CREATE SCHEMA ${schema}`);
  return schema;
}

interface Opened {
  readonly store: PostgresTaskStore;
  readonly pool: SchemaPool;
}

async function open(instanceId: string, options: TestPostgresStoreOptions): Promise<Opened> {
  const { pool: base } = await sharedPool();
  const pool = new SchemaPool(base, await takeSchema(base));
  try {
    const store = await PostgresTaskStore.open({
      pool: pool as unknown as pg.Pool,
      schemas,
      instanceId,
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
      onError: options.onError ?? (() => {}),
    });
    return { store, pool };
  } catch (e) {
    await retire(base, pool);
    throw e;
  }
}

/** Closes the store; once nothing of it uses its schema any more, empties the schema for the next store. */
async function shut(opening: Promise<Opened>): Promise<void> {
  const opened = await opening.catch(() => undefined);
  if (opened === undefined) return;
  await opened.store.close().catch(() => {});
  const got = await shared?.catch(() => undefined);
  if (got !== undefined) await retire(got.pool, opened.pool);
}

async function retire(base: pg.Pool, pool: SchemaPool): Promise<void> {
  // A schema still in use (a client not returned), or whose tables are not there (a failed open), is not reused.
  if (!(await pool.end())) return;
  const emptied = await base
    .query(TABLES.map((table) => `DELETE FROM ${pool.schema}.${table}`).join("; "))
    .then(
      () => true,
      () => false,
    );
  if (emptied) idleSchemas.push(pool.schema);
}

/** An opened `PostgresTaskStore` on an empty schema of its own; closed when the test ends. */
export async function openPostgresTaskStore(
  options: TestPostgresStoreOptions = {},
): Promise<PostgresTaskStore> {
  const opening = open(randomUUID(), options);
  whenDone(() => shut(opening));
  return (await opening).store;
}

/**
 * A store usable at once: a `TaskStore` with a `cluster` (read once, synchronously, by the task engine),
 * whose every call waits for the `PostgresTaskStore` it opens on an empty schema of its own. Closed when
 * the test ends.
 */
export function postgresTaskStore(options: TestPostgresStoreOptions = {}): ClusteredTaskStore {
  const instanceId = randomUUID();
  const opening = open(instanceId, options);
  whenDone(() => shut(opening));
  return new DeferredPostgresTaskStore(
    instanceId,
    opening.then(({ store }) => store),
  );
}

/** See {@link postgresTaskStore}. */
class DeferredPostgresTaskStore implements ClusteredTaskStore {
  readonly cluster: TaskCluster;
  readonly #opening: Promise<PostgresTaskStore>;

  constructor(instanceId: string, opening: Promise<PostgresTaskStore>) {
    this.#opening = opening;
    this.#opening.catch(() => {}); // reported by the calls that wait for it
    this.cluster = new DeferredCluster(instanceId, opening);
  }

  async getTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    return (await this.#opening).getTask(scope, taskId);
  }
  async saveTask(scope: TaskScope, task: TaskShape): Promise<void> {
    return (await this.#opening).saveTask(scope, task);
  }
  async listTasks(scope: TaskScope, query: TaskQuery): Promise<TaskPage> {
    return (await this.#opening).listTasks(scope, query);
  }
  async getPushConfig(
    scope: TaskScope,
    taskId: string,
    configId: string,
  ): Promise<PushConfigShape | undefined> {
    return (await this.#opening).getPushConfig(scope, taskId, configId);
  }
  async savePushConfig(scope: TaskScope, config: PushConfigShape): Promise<void> {
    return (await this.#opening).savePushConfig(scope, config);
  }
  async listPushConfigs(
    scope: TaskScope,
    taskId: string,
    query: PushConfigQuery,
  ): Promise<PushConfigPage> {
    return (await this.#opening).listPushConfigs(scope, taskId, query);
  }
  async deletePushConfig(scope: TaskScope, taskId: string, configId: string): Promise<void> {
    return (await this.#opening).deletePushConfig(scope, taskId, configId);
  }
}

/** The cluster of a {@link DeferredPostgresTaskStore}: forwards to the opened store's. */
class DeferredCluster implements TaskCluster {
  /** The id the store is opened with. */
  readonly instanceId: string;
  readonly #opening: Promise<TaskCluster>;
  #cluster: TaskCluster | undefined;

  constructor(instanceId: string, opening: Promise<PostgresTaskStore>) {
    this.instanceId = instanceId;
    this.#opening = opening.then((store) => (this.#cluster = store.cluster));
    this.#opening.catch(() => {});
  }

  async create(
    scope: TaskScope,
    task: TaskShape,
    event: StreamResponseShape,
  ): Promise<{ readonly seq: number; readonly ticket: TurnTicket }> {
    return (await this.#opening).create(scope, task, event);
  }
  async commit(
    scope: TaskScope,
    base: TaskShape,
    next: TaskShape,
    event: StreamResponseShape | undefined,
  ): Promise<number> {
    return (await this.#opening).commit(scope, base, next, event);
  }
  seqOf(task: TaskShape): number | undefined {
    // Only asked of tasks the store returned or stored: it is open.
    return this.#cluster?.seqOf(task);
  }
  async readTask(scope: TaskScope, taskId: string): Promise<TaskShape | undefined> {
    return (await this.#opening).readTask(scope, taskId);
  }
  async readEvents(
    scope: TaskScope,
    taskId: string,
    afterSeq: number,
    limit: number,
  ): Promise<TaskEventRecord[]> {
    return (await this.#opening).readEvents(scope, taskId, afterSeq, limit);
  }
  async acquireTurn(scope: TaskScope, taskId: string, signal?: AbortSignal): Promise<TurnTicket> {
    return (await this.#opening).acquireTurn(scope, taskId, signal);
  }
  async isRunning(scope: TaskScope, taskId: string): Promise<boolean> {
    return (await this.#opening).isRunning(scope, taskId);
  }
  watch(scope: TaskScope, taskId: string, wake: (seq: number | undefined) => void): () => void {
    if (this.#cluster !== undefined) return this.#cluster.watch(scope, taskId, wake);
    // Nothing is committed through the store before it is open: watching from then on misses nothing.
    let unwatch: (() => void) | undefined;
    let stopped = false;
    this.#opening.then(
      (cluster) => {
        if (!stopped) unwatch = cluster.watch(scope, taskId, wake);
      },
      () => {},
    );
    return () => {
      stopped = true;
      unwatch?.();
    };
  }
}
