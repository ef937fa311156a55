// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The errors of opening a task store database, for the operator who starts the agent: each
 * names the file, says what is wrong in words, and what to do; the SQLite code and message come
 * last in parentheses (searchable), and the SQLite error is the `cause`. Errors of a running
 * store's writes are not these: the task runtime answers those as InternalError without detail.
 */
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import type { SqliteFileHolder } from "./owner-lock.js";

/** What is wrong with a database file that {@link SqliteTaskStoreError} reports. */
export type SqliteTaskStoreErrorCode =
  /** Not SQLite at all (random bytes, another format), or encrypted. */
  | "not-a-database"
  /** SQLite, but damaged: truncated or with malformed pages. */
  | "corrupt"
  /**
   * Another task store has the file open: another agent process (or another `SqliteTaskStore` of
   * this process). One process per SQLite file (the task runtime keeps the event fan-out, turn
   * queues and cancellation of its tasks in its process, and an agent fails at start the tasks it
   * finds in progress); to run several instances, use a PostgreSQL task store. Decided at once (a lock the holder keeps on
   * the `<db>-lock` file, released by the operating system when that process ends, even by kill -9),
   * without waiting for the busy timeout.
   */
  | "in-use"
  /** Another connection that is not a task store (a sqlite3 shell, a backup) held a lock longer than the busy timeout. */
  | "locked"
  /** The file's directory does not exist. */
  | "no-directory"
  /** The file (or its `-lock` file) cannot be opened or created (permissions of the file or directory, a directory in its place). */
  | "cannot-open"
  /** The file, its `-wal`/`-shm`/`-lock` files or its directory cannot be written by this process. */
  | "read-only"
  /** The disk (or the database's page limit) is full. */
  | "disk-full"
  /** The operating system failed a read or write. */
  | "io-error"
  /** A SQLite database of another application. */
  | "other-application"
  /** A task store of a newer schema than this code. */
  | "newer-schema"
  /** Anything else. */
  | "unusable";

/** A database that cannot be used as a task store; `code` says why (see {@link SqliteTaskStoreErrorCode}). */
export class SqliteTaskStoreError extends Error {
  override name = "SqliteTaskStoreError";
  /** Why the database cannot be used. */
  readonly code: SqliteTaskStoreErrorCode;
  constructor(
    message: string,
    options?: ErrorOptions & { readonly code?: SqliteTaskStoreErrorCode | undefined },
  ) {
    super(message, options);
    this.code = options?.code ?? "unusable";
  }
}

/** The SQLite result code of a better-sqlite3 error (`SQLITE_…`), if it is one. */
export function sqliteCodeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The {@link SqliteTaskStoreError} for an error thrown while opening, checking, migrating or
 * configuring the task store database `name` (a path, or a connection's name).
 */
export function openErrorOf(name: string, e: unknown, busyTimeoutMs: number): SqliteTaskStoreError {
  if (e instanceof SqliteTaskStoreError) return e;
  const file = JSON.stringify(name);
  const code = sqliteCodeOf(e);
  const detail = code === undefined ? messageOf(e) : `${code}: ${messageOf(e)}`;
  const error = (kind: SqliteTaskStoreErrorCode, text: string) =>
    new SqliteTaskStoreError(`${text} (${detail})`, { cause: e, code: kind });
  // better-sqlite3 checks the directory itself, before SQLite, and throws a TypeError.
  if (code === undefined && /directory does not exist/i.test(messageOf(e))) {
    return error(
      "no-directory",
      `Cannot open the task store database ${file}: its directory ${JSON.stringify(dirname(name))} does not exist. Create it, or choose a file in an existing directory.`,
    );
  }
  if (code === "SQLITE_NOTADB") {
    return error(
      "not-a-database",
      `Cannot use ${file} as a task store: it is not a SQLite database (another kind of file, encrypted, or its header is damaged). Move it away or choose another file; a file that does not exist yet is created as a new task store.`,
    );
  }
  if (code?.startsWith("SQLITE_CORRUPT")) {
    return error(
      "corrupt",
      `The task store database ${file} is damaged (truncated or corrupt). Restore it from a backup, or salvage it with the sqlite3 shell's ".recover" command, or move it away to start with an empty task store.`,
    );
  }
  if (code?.startsWith("SQLITE_BUSY") || code?.startsWith("SQLITE_LOCKED")) {
    return error(
      "locked",
      `The task store database ${file} is locked by another connection (waited ${busyTimeoutMs} ms). Stop the process that holds it (a long transaction in a sqlite3 shell, a program with an exclusive lock), or give this agent its own file.`,
    );
  }
  if (code?.startsWith("SQLITE_READONLY")) {
    return error(
      "read-only",
      `The task store database ${file} is read-only for this process. The file, its -wal and -shm files and its directory must be writable by the agent's user.`,
    );
  }
  if (code?.startsWith("SQLITE_CANTOPEN")) {
    return error(
      "cannot-open",
      `Cannot open or create the task store database ${file}. Check that the path names a file (not a directory) and that the agent's user may read and write it and its directory.`,
    );
  }
  if (code?.startsWith("SQLITE_FULL"))
    return error(
      "disk-full",
      `The disk of the task store database ${file} is full. Free some space.`,
    );
  if (code?.startsWith("SQLITE_IOERR"))
    return error(
      "io-error",
      `Reading or writing the task store database ${file} failed (an I/O error of the operating system). Check the disk and the file system.`,
    );
  return error("unusable", `${file} is not a usable task store database`);
}

/** What to do when a task store is refused for "in-use". */
const ONE_PROCESS_PER_FILE =
  "One process per SQLite file; to run several instances, use a PostgreSQL task store (A2A_TASK_DB=postgres://…).";

/** Another process holding a database file, in words: with its pid (and its host when not this one), when known. */
function otherProcessInWords(holder: SqliteFileHolder | undefined): string {
  if (holder === undefined) return "another agent process";
  return holder.host === hostname()
    ? `another agent process (pid ${holder.pid})`
    : `another agent process (pid ${holder.pid} on host ${JSON.stringify(holder.host)})`;
}

/**
 * The "in-use" {@link SqliteTaskStoreError} of opening the database `name` while another task store
 * (`holder`, when its lock file says who) has it open.
 */
export function inUseError(
  name: string,
  holder: SqliteFileHolder | undefined,
): SqliteTaskStoreError {
  const thisProcess =
    holder !== undefined && holder.pid === process.pid && holder.host === hostname();
  const where = thisProcess
    ? `another SqliteTaskStore of this process (pid ${process.pid}): close that store first, or share it`
    : `${otherProcessInWords(holder)}: stop that process first`;
  return new SqliteTaskStoreError(
    `The task store database ${JSON.stringify(name)} is already open in ${where}. ${ONE_PROCESS_PER_FILE}`,
    { code: "in-use" },
  );
}

/**
 * The {@link SqliteTaskStoreError} of a lock file (`lockFile`, next to the database `name`) that
 * cannot be created, written or read: "read-only" when this process may not write it or create it
 * in the directory, else "cannot-open" (something in its place that is not a usable lock file).
 */
export function lockFileError(name: string, lockFile: string, e: unknown): SqliteTaskStoreError {
  const code = sqliteCodeOf(e);
  const detail = code === undefined ? messageOf(e) : `${code}: ${messageOf(e)}`;
  const file = JSON.stringify(name);
  const lock = JSON.stringify(lockFile);
  const cannotCreate = code?.startsWith("SQLITE_CANTOPEN") && !existsSync(lockFile);
  if (cannotCreate || code?.startsWith("SQLITE_READONLY") || code?.startsWith("SQLITE_PERM")) {
    return new SqliteTaskStoreError(
      `The task store database ${file} is read-only for this process: its lock file ${lock} (which keeps a second agent process off the database) cannot be created or written. The file, its -wal, -shm and -lock files and its directory must be writable by the agent's user. (${detail})`,
      { cause: e, code: "read-only" },
    );
  }
  return new SqliteTaskStoreError(
    `Cannot use the lock file ${lock} of the task store database ${file} (it keeps a second agent process off the database): it is not a file this process can open as one. Remove it while no agent runs on the database; it is created again. (${detail})`,
    { cause: e, code: "cannot-open" },
  );
}
