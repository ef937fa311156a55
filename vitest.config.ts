import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      {
        test: {
          name: "default",
          include: ["test/**/*.test.ts", "templates/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        // The task runtime's behaviour suites again, on the SQLite store (test/support/task-runtime-binding.ts).
        test: {
          name: "sqlite-store",
          include: ["test/task-runtime.test.ts", "test/task-concurrency.test.ts", "test/task-executor.test.ts", "test/acts-conformance.test.ts"],
          env: { A2A_TEST_TASK_STORE: "sqlite" },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
