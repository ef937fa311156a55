import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  SubscribeToTaskRequestSchema,
  TaskState,
  type StreamResponse,
} from "../../../generated-example/gen/a2a_pb.js";
import {
  Gate,
  callOf,
  collect,
  createA2ATaskHandler,
  describeEvent,
  sendRequest,
  taskOf,
  textOf,
  until,
  type A2AExecutor,
} from "../../support/task-runtime-binding.js";

const N = 100;

/**
 * "start" → INPUT_REQUIRED; "burst" → WORKING, wait for the gate, 50 artifacts, COMPLETED;
 * "finish" → COMPLETED; anything else → INPUT_REQUIRED echoing the text.
 */
function agent() {
  const gate = new Gate();
  const order: string[] = [];
  const executor: A2AExecutor = {
    async execute(context, emitter) {
      const text = textOf(context.message);
      order.push(text);
      if (text === "burst") {
        await emitter.working("bursting");
        await gate.promise;
        for (let i = 0; i < 50; i++)
          await emitter.addArtifact({
            artifactId: `a${i}`,
            parts: [{ content: { case: "text", value: String(i) } }],
          });
        return emitter.complete("burst done");
      }
      if (text === "finish") return emitter.complete("finished");
      if (text === "start") return emitter.requireInput("go on");
      await emitter.working(`thinking about ${text}`);
      return emitter.requireInput(`echo ${text}`);
    },
  };
  const errors: unknown[] = [];
  const handler = createA2ATaskHandler({
    executor,
    capabilities: { streaming: true },
    onError: (e) => errors.push(e),
  });
  return { handler, gate, order, errors };
}

const subscribe = (handler: ReturnType<typeof agent>["handler"], id: string) =>
  handler
    .subscribeToTask(create(SubscribeToTaskRequestSchema, { id }), callOf("SubscribeToTask"))
    [Symbol.asyncIterator]();

describe("task runtime under concurrency", () => {
  it(`${N} concurrent SendMessage calls on one task: all run, one at a time, in arrival order; nothing lost`, async () => {
    const { handler, order, errors } = agent();
    const first = taskOf(await handler.sendMessage(sendRequest("start"), callOf("SendMessage")));
    const texts = Array.from({ length: N }, (_, i) => `m${i}`);
    const responses = await Promise.all(
      texts.map((t) =>
        handler.sendMessage(sendRequest(t, { taskId: first.id }), callOf("SendMessage")),
      ),
    );
    for (const r of responses) {
      expect(taskOf(r).id).toBe(first.id);
      expect(taskOf(r).status?.state).toBe(TaskState.INPUT_REQUIRED);
    }
    expect(order).toEqual(["start", ...texts]);
    const stored = await handler.getTask(
      create(GetTaskRequestSchema, { id: first.id }),
      callOf("GetTask"),
    );
    expect(stored.history.map(textOf)).toEqual([
      "start",
      "go on",
      ...texts.flatMap((t) => [t, `thinking about ${t}`, `echo ${t}`]),
    ]);
    expect(errors).toEqual([]);
    await until(() => handler.liveTasks === 0);
  });

  it(`${N} concurrent SendStreamingMessage calls on one task: each stream is its own turn, whole and in order`, async () => {
    const { handler } = agent();
    const first = taskOf(await handler.sendMessage(sendRequest("start"), callOf("SendMessage")));
    const texts = Array.from({ length: N }, (_, i) => `s${i}`);
    const streams = await Promise.all(
      texts.map((t) =>
        collect(
          handler.sendStreamingMessage(
            sendRequest(t, { taskId: first.id }),
            callOf("SendStreamingMessage"),
          ),
        ),
      ),
    );
    streams.forEach((events, i) => {
      const head = events[0]?.payload;
      expect(head?.case).toBe("task");
      expect(head?.case === "task" && textOf(head.value.history.at(-1))).toBe(texts[i]);
      expect(events.slice(1).map(describeEvent)).toEqual([
        `status:WORKING:thinking about ${texts[i]}`,
        `status:INPUT_REQUIRED:echo ${texts[i]}`,
      ]);
    });
    await until(() => handler.liveTasks === 0);
  });

  it(`${N} subscribers on one task each get every event in order; closing some affects no other`, async () => {
    const { handler, gate } = agent();
    const task = taskOf(
      await handler.sendMessage(
        sendRequest("burst", {}, { returnImmediately: true }),
        callOf("SendMessage"),
      ),
    );
    const iterators = Array.from({ length: N }, () => subscribe(handler, task.id));
    const heads = await Promise.all(iterators.map((it) => it.next()));
    for (const h of heads)
      expect(h.value && describeEvent(h.value as StreamResponse)).toMatch(
        /^task:(SUBMITTED|WORKING)$/,
      );
    gate.open();
    const received = await Promise.all(
      iterators.map(async (it, i) => {
        const out: string[] = [];
        for (let r = await it.next(); !r.done; r = await it.next()) {
          out.push(describeEvent(r.value));
          if (i % 2 === 1 && out.length === 10) {
            await it.return?.();
            break;
          }
        }
        return out;
      }),
    );
    const full = received[0]!;
    expect(full.filter((e) => e.startsWith("artifact:"))).toEqual(
      Array.from({ length: 50 }, (_, i) => `artifact:a${i}`),
    );
    expect(full.at(-1)).toBe("status:COMPLETED:burst done");
    received.forEach((events, i) => {
      const start = full.indexOf(events[0]!);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(events).toEqual(full.slice(start, start + events.length));
      if (i % 2 === 0) expect(events).toEqual(full);
      else expect(events).toHaveLength(10);
    });
    await until(() => handler.liveTasks === 0);
  });

  it(`${N} subscribers joining while ${N} messages flow: each sees a gap-free, in-order suffix of the task's events`, async () => {
    const { handler } = agent();
    const first = taskOf(await handler.sendMessage(sendRequest("start"), callOf("SendMessage")));
    const reference = subscribe(handler, first.id);
    await reference.next();
    const subscribers: ReturnType<typeof subscribe>[] = [];
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < N; i++) {
      sends.push(
        handler.sendMessage(sendRequest(`x${i}`, { taskId: first.id }), callOf("SendMessage")),
      );
      subscribers.push(subscribe(handler, first.id));
    }
    const heads = await Promise.all(subscribers.map((s) => s.next()));
    await Promise.all(sends);
    await handler.sendMessage(sendRequest("finish", { taskId: first.id }), callOf("SendMessage"));
    const drainAll = async (it: ReturnType<typeof subscribe>) => {
      const out: string[] = [];
      for (let r = await it.next(); !r.done; r = await it.next()) out.push(describeEvent(r.value));
      return out;
    };
    const full = await drainAll(reference);
    expect(full).toHaveLength(2 * N + 1);
    expect(full.at(-1)).toBe("status:COMPLETED:finished");
    const all = await Promise.all(subscribers.map(drainAll));
    all.forEach((events, i) => {
      expect(events).toEqual(full.slice(full.length - events.length));
      // The snapshot is the state just before the first event received: its history ends where the events begin.
      const head = heads[i]!.value as StreamResponse;
      const history = head.payload.case === "task" ? head.payload.value.history.map(textOf) : [];
      const seenEchoes = full
        .slice(0, full.length - events.length)
        .filter((e) => e.startsWith("status:INPUT_REQUIRED")).length;
      expect(history.filter((t) => t.startsWith("echo ")).length).toBe(seenEchoes);
    });
    await until(() => handler.liveTasks === 0);
  });

  it(`${N} concurrent new tasks get distinct server ids`, async () => {
    const { handler } = agent();
    const tasks = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        handler.sendMessage(sendRequest(`n${i}`), callOf("SendMessage")),
      ),
    );
    const ids = new Set(tasks.map((r) => taskOf(r).id));
    expect(ids.size).toBe(N);
    const list = await handler.listTasks(
      create(ListTasksRequestSchema, { pageSize: 100 }),
      callOf("ListTasks"),
    );
    expect(list.totalSize).toBe(N);
    expect(new Set(list.tasks.map((t) => t.id))).toEqual(ids);
  });
});

describe("a caller that goes away while queued behind a running turn", () => {
  it("is not processed once the turn ends: its message never reaches the executor nor the history", async () => {
    const { handler, gate, order } = agent();
    const started = taskOf(await handler.sendMessage(sendRequest("start"), callOf("SendMessage")));
    const burst = handler.sendMessage(
      sendRequest("burst", { taskId: started.id }),
      callOf("SendMessage"),
    );
    await until(() => order.includes("burst"));
    const gone = new AbortController();
    const queued = handler.sendMessage(
      sendRequest("never processed", { taskId: started.id }),
      callOf("SendMessage", { signal: gone.signal }),
    );
    const settled = queued.then(
      () => "answered",
      (e: unknown) => e,
    );
    gone.abort(new Error("client went away"));
    gate.open();
    expect(taskOf(await burst).status?.state).toBe(TaskState.COMPLETED);
    expect(await settled).toMatchObject({ message: "client went away" });
    expect(order).toEqual(["start", "burst"]);
    const task = await handler.getTask(
      create(GetTaskRequestSchema, { id: started.id }),
      callOf("GetTask"),
    );
    expect(task.history.map((m) => textOf(m))).not.toContain("never processed");
  });
});
