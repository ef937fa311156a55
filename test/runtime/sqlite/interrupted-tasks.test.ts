// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * SqliteTaskStore.failInterruptedTasks (issue #17, crash safety): after a process died, the tasks it
 * was working on (SUBMITTED, WORKING) are marked FAILED with an agent status message, in every scope;
 * tasks waiting for input and finished tasks are left as they are; the change is durable (a second
 * store on the file sees it) and a second call changes nothing. The example agent does this at start
 * on its A2A_TASK_DB.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, describe, expect, it } from "vitest";
import { Role, TaskSchema, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { createA2AServiceSqliteTaskStore } from "../../../generated-example/gen/a2a_a2a_sqlite_task_store.js";

const dir = mkdtempSync(join(tmpdir(), "a2a-interrupted-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (id: string, state: TaskState) =>
  create(TaskSchema, {
    id,
    contextId: `ctx-${id}`,
    status: { state, timestamp: timestampFromMs(1_700_000_000_000) },
  });

describe("failInterruptedTasks", () => {
  it("marks SUBMITTED and WORKING tasks FAILED in every scope, with a status message; leaves the others", async () => {
    const file = join(dir, "tasks.db");
    const store = createA2AServiceSqliteTaskStore(file);
    const a = { tenant: "", owner: "alice" };
    const b = { tenant: "acme", owner: "bob" };
    await store.saveTask(a, task("submitted", TaskState.SUBMITTED));
    await store.saveTask(a, task("working", TaskState.WORKING));
    await store.saveTask(b, task("working-b", TaskState.WORKING));
    await store.saveTask(a, task("input", TaskState.INPUT_REQUIRED));
    await store.saveTask(b, task("auth", TaskState.AUTH_REQUIRED));
    await store.saveTask(a, task("done", TaskState.COMPLETED));
    await store.saveTask(b, task("canceled", TaskState.CANCELED));
    expect(await store.failInterruptedTasks("restarted")).toBe(3);
    store.close();

    const reopened = createA2AServiceSqliteTaskStore(file);
    try {
      for (const [scope, id] of [
        [a, "submitted"],
        [a, "working"],
        [b, "working-b"],
      ] as const) {
        const found = await reopened.getTask(scope, id);
        expect(found?.status?.state, id).toBe(TaskState.FAILED);
        expect(found?.status?.message?.role).toBe(Role.AGENT);
        expect(found?.status?.message?.taskId).toBe(id);
        expect(found?.status?.message?.contextId).toBe(`ctx-${id}`);
        expect(found?.status?.message?.parts[0]?.content).toEqual({
          case: "text",
          value: "restarted",
        });
        expect(Number(found?.status?.timestamp?.seconds)).toBeGreaterThan(1_700_000_000);
      }
      expect((await reopened.getTask(a, "input"))?.status?.state).toBe(TaskState.INPUT_REQUIRED);
      expect((await reopened.getTask(b, "auth"))?.status?.state).toBe(TaskState.AUTH_REQUIRED);
      expect((await reopened.getTask(a, "done"))?.status?.state).toBe(TaskState.COMPLETED);
      expect((await reopened.getTask(b, "canceled"))?.status?.state).toBe(TaskState.CANCELED);
      // Nothing is left to fail; ListTasks sees the new state.
      expect(await reopened.failInterruptedTasks()).toBe(0);
      const page = await reopened.listTasks(a, {
        contextId: "",
        state: TaskState.FAILED,
        statusTimestampAfter: undefined,
        pageSize: 100,
        pageToken: "",
      });
      expect(page.tasks.map((t) => t.id).sort()).toEqual(["submitted", "working"]);
    } finally {
      reopened.close();
    }
  });
});
