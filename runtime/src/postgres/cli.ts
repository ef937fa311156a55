// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * `a2a-postgres migrate <url>` applies the PostgreSQL task store's missing schema migrations (what
 * `PostgresTaskStore.open` does unless `migrate: false`); `a2a-postgres status <url>` prints the
 * database's schema version and this runtime's. Run the migration once before rolling out instances
 * that open the store with `migrate: false`.
 */
import pg from "pg";
import { migrate, POSTGRES_SCHEMA_VERSION, schemaVersion } from "./migrations.js";

const USAGE = "usage: a2a-postgres migrate|status <postgres://url> (or set DATABASE_URL)";

/** Runs the command; resolves with the process exit code. Writes to `out` and `err`. */
export async function main(
  args: readonly string[],
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
): Promise<number> {
  const [command, url = process.env["DATABASE_URL"]] = args;
  if ((command !== "migrate" && command !== "status") || url === undefined || url === "") {
    err(USAGE);
    return 2;
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("error", () => {});
  try {
    if (command === "status") {
      const version = await schemaVersion(pool);
      out(
        `schema version ${version}; this runtime uses ${POSTGRES_SCHEMA_VERSION}${version === POSTGRES_SCHEMA_VERSION ? " (current)" : version < POSTGRES_SCHEMA_VERSION ? " (run: a2a-postgres migrate)" : " (newer than this runtime)"}`,
      );
      return version === POSTGRES_SCHEMA_VERSION ? 0 : 1;
    }
    const applied = await migrate(pool);
    out(
      applied.length === 0
        ? `schema version ${POSTGRES_SCHEMA_VERSION}: nothing to do`
        : `applied migration(s) ${applied.join(", ")}: schema version ${POSTGRES_SCHEMA_VERSION}`,
    );
    return 0;
  } catch (e) {
    err(`a2a-postgres ${command}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await pool.end();
  }
}
