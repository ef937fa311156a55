import { defaultServerConditions } from "vite";
import { configDefaults, defineConfig } from "vitest/config";

/** The runtime is tested from its sources: the workspace package resolves to runtime/src through this export condition. */
const conditions = ["@protoc-gen-a2a/source", ...defaultServerConditions];

/**
 * The OpenTelemetry tests run without the "module" condition (which vitest also passes to Node): @opentelemetry/api
 * exports its ESM build under it, whose imports have no file extensions, which Node cannot load.
 */
const otelConditions = conditions.filter((c) => c !== "module");

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 60_000,
    // One PostgreSQL for the whole run, shared by every project: tests get its URL with postgresUrl() (test/support/postgres-url.ts).
    globalSetup: ["test/support/postgres-global-setup.ts"],
    projects: [
      {
        resolve: { conditions: otelConditions },
        ssr: { resolve: { conditions: otelConditions } },
        test: { name: "otel", include: ["test/otel.test.ts"], testTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: "default",
          include: ["test/**/*.test.ts", "runtime/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/otel.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        // The task runtime's behaviour suites again, on the SQLite store (test/support/task-runtime-binding.ts).
        extends: true,
        test: {
          name: "sqlite-store",
          include: ["test/task-runtime.test.ts", "test/task-concurrency.test.ts", "test/task-executor.test.ts", "test/acts-conformance.test.ts"],
          env: { A2A_TEST_TASK_STORE: "sqlite" },
          testTimeout: 60_000,
        },
      },
      {
        // The same suites on the PostgreSQL store: each handler on an empty schema of its own (test/support/postgres-task-store.ts).
        extends: true,
        test: {
          name: "postgres-store",
          include: ["test/task-runtime.test.ts", "test/task-concurrency.test.ts", "test/task-executor.test.ts", "test/acts-conformance.test.ts"],
          env: { A2A_TEST_TASK_STORE: "postgres" },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
