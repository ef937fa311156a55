// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// In a test: the URL of the test run's PostgreSQL (started by ./postgres-global-setup.ts, which also declares the
// ProvidedContext keys read here).
import { inject } from "vitest";

/**
 * The URL of the PostgreSQL that the global setup started for this `vitest run` (postgres://postgres:postgres@127.0.0.1:PORT/postgres).
 * Throws, with the reason, when it could not be started: a test that needs PostgreSQL fails, it is never skipped.
 */
export function postgresUrl(): string {
  const url = inject("postgresUrl");
  if (url) return url;
  const reason = inject("postgresError");
  throw new Error(
    reason
      ? `the test PostgreSQL could not be started: ${reason}`
      : "no test PostgreSQL: does this test's vitest project list test/support/postgres-global-setup.ts in its globalSetup (vitest.config.ts)?",
  );
}
