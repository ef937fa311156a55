// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The example agent's TCK profile (`profile: "tck"`, A2A_PROFILE=tck for main.ts), the one
 * `npm run tck` runs the official TCK against, differs from the default exactly where the TCK's run
 * needs it, and only there: a push webhook on loopback (the TCK's receiver on localhost) is
 * accepted and delivered in the TCK profile and refused at creation by default (spec §13.2,
 * SSRF); HTTP+JSON answers `application/json` (spec v1.0.0 §11.1, which the TCK pins) in the TCK
 * profile and `application/a2a+json` (v1.0.1) by default, successes and errors alike. And
 * A2A_PROFILE and A2A_CAPABILITIES (the capabilities-off reruns of `npm run tck`) are read strictly.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  capabilitiesFromEnv,
  profileFromEnv,
  startExampleAgent,
  type ExampleAgent,
} from "../../generated-example/agent/echo-agent.js";
import { InvalidParamsError } from "../../generated-example/gen/a2a_a2a_errors.js";
import { A2AServiceJsonRpcClient } from "../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { Role, TaskState } from "../../generated-example/gen/a2a_pb.js";

let tck: ExampleAgent;
let plain: ExampleAgent;
let webhook: Server;
let webhookUrl: string;
const received: { taskId: string; state: string }[] = [];

beforeAll(async () => {
  [tck, plain] = await Promise.all([startExampleAgent({ profile: "tck" }), startExampleAgent({})]);
  webhook = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const event = JSON.parse(body) as {
        statusUpdate?: { taskId: string; status: { state: string } };
        task?: { id: string; status: { state: string } };
      };
      if (event.statusUpdate !== undefined)
        received.push({
          taskId: event.statusUpdate.taskId,
          state: event.statusUpdate.status.state,
        });
      if (event.task !== undefined)
        received.push({ taskId: event.task.id, state: event.task.status.state });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://localhost:${(webhook.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await Promise.all([tck.close(), plain.close(), new Promise((resolve) => webhook.close(resolve))]);
});

const withWebhook = (url: string) => ({
  message: {
    messageId: `tck-complete-task-${crypto.randomUUID().slice(0, 8)}`,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: "push" } }],
  },
  configuration: { taskPushNotificationConfig: { url, token: "tck-token" } },
});

describe("loopback webhooks", () => {
  it("the TCK profile accepts a webhook on localhost and delivers the task's events to it", async () => {
    const response = await new A2AServiceJsonRpcClient({ url: tck.endpoints.jsonrpc }).sendMessage(
      withWebhook(webhookUrl),
    );
    const task = response.payload.case === "task" ? response.payload.value : undefined;
    expect(task?.status?.state).toBe(TaskState.COMPLETED);
    const deadline = Date.now() + 20_000;
    while (
      !received.some((e) => e.taskId === task?.id && e.state === "TASK_STATE_COMPLETED") &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 50));
    expect(received.filter((e) => e.taskId === task?.id).map((e) => e.state)).toContain(
      "TASK_STATE_COMPLETED",
    );
  });

  it("the default profile refuses it at creation (InvalidParams on the url), and nothing is delivered", async () => {
    const before = received.length;
    const error = await new A2AServiceJsonRpcClient({ url: plain.endpoints.jsonrpc })
      .sendMessage(withWebhook(webhookUrl))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as Error).message).toMatch(
      /configuration\.taskPushNotificationConfig\.url is not allowed/,
    );
    expect(received.length).toBe(before);
  });
});

describe("HTTP+JSON Content-Type", () => {
  const get = async (agent: ExampleAgent, path: string) => {
    const response = await fetch(`${agent.endpoints.rest}${path}`, {
      headers: { "a2a-version": "1.0" },
    });
    await response.arrayBuffer();
    return [response.status, response.headers.get("content-type")];
  };

  it("application/json in the TCK profile, for a result and for an error", async () => {
    expect(await get(tck, "/tasks")).toEqual([200, "application/json"]);
    expect(await get(tck, "/tasks/no-such-task")).toEqual([404, "application/json"]);
  });

  it("application/a2a+json by default", async () => {
    expect(await get(plain, "/tasks")).toEqual([200, "application/a2a+json"]);
    expect(await get(plain, "/tasks/no-such-task")).toEqual([404, "application/a2a+json"]);
  });
});

describe("A2A_PROFILE and A2A_CAPABILITIES", () => {
  it("names the profile; empty or absent is the default; anything else is refused", () => {
    expect([
      profileFromEnv(undefined),
      profileFromEnv(""),
      profileFromEnv("default"),
      profileFromEnv("tck"),
    ]).toEqual(["default", "default", "default", "tck"]);
    expect(() => profileFromEnv("TCK")).toThrow(/A2A_PROFILE must be "default" or "tck"/);
  });

  it("A2A_CAPABILITIES lists the optional capabilities declared: absent or empty all, none none, unknown names refused", () => {
    const all = { streaming: true, pushNotifications: true, extendedAgentCard: true };
    expect([capabilitiesFromEnv(undefined), capabilitiesFromEnv(" ")]).toEqual([all, all]);
    expect(capabilitiesFromEnv("none")).toEqual({
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
    });
    expect(capabilitiesFromEnv("streaming, extendedAgentCard")).toEqual({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: true,
    });
    expect(() => capabilitiesFromEnv("streaming,push")).toThrow(/unknown capabilities push/);
  });
});
