/**
 * A second custom binding from the same scaffold (generated-example/bindings/stdio/): A2A in JSON
 * lines between a parent and a child process, to show that the scaffold is not shaped around
 * WebSocket. The child is the example agent's executor (stdio-agent.ts, bundled with esbuild);
 * the parent calls it through `A2AServiceStdioClient`: unary and streaming calls, typed errors,
 * connection-level (environment) and per-line service parameters, cancellation, unreadable lines,
 * and the child exiting.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isA2AError } from "@protoc-gen-a2a/runtime";
import { Role, TaskState, type StreamResponse } from "../../../generated-example/gen/a2a_pb.js";
import {
  TaskNotFoundError,
  UnauthenticatedError,
  VersionNotSupportedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  A2AServiceStdioClient,
  connectStdio,
  type StdioProcessConnection,
} from "../../../generated-example/bindings/stdio/stdio-client.js";
import { repoRoot } from "../../support/repo-root.js";

const root = repoRoot;
const bundle = join(root, "node_modules/.cache/stdio-agent/stdio-agent.mjs");
const opened: StdioProcessConnection[] = [];
const agent = (serviceParameters?: Record<string, string>) => {
  const c = connectStdio(process.execPath, { args: [bundle], serviceParameters });
  opened.push(c);
  return c;
};

beforeAll(async () => {
  await build({
    entryPoints: [join(root, "generated-example/bindings/stdio/stdio-agent.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The runtime from its sources (as vitest runs it); the other packages from node_modules.
    conditions: ["@protoc-gen-a2a/source"],
    external: [
      "@bufbuild/*",
      "@connectrpc/*",
      "@grpc/*",
      "better-sqlite3",
      "swagger-ui-dist",
      "ws",
    ],
    logLevel: "warning",
  });
});
afterAll(() => Promise.all(opened.map((c) => c.close())));

const message = (text: string) => ({
  message: {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text" as const, value: text } }],
  },
});
const stateOf = (e: StreamResponse) =>
  e.payload.case === "task"
    ? e.payload.value.status?.state
    : e.payload.case === "statusUpdate"
      ? e.payload.value.status?.state
      : undefined;

describe("A2A over stdio (JSON lines to a child process)", () => {
  it("unary and streaming calls, typed errors, over one child", async () => {
    const c = agent();
    const client = new A2AServiceStdioClient({ connection: c });
    const reply = await client.sendMessage(message("tck-message-response over stdio"));
    expect(reply.payload.case).toBe("message");
    const events: StreamResponse[] = [];
    for await (const e of client.sendStreamingMessage(message("tck-stream-chunked stdio")))
      events.push(e);
    expect(events.filter((e) => e.payload.case === "artifactUpdate")).toHaveLength(3);
    expect(stateOf(events.at(-1)!)).toBe(TaskState.COMPLETED);
    const taskId = events[0]?.payload.case === "task" ? events[0].payload.value.id : "";
    expect((await client.getTask({ id: taskId })).status?.state).toBe(TaskState.COMPLETED);
    await expect(client.getTask({ id: "missing" })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(
      new A2AServiceStdioClient({ connection: c, version: "9.9" }).getTask({ id: "x" }),
    ).rejects.toBeInstanceOf(VersionNotSupportedError);
    expect(c.child?.pid).toBeGreaterThan(0);
  });

  it("service parameters at start (the child's environment) and per line, the line's winning", async () => {
    const bad = agent({ authorization: "Bearer wrong" });
    await expect(
      new A2AServiceStdioClient({ connection: bad }).sendMessage(message("hi")),
    ).rejects.toBeInstanceOf(UnauthenticatedError);
    const good = new A2AServiceStdioClient({
      connection: bad,
      headers: { authorization: "Bearer secret" },
    });
    expect((await good.sendMessage(message("tck-message-response hi"))).payload.case).toBe(
      "message",
    );
  });

  it("an abort cancels the stream in the child (its next call is served); the child exiting fails its calls and the next call starts a new one", async () => {
    const c = agent();
    const client = new A2AServiceStdioClient({ connection: c });
    const abort = new AbortController();
    const stream = client
      .sendStreamingMessage({ ...message("tck-cancel stdio") }, { signal: abort.signal })
      [Symbol.asyncIterator]();
    const first = await stream.next();
    const taskId = first.value?.payload.case === "task" ? first.value.payload.value.id : "";
    abort.abort(new Error("stop"));
    await expect(stream.next()).rejects.toThrow("stop");
    expect((await client.cancelTask({ id: taskId })).status?.state).toBe(TaskState.CANCELED);
    const pid = c.child?.pid;
    const running = client
      .sendStreamingMessage(message("tck-cancel again"))
      [Symbol.asyncIterator]();
    await running.next();
    const rest = (async () => {
      for (let r = await running.next(); r.done !== true; r = await running.next());
    })().then(
      () => "ended",
      (e: unknown) => e,
    );
    c.child?.kill();
    const e = await rest;
    expect(isA2AError(e) && e.spec.grpcCode).toBe(14);
    expect((await client.sendMessage(message("tck-message-response back"))).payload.case).toBe(
      "message",
    );
    expect(c.child?.pid).not.toBe(pid);
  });

  it("unreadable lines are answered with id null; the child keeps serving", async () => {
    const child = spawn(process.execPath, [bundle], { stdio: ["pipe", "pipe", "inherit"] });
    const lines: Record<string, unknown>[] = [];
    let wake: () => void = () => undefined;
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        lines.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
        buffered = buffered.slice(nl + 1);
      }
      wake();
    });
    const next = async (): Promise<Record<string, unknown>> => {
      while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return lines.shift()!;
    };
    child.stdin.write("not json\n");
    expect(await next()).toMatchObject({ id: null, error: { code: -32700 } });
    child.stdin.write(`${JSON.stringify({ method: "GetTask" })}\n`);
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    child.stdin.write(`${JSON.stringify({ id: 1, method: "Nope" })}\n`);
    expect(await next()).toMatchObject({ id: 1, error: { code: -32601 } });
    child.stdin.write(
      `${JSON.stringify({ id: 2, method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "tck-message-response ok" }] } } })}\n`,
    );
    expect(await next()).toMatchObject({ id: 2, result: { message: { role: "ROLE_AGENT" } } });
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
