/**
 * Issue #25 (point 6): shutting the example agent down while many tasks wait (tck-cancel stays
 * WORKING until canceled; tck-long-running waits) must not warn `MaxListenersExceededWarning`:
 * every waiting task used to add its own abort listener to the agent's one shutdown signal, and
 * Node warns past 10 listeners on one AbortSignal. The waits now share one listener per signal.
 * Real agent, real JSON-RPC calls over 127.0.0.1; the warnings are the process's 'warning' events.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startExampleAgent } from "../../../generated-example/agent/echo-agent.js";

const headers = { "content-type": "application/json", "a2a-version": "1.0" };
let id = 0;
async function rpc(url: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
  });
  return (await response.json()) as Record<string, unknown>;
}
const send = (url: string, text: string) =>
  rpc(url, "SendMessage", {
    message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }] },
    configuration: { returnImmediately: true },
  });
const stateOf = async (url: string, taskId: string) => {
  const answer = await rpc(url, "GetTask", { id: taskId, historyLength: 0 });
  return ((answer["result"] as { status?: { state?: string } } | undefined)?.status?.state ??
    "") as string;
};

const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(() => {
  process.off("warning", onWarning);
  warnings.length = 0;
});

describe("example agent: shutdown with many waiting tasks", () => {
  it.each(["tck-cancel", "tck-long-running"])(
    "50 %s tasks waiting at shutdown: no MaxListenersExceededWarning",
    async (text) => {
      const agent = await startExampleAgent({ longRunningMs: 10 * 60_000 });
      process.on("warning", onWarning);
      const url = agent.endpoints.jsonrpc;
      const ids = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const answer = await send(url, text);
          const task = (answer["result"] as { task?: { id: string } } | undefined)?.task;
          if (task === undefined) throw new Error(`expected a task: ${JSON.stringify(answer)}`);
          return task.id;
        }),
      );
      // Every task is waiting (WORKING) before the shutdown.
      for (const taskId of ids) {
        while ((await stateOf(url, taskId)) !== "TASK_STATE_WORKING")
          await new Promise((r) => setTimeout(r, 10));
      }
      // The waits still end one by one: a canceled task stops waiting (its own signal), the others go on.
      const canceled = await rpc(url, "CancelTask", { id: ids[0] });
      expect(
        (canceled["result"] as { status?: { state?: string } } | undefined)?.status?.state,
      ).toBe("TASK_STATE_CANCELED");
      expect(await Promise.all(ids.slice(1).map((taskId) => stateOf(url, taskId)))).toEqual(
        ids.slice(1).map(() => "TASK_STATE_WORKING"),
      );
      await agent.close();
      // Warnings are emitted on a later tick: let them arrive.
      await new Promise((r) => setTimeout(r, 50));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    },
  );
});
