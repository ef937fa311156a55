// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One task store per SQLite database file: the claim a `SqliteTaskStore` holds on its file
 * while it is open, so that a second one (another agent process, or another store object of this
 * process) is refused at open with `SqliteTaskStoreError` code "in-use", instead of silently
 * sharing the file. Each process keeps its task runtime's state in memory (event fan-out, turn
 * queues, cancellation), and its start fails the tasks it finds in progress
 * (`failInterruptedTasks`): two processes on one file would break each other's tasks. Several
 * instances need a PostgreSQL task store.
 *
 * The claim is an operating-system lock on a lock file next to the database, `<db>-lock`, taken
 * through SQLite (Node has no file-lock API; SQLite takes POSIX advisory locks, LockFileEx on
 * Windows, and keeps the connections of one process apart itself). An OS lock is released by the
 * kernel when its process ends, however it ends: an agent killed with kill -9 leaves no stale
 * claim, the next start takes it over at once. Rejected alternatives:
 * - `PRAGMA locking_mode = EXCLUSIVE` on the database itself: it would also lock out every other
 *   connection for the agent's lifetime, the sqlite3 shell, a backup, or a monitoring tool
 *   reading the file (WAL lets them read while the agent writes), which stay welcome.
 * - A lock file created with O_EXCL holding a pid, stale when that pid is not alive: after a
 *   kill -9 the pid may be taken by another process (a restarted container often gives the agent
 *   the same small pid), and the pid of another pid namespace (another container on the same
 *   volume) looks dead, so it would both block restarts and let a second agent in.
 *
 * The lock file is a small SQLite database (rollback journal, never WAL) with one row: the pid and
 * host of the holder and a random token. Claiming: an EXCLUSIVE transaction writes the row (it
 * fails while anyone holds the file), then a read transaction, kept open until the store closes,
 * checks that the row is still this claim's. That SHARED lock keeps every later writer out (so
 * the claim), while letting a refused store read who holds the file (so the pid in its message).
 * Of claims racing, the last to write its row wins; the others read another token and give up.
 * The lock file is never deleted: deleting it while an agent runs would let a second one in.
 */
import { randomUUID } from "node:crypto";
import { realpathSync } from "node:fs";
import { hostname } from "node:os";
import Database from "better-sqlite3";
import { inUseError, lockFileError, sqliteCodeOf } from "./open-errors.js";

/** How long a claim waits for another claim's short transaction before calling the file in use, in ms. */
const CLAIM_WAIT_MS = 100;

/** How many times a claim tries to read its row back while other claims are being written. */
const HOLD_ATTEMPTS = 3;

/** Who holds a database file, as its lock file says. */
export interface SqliteFileHolder {
  /** The process id of the holder. */
  readonly pid: number;
  /** The host name of the holder's machine (or container). */
  readonly host: string;
}

/** A task store's claim on its database file; {@link SqliteFileClaim.release} ends it. */
export interface SqliteFileClaim {
  /** The lock file that holds the claim. */
  readonly lockFile: string;
  /** Ends the claim (another store may then open the file). Idempotent; never throws. */
  release(): void;
}

/** The lock file of the database file `databaseFile`. */
export function lockFileOf(databaseFile: string): string {
  return `${databaseFile}-lock`;
}

/**
 * The file of the connection's main database (symbolic links resolved, so that two paths to one
 * file share one lock file), or undefined for an in-memory or temporary database, which no other
 * connection can open.
 */
export function databaseFileOf(db: Database.Database): string | undefined {
  if (db.memory) return undefined;
  const main = (db.pragma("database_list") as { name: string; file: string }[]).find(
    (d) => d.name === "main",
  );
  if (main === undefined || main.file === "") return undefined;
  try {
    return realpathSync(main.file);
  } catch {
    return main.file;
  }
}

/**
 * Claims the database file of `db` for one task store, named `name` in errors. Returns undefined
 * for an in-memory database. Throws `SqliteTaskStoreError` "in-use" when another task store (of
 * any process) holds it, naming its pid when the lock file says it, or "read-only" /
 * "cannot-open" when the lock file cannot be created or used.
 */
export function claimDatabaseFile(
  name: string,
  db: Database.Database,
): SqliteFileClaim | undefined {
  const databaseFile = databaseFileOf(db);
  if (databaseFile === undefined) return undefined;
  const lockFile = lockFileOf(databaseFile);
  let lock: Database.Database;
  try {
    lock = new Database(lockFile, { timeout: CLAIM_WAIT_MS });
  } catch (e) {
    throw lockFileError(name, lockFile, e);
  }
  const token = randomUUID();
  try {
    writeClaim(lock, token);
    if (holdClaim(lock, token)) return claimOf(lockFile, lock);
  } catch (e) {
    if (lock.inTransaction) lock.exec("ROLLBACK");
    if (!isBusy(e)) {
      lock.close();
      throw lockFileError(name, lockFile, e);
    }
  }
  // Another claim holds the file (or won the race to it). A row still of this claim (it could not be held) names nobody.
  const holder = readHolder(lock);
  lock.close();
  throw inUseError(name, holder?.token === token ? undefined : holder);
}

/** Writes this claim's row, in an EXCLUSIVE transaction: fails with SQLITE_BUSY while another claim holds the lock file. */
function writeClaim(lock: Database.Database, token: string): void {
  lock.exec("BEGIN EXCLUSIVE");
  lock.exec(
    "CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, host TEXT NOT NULL, token TEXT NOT NULL, since TEXT NOT NULL)",
  );
  lock
    .prepare("INSERT OR REPLACE INTO holder (id, pid, host, token, since) VALUES (1, ?, ?, ?, ?)")
    .run(process.pid, hostname(), token, new Date().toISOString());
  lock.exec("COMMIT");
}

/**
 * Opens the read transaction that holds the claim (a SHARED lock, until {@link SqliteFileClaim.release})
 * and checks the row is still this claim's; false (transaction closed) when another claim wrote after it.
 */
function holdClaim(lock: Database.Database, token: string): boolean {
  for (let attempt = 1; ; attempt++) {
    lock.exec("BEGIN");
    try {
      if (lock.prepare("SELECT token FROM holder WHERE id = 1").pluck().get() === token)
        return true;
      lock.exec("ROLLBACK");
      return false;
    } catch (e) {
      if (lock.inTransaction) lock.exec("ROLLBACK");
      // Another claim is writing its row (it will be the last): reading again tells who won.
      if (!isBusy(e) || attempt === HOLD_ATTEMPTS) throw e;
    }
  }
}

/** The claim held by the open read transaction of `lock`. */
function claimOf(lockFile: string, lock: Database.Database): SqliteFileClaim {
  return {
    lockFile,
    release: () => {
      if (!lock.open) return;
      try {
        if (lock.inTransaction) lock.exec("ROLLBACK");
      } catch {
        // Closing rolls back as well.
      }
      lock.close();
    },
  };
}

/** Who holds the lock file, with its claim's token, or undefined when it cannot be read now (a claim being written). */
function readHolder(
  lock: Database.Database,
): (SqliteFileHolder & { readonly token: string }) | undefined {
  try {
    return lock.prepare("SELECT pid, host, token FROM holder WHERE id = 1").get() as
      | { pid: number; host: string; token: string }
      | undefined;
  } catch {
    return undefined;
  }
}

/** True for SQLITE_BUSY and SQLITE_LOCKED (and their extended codes): another connection holds the lock. */
function isBusy(e: unknown): boolean {
  const code = sqliteCodeOf(e);
  return code !== undefined && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}
