import { defaultServerConditions } from "vite";
import { configDefaults, defineConfig } from "vitest/config";

/** The runtime is tested from its sources: the workspace package resolves to runtime/src through this export condition. */
const conditions = ["@protoc-gen-a2a/source", ...defaultServerConditions];

/**
 * The OpenTelemetry tests run without the "module" condition (which vitest also passes to Node): @opentelemetry/api
 * exports its ESM build under it, whose imports have no file extensions, which Node cannot load.
 */
const otelConditions = conditions.filter((c) => c !== "module");

/**
 * One PostgreSQL for the whole run, shared by the projects that list this setup (test/support/postgres-global-setup.ts;
 * tests get its URL with postgresUrl()). It is not in the root config: vitest runs the root's global setup on every
 * run, whatever --project selects, so `vitest run --project plugin` would start PostgreSQL too.
 */
const postgres = ["test/support/postgres-global-setup.ts"];

/** The task runtime's behaviour suites and ACTS, run again on the SQLite and PostgreSQL stores (test/support/task-runtime-binding.ts). */
const storeSuites = [
  "test/runtime/task/runtime.test.ts",
  "test/runtime/task/concurrency.test.ts",
  "test/runtime/task/executor.test.ts",
  "test/conformance/acts.test.ts",
];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 60_000,
    projects: [
      {
        // The generator (plugin/src) and what it writes. Some files run buf and the bundled plugin (plugin/dist): `npm run build` first.
        extends: true,
        test: {
          name: "plugin",
          include: ["test/plugin/**/*.test.ts", "plugin/src/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        // In-process unit tests of one runtime area each (no sockets, no child processes), and the tests next to the runtime's sources.
        // PostgreSQL: test/runtime/task/store.test.ts runs the TaskStore contract on PostgresTaskStore too.
        extends: true,
        test: {
          name: "runtime",
          include: ["test/runtime/**/*.test.ts", "runtime/**/*.test.ts"],
          globalSetup: postgres,
          testTimeout: 60_000,
        },
      },
      {
        // Real servers and clients on 127.0.0.1, child processes, Chromium, Bun/Deno/workerd, PostgreSQL, @a2a-js/sdk, the example agent.
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/e2e/otel/**"],
          globalSetup: postgres,
          testTimeout: 60_000,
        },
      },
      {
        // Not `extends: true`: its own resolve conditions (otelConditions above), no global setup.
        resolve: { conditions: otelConditions },
        ssr: { resolve: { conditions: otelConditions } },
        test: { name: "otel", include: ["test/e2e/otel/**/*.test.ts"], testTimeout: 60_000 },
      },
      {
        // ACTS (the suite, its runner, its clients, mutation tests) and the TCK's checks.
        extends: true,
        test: {
          name: "conformance",
          include: ["test/conformance/**/*.test.ts", "test/tck/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        // The short fuzz budget (`npm run fuzz` is the long run: scripts/fuzz.mjs).
        extends: true,
        test: { name: "fuzz", include: ["test/fuzz/**/*.test.ts"], testTimeout: 60_000 },
      },
      {
        // Checked-in artifacts against the sources: the docs, the API reference, runtime/api-report.md.
        extends: true,
        test: { name: "repo", include: ["test/repo/**/*.test.ts"], testTimeout: 60_000 },
      },
      {
        // A safety net while the tree settles: a test file added straight under test/ matches no other project and would
        // not run. Its place is the folder of what it tests (CONTRIBUTING.md, "Running the tests"); this project is then empty.
        extends: true,
        test: {
          name: "unsorted",
          include: ["test/*.test.ts"],
          globalSetup: postgres,
          testTimeout: 60_000,
        },
      },
      {
        // The task runtime's behaviour suites again, on the SQLite store (test/support/task-runtime-binding.ts).
        extends: true,
        test: {
          name: "sqlite-store",
          include: storeSuites,
          env: { A2A_TEST_TASK_STORE: "sqlite" },
          testTimeout: 60_000,
        },
      },
      {
        // The same suites on the PostgreSQL store: each handler on an empty schema of its own (test/support/postgres-task-store.ts).
        extends: true,
        test: {
          name: "postgres-store",
          include: storeSuites,
          env: { A2A_TEST_TASK_STORE: "postgres" },
          globalSetup: postgres,
          testTimeout: 60_000,
        },
      },
    ],
  },
});
