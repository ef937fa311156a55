// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The prepared statements of the SQLite task store, built once per connection (integers read as
 * BigInt: `safeIntegers`), and the ListTasks statements, one pair per filter combination, prepared
 * on first use and kept.
 */
import type Database from "better-sqlite3";
import type { TaskStateNumbers } from "../task/states.js";

/** A prepared statement. */
export type Stmt = Database.Statement<unknown[], unknown>;

/** A row of a ListTasks page. */
export interface TaskRow {
  readonly id: string;
  readonly data: Uint8Array;
  readonly status_seconds: bigint;
  readonly status_nanos: bigint;
  readonly seq: bigint;
}

/** A row of a ListTaskPushNotificationConfigs page. */
export interface ConfigRow {
  readonly id: string;
  readonly data: Uint8Array;
  readonly seq: bigint;
}

/** A task a purge deletes. */
export interface PurgeRow {
  readonly rowid: bigint;
  readonly tenant: string;
  readonly owner: string;
  readonly id: string;
}

/** The terminal state numbers as an SQL list (integers checked: they are inlined in the statements); RangeError otherwise. */
export function terminalStatesOf(states: TaskStateNumbers): string {
  const terminal = [states.COMPLETED, states.FAILED, states.CANCELED, states.REJECTED];
  for (const n of terminal)
    if (!Number.isSafeInteger(n))
      throw new RangeError(`states: terminal state numbers must be integers, got ${n}`);
  return terminal.join(", ");
}

/** Every statement of the store on one connection. */
export class SqliteStatements {
  /** (tenant, owner, id) → data. */
  readonly getTask: Stmt;
  /** Upserts a task: (tenant, owner, id, context_id, state, status_seconds, status_nanos, data, bytes); draws its save counter. */
  readonly saveTask: Stmt;
  /** (tenant, owner, tenant, owner, id) → [usage of the scope, bytes of the task] (a task save's quota check). */
  readonly taskUsage: Stmt;
  /** (tenant, owner, tenant, owner, task_id, id) → [usage of the scope, bytes of the config]. */
  readonly configUsage: Stmt;
  /** (tenant, owner, task_id, id) → data. */
  readonly getConfig: Stmt;
  /** Upserts a push config: (tenant, owner, task_id, id, data, bytes). */
  readonly saveConfig: Stmt;
  /** (tenant, owner, task_id, id). */
  readonly deleteConfig: Stmt;
  /** (tenant, owner, id). */
  readonly deleteTask: Stmt;
  /** (tenant, owner, task_id): every push config of a task. */
  readonly deleteTaskConfigs: Stmt;
  /** (tenant, owner, task_id, after seq, limit) → config rows. */
  readonly listConfigs: Stmt;
  /** (tenant, owner, task_id, after seq) → config rows. */
  readonly listAllConfigs: Stmt;
  /** (seconds, nanos) → the terminal tasks whose status time is before it. */
  readonly terminalBefore: Stmt;
  /** → the number of tasks. */
  readonly countTasks: Stmt;
  /** (limit) → the oldest terminal tasks. */
  readonly oldestTerminal: Stmt;
  /** (rowid). */
  readonly deleteTaskByRowid: Stmt;
  /** (bytes) → the scopes storing more. */
  readonly scopesOver: Stmt;
  /** (tenant, owner) → an owner's terminal tasks, oldest first, with what deleting each frees (its push configs too). */
  readonly oldestTerminalOfOwner: Stmt;
  /** → the tasks SUBMITTED or WORKING, in save order. */
  readonly interrupted: Stmt;
  readonly #db: Database.Database;
  /** ListTasks statements per filter combination. */
  readonly #lists = new Map<string, { readonly page: Stmt; readonly count: Stmt }>();

  /** Prepares the statements on `db`; `states` (state numbers checked: RangeError) name the terminal and interrupted tasks. */
  constructor(db: Database.Database, states: TaskStateNumbers) {
    this.#db = db;
    const prepare = (sql: string): Stmt => db.prepare(sql).safeIntegers(true);
    const terminal = terminalStatesOf(states);
    this.getTask = prepare("SELECT data FROM tasks WHERE tenant = ? AND owner = ? AND id = ?");
    this.saveTask = prepare(
      `INSERT INTO tasks (tenant, owner, id, context_id, state, status_seconds, status_nanos, seq, data, bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM tasks), ?, ?)
       ON CONFLICT (tenant, owner, id) DO UPDATE SET
         context_id = excluded.context_id, state = excluded.state, status_seconds = excluded.status_seconds,
         status_nanos = excluded.status_nanos, seq = excluded.seq, data = excluded.data, bytes = excluded.bytes`,
    );
    const usage = "COALESCE((SELECT bytes FROM scope_usage WHERE tenant = ? AND owner = ?), 0)";
    this.taskUsage = prepare(
      `SELECT ${usage}, COALESCE((SELECT bytes FROM tasks WHERE tenant = ? AND owner = ? AND id = ?), 0)`,
    ).raw(true);
    this.configUsage = prepare(
      `SELECT ${usage}, COALESCE((SELECT bytes FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND id = ?), 0)`,
    ).raw(true);
    this.getConfig = prepare(
      "SELECT data FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND id = ?",
    );
    this.saveConfig = prepare(
      `INSERT INTO push_configs (tenant, owner, task_id, id, data, bytes) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant, owner, task_id, id) DO UPDATE SET data = excluded.data, bytes = excluded.bytes`,
    );
    this.deleteConfig = prepare(
      "DELETE FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND id = ?",
    );
    this.deleteTask = prepare("DELETE FROM tasks WHERE tenant = ? AND owner = ? AND id = ?");
    this.deleteTaskConfigs = prepare(
      "DELETE FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ?",
    );
    this.listConfigs = prepare(
      "SELECT id, data, seq FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    );
    this.listAllConfigs = prepare(
      "SELECT id, data, seq FROM push_configs WHERE tenant = ? AND owner = ? AND task_id = ? AND seq > ? ORDER BY seq",
    );
    this.terminalBefore = prepare(
      `SELECT rowid, tenant, owner, id FROM tasks WHERE state IN (${terminal}) AND (status_seconds, status_nanos) < (?, ?)`,
    );
    this.countTasks = prepare("SELECT COUNT(*) FROM tasks").pluck();
    this.oldestTerminal = prepare(
      `SELECT rowid, tenant, owner, id FROM tasks WHERE state IN (${terminal}) ORDER BY status_seconds, status_nanos, seq LIMIT ?`,
    );
    this.deleteTaskByRowid = prepare("DELETE FROM tasks WHERE rowid = ?");
    this.scopesOver = prepare("SELECT tenant, owner, bytes FROM scope_usage WHERE bytes > ?");
    this.oldestTerminalOfOwner = prepare(
      `SELECT rowid, tenant, owner, id, bytes + (SELECT COALESCE(SUM(p.bytes), 0) FROM push_configs p WHERE p.tenant = t.tenant AND p.owner = t.owner AND p.task_id = t.id) AS freed
       FROM tasks t WHERE tenant = ? AND owner = ? AND state IN (${terminal}) ORDER BY status_seconds, status_nanos, seq`,
    );
    for (const n of [states.SUBMITTED, states.WORKING, states.FAILED])
      if (!Number.isSafeInteger(n))
        throw new RangeError(`states: state numbers must be integers, got ${n}`);
    this.interrupted = prepare(
      `SELECT tenant, owner, id, data FROM tasks WHERE state IN (${states.SUBMITTED}, ${states.WORKING}) ORDER BY seq`,
    );
  }

  /** The page and count statements of a ListTasks with these filters (and a cursor or not). */
  listTasks(
    byContext: boolean,
    byState: boolean,
    bySince: boolean,
    withCursor: boolean,
  ): { readonly page: Stmt; readonly count: Stmt } {
    const key = `${+byContext}${+byState}${+bySince}${+withCursor}`;
    let statements = this.#lists.get(key);
    if (statements === undefined) {
      const where = ["tenant = ?", "owner = ?"];
      if (byContext) where.push("context_id = ?");
      if (byState) where.push("state = ?");
      if (bySince) where.push("(status_seconds, status_nanos) >= (?, ?)");
      const filter = where.join(" AND ");
      const keyset = withCursor ? " AND (status_seconds, status_nanos, seq) < (?, ?, ?)" : "";
      statements = {
        page: this.#db
          .prepare(
            `SELECT id, data, status_seconds, status_nanos, seq FROM tasks WHERE ${filter}${keyset}
             ORDER BY status_seconds DESC, status_nanos DESC, seq DESC LIMIT ?`,
          )
          .safeIntegers(true),
        count: this.#db
          .prepare(`SELECT COUNT(*) FROM tasks WHERE ${filter}`)
          .pluck()
          .safeIntegers(true),
      };
      this.#lists.set(key, statements);
    }
    return statements;
  }
}
