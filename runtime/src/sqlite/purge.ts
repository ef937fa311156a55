// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `SqliteTaskStore.purge` as one transaction: deletes terminal tasks, each with its push configs:
 * those that became terminal before an instant, then the oldest of each owner over a number of
 * bytes, then the oldest beyond a total count. Tasks that are not terminal are never deleted.
 */
import type Database from "better-sqlite3";
import { splitNanos } from "../task/stored-rows.js";
import type { PurgeRow, SqliteStatements } from "./statements.js";
import type { SqlitePurgeOptions } from "./store-options.js";

/** The purge transaction on `db` (`BEGIN IMMEDIATE`): resolves with how many tasks it deleted. Options are checked by the caller. */
export function purgeTransaction(
  db: Database.Database,
  statements: SqliteStatements,
): (options: SqlitePurgeOptions) => number {
  const remove = (rows: readonly PurgeRow[]): number => {
    for (const row of rows) {
      statements.deleteTaskConfigs.run(row.tenant, row.owner, row.id);
      statements.deleteTaskByRowid.run(row.rowid);
    }
    return rows.length;
  };
  return db.transaction((purge: SqlitePurgeOptions): number => {
    let removed = 0;
    if (purge.finishedBefore !== undefined) {
      const ms =
        purge.finishedBefore instanceof Date
          ? purge.finishedBefore.getTime()
          : purge.finishedBefore;
      const before = splitNanos(BigInt(Math.trunc(ms)) * 1_000_000n);
      removed += remove(statements.terminalBefore.all(before.seconds, before.nanos) as PurgeRow[]);
    }
    if (purge.maxBytesPerOwner !== undefined) {
      for (const over of statements.scopesOver.all(purge.maxBytesPerOwner) as {
        tenant: string;
        owner: string;
        bytes: bigint;
      }[]) {
        // Reads only as many of the owner's tasks as it deletes (lazily), then deletes them (no write while a read is open).
        let excess = Number(over.bytes) - purge.maxBytesPerOwner;
        const rows: PurgeRow[] = [];
        for (const row of statements.oldestTerminalOfOwner.iterate(
          over.tenant,
          over.owner,
        ) as IterableIterator<PurgeRow & { freed: bigint }>) {
          rows.push(row);
          excess -= Number(row.freed);
          if (excess <= 0) break;
        }
        removed += remove(rows);
      }
    }
    if (purge.maxTasks !== undefined) {
      const excess = Number(statements.countTasks.get()) - purge.maxTasks;
      if (excess > 0) removed += remove(statements.oldestTerminal.all(excess) as PurgeRow[]);
    }
    return removed;
  }).immediate as (options: SqlitePurgeOptions) => number;
}
