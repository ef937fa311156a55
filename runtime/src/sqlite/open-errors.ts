// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The errors of opening a task store database, for the operator who starts the agent: each
 * names the file, says what is wrong in words, and what to do; the SQLite code and message come
 * last in parentheses (searchable), and the SQLite error is the `cause`. Errors of a running
 * store's writes are not these: the task runtime answers those as InternalError without detail.
 */
import { dirname } from "node:path";

/** What is wrong with a database file that {@link SqliteTaskStoreError} reports. */
export type SqliteTaskStoreErrorCode =
  /** Not SQLite at all (random bytes, another format), or encrypted. */
  | "not-a-database"
  /** SQLite, but damaged: truncated or with malformed pages. */
  | "corrupt"
  /** Another connection held a lock longer than the busy timeout. */
  | "locked"
  /** The file's directory does not exist. */
  | "no-directory"
  /** The file cannot be opened or created (permissions of the file or directory, a directory in its place). */
  | "cannot-open"
  /** The file, its `-wal`/`-shm` files or its directory cannot be written by this process. */
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
  constructor(message: string, options?: ErrorOptions & { readonly code?: SqliteTaskStoreErrorCode | undefined }) {
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
  const error = (kind: SqliteTaskStoreErrorCode, text: string) => new SqliteTaskStoreError(`${text} (${detail})`, { cause: e, code: kind });
  // better-sqlite3 checks the directory itself, before SQLite, and throws a TypeError.
  if (code === undefined && /directory does not exist/i.test(messageOf(e))) {
    return error("no-directory", `Cannot open the task store database ${file}: its directory ${JSON.stringify(dirname(name))} does not exist. Create it, or choose a file in an existing directory.`);
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
      `The task store database ${file} is locked by another connection (waited ${busyTimeoutMs} ms). Stop the process that holds it (another agent with an exclusive lock, a long transaction in a sqlite3 shell), or give this agent its own file.`,
    );
  }
  if (code?.startsWith("SQLITE_READONLY")) {
    return error("read-only", `The task store database ${file} is read-only for this process. The file, its -wal and -shm files and its directory must be writable by the agent's user.`);
  }
  if (code?.startsWith("SQLITE_CANTOPEN")) {
    return error(
      "cannot-open",
      `Cannot open or create the task store database ${file}. Check that the path names a file (not a directory) and that the agent's user may read and write it and its directory.`,
    );
  }
  if (code?.startsWith("SQLITE_FULL")) return error("disk-full", `The disk of the task store database ${file} is full. Free some space.`);
  if (code?.startsWith("SQLITE_IOERR"))
    return error("io-error", `Reading or writing the task store database ${file} failed (an I/O error of the operating system). Check the disk and the file system.`);
  return error("unusable", `${file} is not a usable task store database`);
}
