/**
 * Issue #30: OpenTelemetry tracing (`openTelemetryTracing()` of @protoc-gen-a2a/runtime/otel) and the
 * `logger` option. Real servers on 127.0.0.1 and the generated clients, on the three bindings (gRPC on
 * both stacks): the client's CLIENT span is the parent of the server's SERVER span across the wire, with
 * the A2A attributes; a failing call carries its reason and status ERROR; a stream's span covers the
 * stream, its task states as span events; a push delivery carries `traceparent` to a real webhook and
 * links the call that produced the event. Without tracing, nothing imports @opentelemetry/api.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { SpanKind, SpanStatusCode, context, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Logger } from "@protoc-gen-a2a/runtime";
import { openTelemetryTracing } from "@protoc-gen-a2a/runtime/otel";
import { listenGrpc } from "@protoc-gen-a2a/runtime/grpc";
import { composeHandlers, serveNode } from "@protoc-gen-a2a/runtime/http";
import { InMemoryTaskStore, createPushNotificationSender } from "@protoc-gen-a2a/runtime/task";
import {
  StreamResponseSchema,
  TaskPushNotificationConfigSchema,
  TaskState,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { A2AServiceGrpcClient } from "../../../generated-example/gen/a2a_a2a_grpc_client.js";
import { createA2AServiceTaskHandler } from "../../../generated-example/gen/a2a_a2a_task_handler.js";
import { eventually, listen, type Listening } from "../../support/servers.js";
import { sendRequest, textOf } from "../../support/task-runtime-binding.js";
import { repoRoot } from "../../support/repo-root.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const tracing = openTelemetryTracing({ tracerProvider: provider });
const quiet: Logger = { error() {}, warn() {} };

/** Received webhook requests (headers). */
const webhookHits: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

/** "task …" runs a task (working, artifact, completed); "fail" throws; anything else is answered with a Message. */
const store = new InMemoryTaskStore();
const push = createPushNotificationSender({
  store,
  schemas: { StreamResponse: StreamResponseSchema },
  allowPrivateNetworks: true,
  tracing,
  logger: quiet,
});
const handler = createA2AServiceTaskHandler({
  store,
  capabilities: { streaming: true, pushNotifications: true },
  onTaskEvent: push.onTaskEvent,
  logger: quiet,
  executor: {
    async execute(request, emitter) {
      const text = textOf(request.message);
      if (text === "fail") throw new Error("executor bug");
      if (!text.startsWith("task"))
        return emitter.reply({ parts: [{ content: { case: "text", value: `echo: ${text}` } }] });
      await emitter.working();
      await emitter.addArtifact(
        { artifactId: "a1", parts: [{ content: { case: "text", value: text } }] },
        { lastChunk: true },
      );
      await emitter.complete();
    },
  },
});

let http: Listening;
let webhook: Listening;
let grpcJs: { address: string; close(): Promise<void> };
let grpcConnect: { address: string; close(): Promise<void> };

type BindingName = "JSONRPC" | "HTTP+JSON" | "GRPC (grpc-js)" | "GRPC (Connect)";
function clientOf(binding: BindingName) {
  switch (binding) {
    case "JSONRPC":
      return new A2AServiceJsonRpcClient({ url: `${http.url}jsonrpc`, tracing });
    case "HTTP+JSON":
      return new A2AServiceRestClient({ url: `${http.url}rest`, tracing });
    case "GRPC (grpc-js)":
      return new A2AServiceGrpcClient({ address: grpcJs.address, tracing });
    case "GRPC (Connect)":
      return new A2AServiceGrpcClient({ address: grpcConnect.address, tracing });
  }
}
const wireName = (binding: BindingName) => (binding.startsWith("GRPC") ? "GRPC" : binding);

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const serverOptions = { tracing, logger: quiet };
  const jsonrpc = createA2AServiceJsonRpcServer(handler, serverOptions);
  const rest = createA2AServiceRestServer(handler, { ...serverOptions, basePath: "/rest" });
  http = await listen(
    serveNode(
      composeHandlers(
        { prefix: "/jsonrpc", handler: jsonrpc.handler },
        { prefix: "/rest", handler: rest.handler },
      ),
    ),
  );
  grpcJs = await listenA2AServiceGrpc(handler, {
    ...serverOptions,
    listen: { host: "127.0.0.1", port: 0 },
  });
  grpcConnect = await listenGrpc(createA2AServiceGrpcRoutes(handler, serverOptions), {
    host: "127.0.0.1",
    port: 0,
  });
  webhook = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      webhookHits.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
});

afterAll(async () => {
  await push.close();
  await Promise.all([http.close(), webhook.close(), grpcJs.close(), grpcConnect.close()]);
  context.disable();
  propagation.disable();
  await provider.shutdown();
});

afterEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (kind: SpanKind, name: string) =>
  spans().filter((s) => s.kind === kind && s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The CLIENT and SERVER spans of one call of `method`, once both ended. */
async function callSpans(method: string): Promise<{ client: ReadableSpan; server: ReadableSpan }> {
  const name = `lf.a2a.v1.A2AService/${method}`;
  await eventually(
    () => named(SpanKind.CLIENT, name).length === 1 && named(SpanKind.SERVER, name).length === 1,
  );
  return { client: named(SpanKind.CLIENT, name)[0]!, server: named(SpanKind.SERVER, name)[0]! };
}

const bindings: BindingName[] = ["JSONRPC", "HTTP+JSON", "GRPC (grpc-js)", "GRPC (Connect)"];

describe.each(bindings)("tracing on %s", (binding) => {
  it("a unary call: the server span is the client span's child, with the A2A attributes and the task's states", async () => {
    const response = await clientOf(binding).sendMessage(sendRequest("task one"));
    expect(response.payload.case).toBe("task");
    const task = response.payload.value as Task;
    const { client, server } = await callSpans("SendMessage");
    expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(parentOf(server)).toBe(client.spanContext().spanId);
    expect(server.attributes).toMatchObject({
      "rpc.system": binding.startsWith("GRPC") ? "grpc" : binding === "JSONRPC" ? "jsonrpc" : "a2a",
      "rpc.service": "lf.a2a.v1.A2AService",
      "rpc.method": "SendMessage",
      "a2a.operation": "SendMessage",
      "a2a.binding": wireName(binding),
      "a2a.version": "1.0",
      "a2a.task.id": task.id,
      "a2a.context.id": task.contextId,
    });
    expect(client.attributes).toMatchObject({
      "a2a.binding": wireName(binding),
      "a2a.task.id": task.id,
      "server.address": "127.0.0.1",
    });
    expect(server.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(server.events.map((e) => e.attributes?.["a2a.task.state"])).toContain(
      "TASK_STATE_COMPLETED",
    );
  });

  it("a failing call: a2a.error.reason and status ERROR on both sides", async () => {
    const error = await clientOf(binding)
      .getTask({ id: "no-such-task" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeDefined();
    const { client, server } = await callSpans("GetTask");
    expect(parentOf(server)).toBe(client.spanContext().spanId);
    for (const span of [client, server]) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes["a2a.error.reason"]).toBe("TASK_NOT_FOUND");
      expect(span.attributes["a2a.task.id"]).toBe("no-such-task");
    }
    if (binding.startsWith("GRPC")) expect(server.attributes["rpc.grpc.status_code"]).toBe(5);
  });

  it("a streaming call: one span per side covering the stream, the task's states as events", async () => {
    const events = [];
    for await (const event of clientOf(binding).sendStreamingMessage(sendRequest("task streamed")))
      events.push(event);
    expect(events.length).toBeGreaterThan(2);
    const { client, server } = await callSpans("SendStreamingMessage");
    expect(parentOf(server)).toBe(client.spanContext().spanId);
    const states = server.events
      .filter((e) => e.name === "a2a.task.state")
      .map((e) => e.attributes?.["a2a.task.state"]);
    expect(states).toEqual(expect.arrayContaining(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]));
    expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");
    expect(server.attributes["a2a.task.id"]).toBeTruthy();
    expect(client.attributes["a2a.task.id"]).toBe(server.attributes["a2a.task.id"]);
    // The server span ended with the stream: after its last event was produced.
    expect(server.ended).toBe(true);
  });
});

describe("push deliveries", () => {
  it("carry traceparent to the webhook, in a CLIENT span linked to the call that produced the event", async () => {
    webhookHits.length = 0;
    const client = clientOf("JSONRPC");
    const response = await client.sendMessage(
      sendRequest(
        "task pushed",
        {},
        {
          taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
            url: webhook.url,
          }),
        },
      ),
    );
    const task = response.payload.value as Task;
    expect(task.status?.state).toBe(TaskState.COMPLETED);
    // Deliveries of one task go out in order, so the terminal one is the last; wait for it and
    // for every delivery span to have ended (a span ends after its POST was answered).
    const deliverySpans = () => spans().filter((s) => s.name === "A2A push notification");
    await eventually(
      () =>
        webhookHits.some((h) => h.body.includes("TASK_STATE_COMPLETED")) &&
        deliverySpans().length === webhookHits.length,
      5000,
    );
    expect(webhookHits.length).toBeGreaterThanOrEqual(3);
    const deliveries = deliverySpans();
    const { server } = await callSpans("SendMessage");
    for (const delivery of deliveries) {
      expect(delivery.kind).toBe(SpanKind.CLIENT);
      expect(delivery.attributes).toMatchObject({
        "a2a.task.id": task.id,
        "http.response.status_code": 204,
        "a2a.push.attempts": 1,
      });
      expect(delivery.links.map((l) => l.context.spanId)).toContain(server.spanContext().spanId);
    }
    // Each POST carried the traceparent of its delivery span.
    const sent = webhookHits.map((h) => String(h.headers["traceparent"]));
    expect(sent).toHaveLength(deliveries.length);
    for (const delivery of deliveries)
      expect(sent).toContain(
        `00-${delivery.spanContext().traceId}-${delivery.spanContext().spanId}-01`,
      );
  });
});

describe("without tracing", () => {
  it("nothing the servers, clients and task runtime load imports @opentelemetry/api", async () => {
    const root = repoRoot;
    const entry = [
      "generated-example/gen/a2a_a2a_jsonrpc_server.ts",
      "generated-example/gen/a2a_a2a_jsonrpc_client.ts",
      "generated-example/gen/a2a_a2a_rest_server.ts",
      "generated-example/gen/a2a_a2a_rest_client.ts",
      "generated-example/gen/a2a_a2a_grpc_server.ts",
      "generated-example/gen/a2a_a2a_grpc_client.ts",
      "generated-example/gen/a2a_a2a_agent_client.ts",
      "generated-example/gen/a2a_a2a_task_handler.ts",
    ]
      .map((file) => `export * from ${JSON.stringify(join(root, file))};`)
      .concat(
        [
          "",
          "/http",
          "/task",
          "/client",
          "/binding",
          "/grpc",
          "/grpc-js",
          "/sqlite",
          "/postgres",
        ].map((sub, i) => `export * as e${i} from "@protoc-gen-a2a/runtime${sub}";`),
      )
      .join("\n");
    const result = await build({
      stdin: { contents: entry, resolveDir: root, loader: "ts" },
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      packages: "external",
      plugins: [runtimeSources(join(root, "runtime"))],
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes("runtime/src/pipeline/server-pipeline.ts"))).toBe(true);
    expect(inputs.filter((p) => p.includes("runtime/src/otel/"))).toEqual([]);
    const externals = Object.values(result.metafile.outputs).flatMap((o) =>
      o.imports.map((i) => i.path),
    );
    expect(externals.filter((p) => p.includes("opentelemetry"))).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toContain("@opentelemetry");
  }, 60_000);
});

describe("the logger option", () => {
  it("a handler failure's InternalError is logged to the given logger, not to the console", async () => {
    const failing: Partial<A2AServiceHandler> = {
      getTask: async () => {
        throw new Error("boom");
      },
    };
    const logged: unknown[][] = [];
    const logger: Logger = { error: (...args: unknown[]) => logged.push(args) };
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const server = createA2AServiceJsonRpcServer(failing as A2AServiceHandler, { logger });
      const listening = await listen(serveNode(server.handler));
      try {
        const error = await new A2AServiceJsonRpcClient({ url: listening.url })
          .getTask({ id: "t" })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect((error as { reason?: string }).reason).toBe("INTERNAL");
      } finally {
        await listening.close();
      }
      expect(logged).toHaveLength(1);
      expect(logged[0]![0]).toBe("GetTask: handler failed");
      expect((logged[0]![1] as Error).message).toBe("boom");
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });

  it("the task runtime's and the push sender's reports go to their logger", async () => {
    const errors: string[] = [];
    const warnings: string[] = [];
    const logger: Logger = { error: (m) => errors.push(m), warn: (m) => warnings.push(m) };
    const consoleSpies = [
      vi.spyOn(console, "error").mockImplementation(() => {}),
      vi.spyOn(console, "warn").mockImplementation(() => {}),
    ];
    try {
      const taskStore = new InMemoryTaskStore();
      const sender = createPushNotificationSender({
        store: taskStore,
        schemas: { StreamResponse: StreamResponseSchema },
        allowPrivateNetworks: true,
        maxRetries: 0,
        fetch: async () => new Response(null, { status: 400 }),
        logger,
      });
      const tasks = createA2AServiceTaskHandler({
        store: taskStore,
        capabilities: { pushNotifications: true },
        onTaskEvent: (notice) => {
          sender.onTaskEvent(notice);
          throw new Error("hook bug");
        },
        logger,
        executor: { execute: (_request, emitter) => emitter.complete() },
      });
      const { createCallContext } = await import("@protoc-gen-a2a/runtime");
      await tasks.sendMessage(
        sendRequest(
          "x",
          {},
          {
            taskPushNotificationConfig: create(TaskPushNotificationConfigSchema, {
              url: "http://127.0.0.1:9/hook",
            }),
          },
        ),
        createCallContext({ operation: "SendMessage", binding: "JSONRPC" }),
      );
      await eventually(() => warnings.length > 0 && errors.length > 0);
      await sender.close();
      expect(errors[0]).toMatch(/^task runtime: onTaskEvent of task /);
      expect(warnings[0]).toMatch(
        /^push notification for task .* failed \(http-status 400, 1 attempt\(s\)\)/,
      );
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });
});

/** An esbuild plugin: the runtime's entry points from their sources (the "@protoc-gen-a2a/source" condition, its Node form). */
function runtimeSources(runtimeDir: string) {
  const { exports } = JSON.parse(readFileSync(join(runtimeDir, "package.json"), "utf8")) as {
    exports: Record<string, Record<string, string | Record<string, string>>>;
  };
  return {
    name: "runtime-sources",
    setup(b: {
      onResolve(
        options: { filter: RegExp },
        callback: (args: { path: string }) => { path: string },
      ): void;
    }) {
      b.onResolve({ filter: /^@protoc-gen-a2a\/runtime(\/|$)/ }, (args) => {
        const target =
          exports[`.${args.path.slice("@protoc-gen-a2a/runtime".length)}`]?.[
            "@protoc-gen-a2a/source"
          ];
        const file = typeof target === "string" ? target : target?.["default"];
        if (file === undefined) throw new Error(`${args.path}: no such entry point`);
        return { path: join(runtimeDir, file) };
      });
    },
  };
}
