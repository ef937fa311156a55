/**
 * Issue #25 (point 6): BINDING.md of the WebSocket binding said that a call without A2A-Version is
 * read as 1.0, but the example agent reads it as 0.3 (spec §3.6: "Agents MUST interpret empty value
 * as 0.3 version") and answers VersionNotSupportedError (-32009). What the agent does, over a real
 * socket, and what the binding's document (and the scaffold's template it came from) say.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";

let agent: ExampleAgent;
beforeAll(async () => {
  agent = await startExampleAgent();
});
afterAll(async () => {
  await agent.close();
});

/** The answer frame to one GetTask frame on a new socket opened with `headers`. */
async function getTaskAnswer(
  headers: Record<string, string>,
  serviceParameters?: Record<string, string>,
): Promise<{ error?: { code: number; message: string } }> {
  const socket = new WebSocket(agent.endpoints.ws, { headers });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  try {
    const answer = new Promise<string>((resolve) =>
      socket.once("message", (data) => resolve(String(data))),
    );
    socket.send(
      JSON.stringify({
        id: 1,
        method: "GetTask",
        params: { id: "no-such-task" },
        ...(serviceParameters ? { serviceParameters } : {}),
      }),
    );
    return JSON.parse(await answer) as { error?: { code: number; message: string } };
  } finally {
    socket.terminate();
  }
}

describe("a WebSocket call without A2A-Version", () => {
  it("is a 0.3 call: the example agent answers VersionNotSupportedError (-32009)", async () => {
    expect((await getTaskAnswer({})).error?.code).toBe(-32009);
  });

  it("with A2A-Version 1.0 at the upgrade or in the frame it is served (TaskNotFoundError for a missing task)", async () => {
    expect((await getTaskAnswer({ "A2A-Version": "1.0" })).error?.code).toBe(-32001);
    expect((await getTaskAnswer({}, { "A2A-Version": "1.0" })).error?.code).toBe(-32001);
  });

  it("BINDING.md and the scaffold's template say so, and no longer that 1.0 is assumed", () => {
    const doc = readFileSync(
      new URL("../../../generated-example/bindings/ws/BINDING.md", import.meta.url),
      "utf8",
    );
    expect(doc).not.toMatch(/assumes 1\.0/);
    expect(doc).toContain(
      "when neither has one the call is a 0.3 call (§3.6), which the example agent does not serve: VersionNotSupportedError (-32009)",
    );
    const template = readFileSync(
      new URL("../../../templates/binding/BINDING.md.hbs", import.meta.url),
      "utf8",
    );
    expect(template).toContain(
      "A call without `A2A-Version` is a 0.3 call (§3.6: an empty value means 0.3)",
    );
  });
});
