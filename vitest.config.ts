import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

/** The runtime is tested from its sources: the workspace package resolves to runtime/src through this export condition. */
const conditions = ["@protoc-gen-a2a/source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 60_000,
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
    ],
  },
});
