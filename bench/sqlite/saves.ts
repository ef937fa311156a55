/**
 * The SQLite task store's own cost per save (bench/sqlite-saves.mjs runs it, one fresh process per
 * run): a file database (WAL, synchronous NORMAL) in a temp directory already holding `--tasks`
 * finished tasks of ONE owner (the case a per-owner quota must not slow down), then:
 * - sequential: saves awaited one by one (each its own commit) of new tasks of that owner;
 * - lifecycle:  tasks created and completed as the runtime does (SUBMITTED, WORKING, an artifact,
 *               COMPLETED: four saves of copy-on-write copies), 50 tasks at a time (group commits);
 * - update:     saves of tasks already stored (a random one of the owner's), 50 at a time.
 * Prints one JSON line: µs per save of each, wall-clock and CPU (user + system: less sensitive to
 * other processes on a shared machine).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { SqliteTaskStore } from "@protoc-gen-a2a/runtime/sqlite";
import {
  MessageSchema,
  Role,
  TaskPushNotificationConfigSchema,
  TaskSchema,
  TaskState,
  type Message,
  type Task,
} from "../../generated-example/gen/a2a_pb.js";

const TASKS = Number(process.argv[2] ?? 10_000);
const SAVES = Number(process.argv[3] ?? 4000);
const scope = { tenant: "", owner: "alice" };
const text = "lorem ipsum dolor sit amet ".repeat(20);

const message = (id: string, role: Role, body: string): Message =>
  create(MessageSchema, {
    messageId: id,
    role,
    parts: [{ content: { case: "text", value: body } }],
  });
function taskOf(
  id: string,
  state: TaskState,
  history: Message[],
  withArtifact: boolean,
  ms: number,
): Task {
  return create(TaskSchema, {
    id,
    contextId: `ctx-${id}`,
    status: { state, timestamp: timestampFromMs(ms) },
    history,
    artifacts: withArtifact
      ? [
          {
            artifactId: "out",
            name: "out",
            parts: [{ content: { case: "text", value: body(id) } }],
          },
        ]
      : [],
  });
}
const body = (id: string) => `${id}: ${text}`;

const dir = mkdtempSync(join(tmpdir(), "a2a-bench-sqlite-"));
const store = new SqliteTaskStore(join(dir, "tasks.db"), {
  schemas: { Task: TaskSchema, TaskPushNotificationConfig: TaskPushNotificationConfigSchema },
  ...JSON.parse(process.env.BENCH_OPTIONS ?? "{}"),
});
let clock = Date.UTC(2026, 0, 1);
try {
  // Fill: TASKS finished tasks of one owner, 256 per group commit.
  for (let i = 0; i < TASKS; i += 256) {
    const saves: Promise<void>[] = [];
    for (let j = i; j < Math.min(TASKS, i + 256); j++) {
      const id = `old-${j}`;
      saves.push(
        store.saveTask(
          scope,
          taskOf(
            id,
            TaskState.COMPLETED,
            [message(`${id}-u`, Role.USER, body(id)), message(`${id}-a`, Role.AGENT, "done")],
            true,
            (clock += 10),
          ),
        ),
      );
    }
    await Promise.all(saves);
  }

  /** µs per save of `run` (which saves `saves` times): wall-clock and CPU. */
  const measure = async (
    saves: number,
    run: () => Promise<void>,
  ): Promise<{ wall: number; cpu: number }> => {
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    await run();
    const wall = Number(process.hrtime.bigint() - started) / 1000 / saves;
    const used = process.cpuUsage(cpu);
    return { wall, cpu: (used.user + used.system) / saves };
  };
  const sequential = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      const id = `seq-${clock}-${i}`;
      await store.saveTask(
        scope,
        taskOf(
          id,
          TaskState.SUBMITTED,
          [message(`${id}-u`, Role.USER, body(id))],
          false,
          (clock += 10),
        ),
      );
    }
  };
  const lifecycle = async (n: number): Promise<void> => {
    const one = async (id: string) => {
      const user = message(`${id}-u`, Role.USER, body(id));
      await store.saveTask(scope, taskOf(id, TaskState.SUBMITTED, [user], false, (clock += 10)));
      await store.saveTask(scope, taskOf(id, TaskState.WORKING, [user], false, (clock += 10)));
      await store.saveTask(scope, taskOf(id, TaskState.WORKING, [user], true, (clock += 10)));
      await store.saveTask(
        scope,
        taskOf(
          id,
          TaskState.COMPLETED,
          [user, message(`${id}-a`, Role.AGENT, "done")],
          true,
          (clock += 10),
        ),
      );
    };
    for (let i = 0; i < n; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, (_, j) => one(`life-${clock}-${i + j}`)),
      );
  };
  const update = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, () => {
          const id = `old-${Math.floor(Math.random() * TASKS)}`;
          return store.saveTask(
            scope,
            taskOf(
              id,
              TaskState.COMPLETED,
              [message(`${id}-u`, Role.USER, body(id)), message(`${id}-a`, Role.AGENT, "again")],
              true,
              (clock += 10),
            ),
          );
        }),
      );
    }
  };
  // Warm-up, then measured.
  await sequential(200);
  await lifecycle(200);
  await update(200);
  const result = {
    tasks: TASKS,
    sequential: await measure(SAVES, () => sequential(SAVES)),
    lifecycle: await measure(SAVES, () => lifecycle(SAVES / 4)),
    update: await measure(SAVES, () => update(SAVES)),
  };
  console.log(JSON.stringify(result));
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
