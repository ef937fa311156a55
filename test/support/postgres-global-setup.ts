// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Vitest global setup: ONE PostgreSQL for the whole `vitest run` (every project that lists this setup in vitest.config.ts), started before the tests and stopped
// after them. Tests get its URL with postgresUrl() from ./postgres-url.js (inject("postgresUrl")); processes that tests
// spawn get it as A2A_TEST_POSTGRES_URL. Set A2A_TEST_POSTGRES_URL beforehand to use a server of your own instead.
import type { TestProject } from "vitest/node";
import { POSTGRES_URL_ENV, type PostgresServer, startPostgres } from "./postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The URL of the test run's PostgreSQL (database `postgres`), or "" when it could not be started. */
    postgresUrl: string;
    /** Why the test run's PostgreSQL could not be started ("" when it runs). */
    postgresError: string;
  }
}

/** Shared by the setups of all projects: vitest runs this file once per project that lists it (vitest.config.ts's `postgres`). */
interface Shared {
  readonly started: Promise<PostgresServer | Error>;
  users: number;
  readonly envWasSet: boolean;
}

const KEY = Symbol.for("protoc-gen-a2a.test.postgres");

/** Starts (or joins) the run's PostgreSQL and provides its URL; the returned teardown stops it after the last project. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const global = globalThis as { [KEY]?: Shared };
  const shared = (global[KEY] ??= {
    started: start(),
    users: 0,
    envWasSet: process.env[POSTGRES_URL_ENV] !== undefined,
  });
  shared.users++;
  const server = await shared.started;
  if (server instanceof Error) {
    project.provide("postgresUrl", "");
    project.provide("postgresError", server.message);
  } else {
    project.provide("postgresUrl", server.url);
    project.provide("postgresError", "");
    process.env[POSTGRES_URL_ENV] = server.url;
  }
  return async () => {
    if (--shared.users > 0) return;
    delete global[KEY];
    if (!shared.envWasSet) delete process.env[POSTGRES_URL_ENV];
    if (!(server instanceof Error)) await server.stop();
  };
}

async function start(): Promise<PostgresServer | Error> {
  const began = Date.now();
  try {
    const server = await startPostgres();
    if (process.env["A2A_TEST_POSTGRES_VERBOSE"])
      console.log(
        `[postgres] ${server.external ? "using" : "started"} ${server.url} in ${Date.now() - began} ms`,
      );
    return server;
  } catch (err) {
    // Not thrown: tests that do not need PostgreSQL still run; those that do fail with this message (postgresUrl()).
    const error = err instanceof Error ? err : new Error(String(err));
    console.error(
      `[postgres] the test PostgreSQL could not be started; tests that need it will fail:\n${error.message}`,
    );
    return error;
  }
}
