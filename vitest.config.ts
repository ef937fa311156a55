import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/** The runtime is tested from its sources: the workspace package resolves to runtime/src through this export condition. */
const conditions = ["@protoc-gen-a2a/source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 60_000,
    // One PostgreSQL for the whole run, shared by every project: tests get its URL with postgresUrl() (test/support/postgres-url.ts).
    globalSetup: ["test/support/postgres-global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          include: ["test/**/*.test.ts", "runtime/**/*.test.ts"],
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
