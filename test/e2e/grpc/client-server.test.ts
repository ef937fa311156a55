import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role, TaskState } from "../../../generated-example/gen/a2a_pb.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { listenA2AServiceGrpc } from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import {
  InternalError,
  InvalidParamsError,
  PermissionDeniedError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { ECHO_EXTENSION, TestAgent } from "../../support/test-agent.js";
import { eventually } from "../../support/servers.js";
import { selfSignedCertificate } from "../../support/tls.js";

const userMessage = (text: string) => ({
  message: {
    messageId: `m-${text}`,
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});
const tls = selfSignedCertificate();

describe.each([
  ["h2c", false],
  ["TLS", true],
])("generated gRPC client → generated gRPC server over %s", (_name, secure) => {
  const agent = new TestAgent();
  let endpoint: GrpcEndpoint;
  let client: A2AServiceGrpcClient;

  beforeAll(async () => {
    endpoint = await listenA2AServiceGrpc(agent, {
      authenticate: ({ serviceParameters }) => {
        if (serviceParameters.get("authorization") === "Bearer guest")
          throw new PermissionDeniedError();
        return { user: serviceParameters.get("authorization") ?? "anonymous" };
      },
      logger: { error() {} },
      listen: secure ? { tls } : {},
    });
    client = new A2AServiceGrpcClient({
      address: endpoint.address,
      tls: secure,
      headers: { authorization: "Bearer alice" },
      transportOptions: secure ? { nodeOptions: { ca: tls.cert } } : {},
    });
  });
  afterAll(() => endpoint.close());

  it("SendMessage (Message and Task) with metadata service parameters", async () => {
    const res = await client.sendMessage(userMessage("hello"));
    expect(res.payload.case === "message" && res.payload.value.parts[0]?.content.value).toBe(
      "hello",
    );
    const ctx = agent.contexts.at(-1)!;
    expect(ctx.binding).toBe("GRPC");
    expect(ctx.requestedVersion).toBe("1.0");
    expect(ctx.principal).toEqual({ user: "Bearer alice" });
    const task = await client.sendMessage(userMessage("task"));
    expect(task.payload.case === "task" && task.payload.value.status?.state).toBe(
      TaskState.COMPLETED,
    );
  });

  it("streams SendStreamingMessage and SubscribeToTask", async () => {
    const kinds = [];
    for await (const e of client.sendStreamingMessage(userMessage("s"))) kinds.push(e.payload.case);
    expect(kinds).toEqual(["task", "statusUpdate", "artifactUpdate", "statusUpdate"]);
    const sub = [];
    for await (const e of client.subscribeToTask({ id: "t-9" })) sub.push(e.payload.case);
    expect(sub).toEqual(["task", "statusUpdate"]);
  });

  it("every other RPC", async () => {
    expect((await client.getTask({ id: "t-1", historyLength: 1 })).id).toBe("t-1");
    expect((await client.listTasks({ pageSize: 5 })).pageSize).toBe(50);
    expect((await client.cancelTask({ id: "t-2" })).status?.state).toBe(TaskState.CANCELED);
    const cfg = await client.createTaskPushNotificationConfig({
      taskId: "t-1",
      url: "https://example.com/h",
    });
    expect((await client.getTaskPushNotificationConfig({ taskId: "t-1", id: cfg.id })).url).toBe(
      "https://example.com/h",
    );
    expect((await client.listTaskPushNotificationConfigs({ taskId: "t-1" })).configs).toHaveLength(
      1,
    );
    expect(
      (await client.deleteTaskPushNotificationConfig({ taskId: "t-1", id: cfg.id })).$typeName,
    ).toBe("google.protobuf.Empty");
    expect((await client.getExtendedAgentCard({})).name).toBe("Test agent");
  });

  it("maps errors through ErrorInfo status details to the typed classes", async () => {
    const err = await client.getTask({ id: "missing" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskNotFoundError);
    expect((err as TaskNotFoundError).metadata).toEqual({ taskId: "missing" });
    const crash = await client.sendMessage(userMessage("crash")).catch((e: unknown) => e);
    expect(crash).toBeInstanceOf(InternalError);
    expect((crash as Error).message).not.toContain("hunter2");
    await expect(async () => {
      for await (const _ of client.sendStreamingMessage(userMessage("fail-early")));
    }).rejects.toBeInstanceOf(UnsupportedOperationError);
    const guest = new A2AServiceGrpcClient({
      address: endpoint.address,
      tls: secure,
      headers: { authorization: "Bearer guest" },
      transportOptions: secure ? { nodeOptions: { ca: tls.cert } } : {},
    });
    await expect(guest.getTask({ id: "t" })).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("validates REQUIRED fields and the version from metadata", async () => {
    const missing = await client.getTask({}).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(InvalidParamsError);
    expect((missing as InvalidParamsError).fieldViolations).toEqual([
      { field: "id", description: "id is required" },
    ]);
    const range = await client.listTasks({ pageSize: 500 }).catch((e: unknown) => e);
    expect((range as Error).message).toContain("pageSize must be between 1 and 100");
    const old = new A2AServiceGrpcClient({
      address: endpoint.address,
      tls: secure,
      version: "0.3",
      transportOptions: secure ? { nodeOptions: { ca: tls.cert } } : {},
    });
    await expect(old.getTask({ id: "t" })).rejects.toBeInstanceOf(VersionNotSupportedError);
  });

  it("echoes activated extensions in response metadata", async () => {
    let echoed: string | null = null;
    await client.getTask(
      { id: "t" },
      { extensions: [ECHO_EXTENSION], onHeaders: (h) => (echoed = h.get("a2a-extensions")) },
    );
    expect(echoed).toBe(ECHO_EXTENSION);
  });

  it("a client cancelling mid-stream aborts the handler", async () => {
    agent.streamAborted = false;
    agent.streamFinally = false;
    const controller = new AbortController();
    for await (const e of client.sendStreamingMessage(userMessage("slow"), {
      signal: controller.signal,
    })) {
      expect(e.payload.case).toBe("task");
      controller.abort();
      break;
    }
    await eventually(() => agent.streamAborted && agent.streamFinally);
  });
});

describe("gRPC addresses", () => {
  it("accepts host:port and URLs", async () => {
    const { grpcBaseUrl } = await import("@protoc-gen-a2a/runtime/grpc");
    expect(grpcBaseUrl("agent.example.com:443")).toBe("https://agent.example.com:443");
    expect(grpcBaseUrl("127.0.0.1:50051")).toBe("http://127.0.0.1:50051");
    expect(grpcBaseUrl("127.0.0.1:50051", true)).toBe("https://127.0.0.1:50051");
    expect(grpcBaseUrl("https://grpc.example.com/a2a")).toBe("https://grpc.example.com/a2a");
  });
});
