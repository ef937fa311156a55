// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the still-serves oracle (test/support/fuzz-serving.ts) needs to know of a task store, from
 * below the bindings: which tasks were saved since it last asked, and which tasks the store holds
 * now (its retention may drop terminal ones, which the oracle must not take for a defect). Two
 * ledgers: the in-process agent's counting memory store (test/support/fuzz-agent.ts) keeps one
 * itself; the started example agent's SQLite file is read through a second, read-only connection
 * ({@link SqliteTaskLedger}: the `seq` column is a store-wide save counter with a unique index, so
 * "saved since" is one indexed query).
 */
import Database from "better-sqlite3";

/** A task of a scope (tenant and owner key, as the task runtime stores it). */
export interface TaskRef {
  readonly tenant: string;
  readonly owner: string;
  readonly id: string;
}

/** A task held by the store, and a number that changes whenever it is saved. */
export interface HeldTask {
  readonly ref: TaskRef;
  readonly version: number;
}

/** One key per task. */
export const taskKey = (r: TaskRef): string => JSON.stringify([r.tenant, r.owner, r.id]);
/** One key per scope. */
export const scopeKey = (r: { readonly tenant: string; readonly owner: string }): string =>
  JSON.stringify([r.tenant, r.owner]);

/** The store seen from below. */
export interface TaskLedger {
  /** The tasks saved since the last call, each once. */
  takeSaved(): Promise<TaskRef[]>;
  /** Every task the store holds now. */
  held(): Promise<HeldTask[]>;
  /** The task's version (see {@link HeldTask}), undefined when the store does not hold it (any more). */
  version(ref: TaskRef): Promise<number | undefined>;
}

interface Row {
  readonly tenant: string;
  readonly owner: string;
  readonly id: string;
  readonly seq: number | bigint;
}

/** The ledger of a SQLite task store file (runtime/src/sqlite/store.ts), read through its own read-only connection. */
export class SqliteTaskLedger implements TaskLedger {
  #db: Database.Database | undefined;
  #last = 0;

  constructor(readonly file: string) {}

  #open(): Database.Database {
    this.#db ??= new Database(this.file, { readonly: true, fileMustExist: true });
    return this.#db;
  }

  async takeSaved(): Promise<TaskRef[]> {
    const rows = this.#open()
      .prepare("SELECT tenant, owner, id, seq FROM tasks WHERE seq > ? ORDER BY seq")
      .all(this.#last) as Row[];
    if (rows.length > 0) this.#last = Number(rows.at(-1)!.seq);
    return rows.map(({ tenant, owner, id }) => ({ tenant, owner, id }));
  }

  async held(): Promise<HeldTask[]> {
    const rows = this.#open().prepare("SELECT tenant, owner, id, seq FROM tasks").all() as Row[];
    return rows.map(({ tenant, owner, id, seq }) => ({
      ref: { tenant, owner, id },
      version: Number(seq),
    }));
  }

  async version(ref: TaskRef): Promise<number | undefined> {
    const row = this.#open()
      .prepare("SELECT seq FROM tasks WHERE tenant = ? AND owner = ? AND id = ?")
      .get(ref.tenant, ref.owner, ref.id) as { seq: number | bigint } | undefined;
    return row === undefined ? undefined : Number(row.seq);
  }

  /** Saves up to now are not "since the last call" (e.g. the tasks of the known-task setup). */
  async skipToNow(): Promise<void> {
    await this.takeSaved();
  }

  /** Closes the connection (before the agent closes its own, at a restart); the next call opens a new one. */
  close(): void {
    this.#db?.close();
    this.#db = undefined;
  }
}
