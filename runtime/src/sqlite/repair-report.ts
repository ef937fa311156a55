// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * What the SQLite task store tells its operator about rows it repaired or cannot read
 * (`SqliteTaskStoreOptions.onRepair`): the rows by their keys, and a sentence for a log.
 */
import { CONSOLE_LOGGER, type Logger } from "../observe/logger.js";

/** A stored task or push config, by its keys. */
export interface SqliteStoredRowKey {
  /** The tenant of the row's scope. */
  readonly tenant: string;
  /** The owner key of the row's scope. */
  readonly owner: string;
  /** The task's id (for a push config, its task's). */
  readonly taskId: string;
  /** The push config's id; undefined for a task. */
  readonly configId?: string | undefined;
}

/** Rows of the database the store repaired, or found it cannot read (see `SqliteTaskStoreOptions.onRepair`). */
export interface SqliteRepairReport {
  /**
   * - `"repaired"`: while migrating a database to schema version 3 (once per file), these rows held
   *   a NaN or ±Infinity in a `google.protobuf.Value` (written by an older version; no JSON binding
   *   could answer them): each such number was replaced by the string ProtoJSON writes for a
   *   non-finite double ("NaN", "Infinity", "-Infinity") and the row saved again.
   * - `"undecodable"`: these rows' data does not decode with the store's schemas (a damaged row, or
   *   one written with other schemas): lists skip them, GetTask of one fails, `failInterruptedTasks`
   *   leaves it; it stays in the file (`deleteTask` removes a task). Reported once per row and store.
   */
  readonly kind: "repaired" | "undecodable";
  /** The tasks. */
  readonly tasks: readonly SqliteStoredRowKey[];
  /** The push configs. */
  readonly pushConfigs: readonly SqliteStoredRowKey[];
  /** What was found and done, with the first task ids, for a log. */
  readonly message: string;
}

/** Task ids named in a report's message at most. */
const NAMED = 20;

/** The report of `kind` for these rows (at least one). */
export function repairReport(
  kind: SqliteRepairReport["kind"],
  tasks: readonly SqliteStoredRowKey[],
  pushConfigs: readonly SqliteStoredRowKey[],
): SqliteRepairReport {
  const rows = `${tasks.length} stored task${tasks.length === 1 ? "" : "s"} and ${pushConfigs.length} push config${pushConfigs.length === 1 ? "" : "s"}`;
  const ids = [...new Set([...tasks, ...pushConfigs].map((r) => r.taskId))];
  const first = ids.slice(0, NAMED).map((id) => JSON.stringify(id));
  const named = `${first.join(", ")}${ids.length > NAMED ? ` and ${ids.length - NAMED} more` : ""}`;
  const message =
    kind === "repaired"
      ? `repaired ${rows} holding a NaN or ±Infinity in a google.protobuf.Value (written by an older version; no JSON binding could answer them): each such number is now the string "NaN", "Infinity" or "-Infinity", as ProtoJSON writes doubles. Task ids: ${named}`
      : `${rows} do not decode (damaged rows?): lists skip them and reading one fails; they stay in the database (deleteTask removes a task). Task ids: ${named}`;
  return { kind, tasks, pushConfigs, message };
}

/** The default `onRepair`: one warning to `logger` (default: the console). */
export function warnRepair(report: SqliteRepairReport, logger: Logger = CONSOLE_LOGGER): void {
  logger.warn?.(`SqliteTaskStore: ${report.message}`);
}

/** Hands reports to `onRepair` (what it throws is logged, never thrown), each undecodable row once. */
export class RepairReporter {
  readonly #onRepair: (report: SqliteRepairReport) => void;
  readonly #logger: Logger;
  /** Undecodable rows already reported. */
  readonly #reported = new Set<string>();

  /** Reports to `onRepair`; its failures go to `logger`. */
  constructor(onRepair: (report: SqliteRepairReport) => void, logger: Logger) {
    this.#onRepair = onRepair;
    this.#logger = logger;
  }

  /** Hands a report to `onRepair`; what that throws is logged, never thrown to the caller of the store. */
  report(report: SqliteRepairReport): void {
    try {
      this.#onRepair(report);
    } catch (e) {
      this.#logger.error("SqliteTaskStore: onRepair failed", e);
    }
  }

  /** Reports the undecodable rows not reported yet. */
  undecodable(
    tasks: readonly SqliteStoredRowKey[],
    pushConfigs: readonly SqliteStoredRowKey[] = [],
  ): void {
    const fresh = (rows: readonly SqliteStoredRowKey[]) =>
      rows.filter((row) => {
        const key = JSON.stringify([row.tenant, row.owner, row.taskId, row.configId ?? null]);
        if (this.#reported.has(key)) return false;
        this.#reported.add(key);
        return true;
      });
    const newTasks = fresh(tasks);
    const newConfigs = fresh(pushConfigs);
    if (newTasks.length + newConfigs.length > 0)
      this.report(repairReport("undecodable", newTasks, newConfigs));
  }
}
