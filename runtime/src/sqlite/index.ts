// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * @protoc-gen-a2a/runtime/sqlite: the task runtime's SQLite store on `better-sqlite3` (an
 * optional peer dependency of this package): tasks and push configs survive a restart; the
 * saves of one event-loop turn are one transaction and no event reaches a client before its
 * commit; each owner's stored bytes are bounded (`maxBytesPerOwner`). The generated
 * `create<Service>SqliteTaskStore` is built on it.
 */
export {
  DEFAULT_SQLITE_MAX_BYTES_PER_OWNER,
  SQLITE_TASK_STORE_APPLICATION_ID,
  SQLITE_TASK_STORE_SCHEMA_VERSION,
  SqliteTaskStore,
  SqliteTaskStoreError,
  type SqliteTaskStoreErrorCode,
  type SqliteAutoPurgeOptions,
  type SqlitePurgeOptions,
  type SqliteRepairReport,
  type SqliteStoredRowKey,
  type SqliteTaskStoreOptions,
} from "./store.js";
