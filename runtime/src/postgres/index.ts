// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `@protoc-gen-a2a/runtime/postgres`: a task store on PostgreSQL that several agent instances
 * share (needs the `pg` package).
 */
export { PostgresTaskStore, type PostgresTaskStoreOptions } from "./open-store.js";
export {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_LEASE_MS,
  PostgresTaskCluster,
  type PostgresClusterOptions,
} from "./cluster.js";
export {
  MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
  checkSchema,
  migrate,
  schemaVersion,
} from "./migrations.js";
export type { PostgresStoreSchemas } from "./rows.js";
export { PushOutbox, type PushOutboxOptions } from "./push-outbox.js";
