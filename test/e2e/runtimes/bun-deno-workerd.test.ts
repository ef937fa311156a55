/**
 * The starter agent of `protoc-gen-a2a init` (memory store) on Bun (`Bun.serve`), Deno (`Deno.serve`)
 * and workerd (a module worker, through miniflare), each a child process on 127.0.0.1, called from
 * Node with the generated clients on JSON-RPC and HTTP+JSON (test/support/runtime-agents.ts builds
 * the project: init, buf generate with import_extension=ts and task_store=sqlite+postgres, esbuild).
 *
 * Per runtime: the Agent Card (connectA2AService from it, both bindings); SendMessage, GetTask and
 * SendStreamingMessage with every event; streams and a blocking call with a 12 s quiet gap (longer
 * than Bun's default idleTimeout of 10 s, and than no keep-alive: the servers' come every 15 s);
 * the binding-equivalence kit (every group but "cancellation", which watches the reference agent in
 * this process) with the runtime's JSON-RPC and HTTP+JSON as candidates against Node's JSON-RPC;
 * and what the runtime printed (Deno: no warning about request.signal, no sloppy imports; Bun: no
 * idle-timeout warning; workerd: a bundle without `node:` imports although the store factories are
 * generated).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formatEquivalenceReport } from "@protoc-gen-a2a/runtime/testing";
import { serveFetch } from "../../../runtime/src/http/fetch-adapter.js";
import { connectA2AService } from "../../../generated-example/gen/a2a_a2a_agent_client.js";
import {
  A2AServiceReferenceBindings,
  checkA2AServiceBindingEquivalence,
} from "../../../generated-example/gen/a2a_a2a_equivalence.js";
import type { A2AServiceClient } from "../../../generated-example/gen/a2a_a2a_handler.js";
import { A2AServiceJsonRpcClient } from "../../../generated-example/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "../../../generated-example/gen/a2a_a2a_rest_client.js";
import {
  Role,
  TaskState,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from "../../../generated-example/gen/a2a_pb.js";
import { join } from "node:path";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import {
  bunBinary,
  buildRuntimeProject,
  denoBinary,
  nodeImportsOf,
  remoteKitBindings,
  removeProject,
  startServer,
  type RuntimeProject,
  type RuntimeServer,
} from "../../support/runtime-agents.js";
import { repoRoot } from "../../support/plugin-runner.js";

/** The quiet gap of the idle tests: longer than Bun's default idleTimeout (10 s). */
const IDLE_GAP_MS = 12_000;

const message = (text: string): SendMessageRequest =>
  ({
    message: {
      messageId: crypto.randomUUID(),
      role: Role.USER,
      parts: [{ content: { case: "text", value: text } }],
    },
  }) as unknown as SendMessageRequest;

const echoOf = (task: Task): string | undefined => {
  const content = task.artifacts[0]?.parts[0]?.content;
  return content?.case === "text" ? content.value : undefined;
};

/** An event as "kind" or "kind:STATE". */
function kind(event: StreamResponse): string {
  const p = event.payload;
  if (p.case === "task") return `task:${TaskState[p.value.status?.state ?? 0]}`;
  if (p.case === "statusUpdate") return `statusUpdate:${TaskState[p.value.status?.state ?? 0]}`;
  return p.case ?? "none";
}

/** Every event of a stream, with the time each came (ms since the call). */
async function collect(
  events: AsyncIterable<StreamResponse>,
): Promise<{ kinds: string[]; at: number[]; last: StreamResponse | undefined }> {
  const start = Date.now();
  const kinds: string[] = [];
  const at: number[] = [];
  let last: StreamResponse | undefined;
  for await (const event of events) {
    kinds.push(kind(event));
    at.push(Date.now() - start);
    last = event;
  }
  return { kinds, at, last };
}

/** The events of the starter's echo: the task, WORKING, the artifact, COMPLETED. */
const ECHO_EVENTS = [
  "task:SUBMITTED",
  "statusUpdate:WORKING",
  "artifactUpdate",
  "statusUpdate:COMPLETED",
];

describe("serveFetch on Bun and Deno, without the runtimes", () => {
  const echo = serveFetch(async (request) => ({
    status: 200,
    headers: [],
    body: `${request.method} ${(await request.readBody(1024)) === "too-large" ? "big" : "ok"}`,
  }));
  const slow = serveFetch(async (request) => {
    request.signal.addEventListener("abort", () => {});
    return { status: 200, headers: [], body: "ok" };
  });
  /** Bun's server as serveFetch sees it: `timeout()` calls are recorded. */
  const bunServer = () => {
    const calls: [string, number][] = [];
    return {
      calls,
      server: {
        timeout: (request: Request, seconds: number) => calls.push([request.method, seconds]),
        requestIP: () => null,
      },
    };
  };

  it("lifts Bun's idle timeout once the request is read: at once without a body, after the body otherwise", async () => {
    const get = bunServer();
    expect(await (await echo(new Request("http://x/"), get.server)).text()).toBe("GET ok");
    expect(get.calls).toEqual([["GET", 0]]);
    const post = bunServer();
    expect(
      await (
        await echo(new Request("http://x/", { method: "POST", body: "hello" }), post.server)
      ).text(),
    ).toBe("POST ok");
    expect(post.calls).toEqual([["POST", 0]]);
    // A body over the limit is not read: the idle timeout stays.
    const big = bunServer();
    expect(
      await (
        await echo(new Request("http://x/", { method: "POST", body: "x".repeat(2048) }), big.server)
      ).text(),
    ).toBe("POST big");
    expect(big.calls).toEqual([]);
    // bunIdleTimeoutSeconds sets another value; Workers' env and Deno's info are not Bun's server.
    const custom = bunServer();
    await serveFetch(async () => ({ status: 204, headers: [], body: "" }), {
      bunIdleTimeoutSeconds: 120,
    })(new Request("http://x/"), custom.server);
    expect(custom.calls).toEqual([["GET", 120]]);
    expect(await (await echo(new Request("http://x/"), { DB: {}, timeout: "1" })).text()).toBe(
      "GET ok",
    );
  });

  it("on Deno, does not read request.signal (Deno.serve warns about it)", async () => {
    vi.stubGlobal("Deno", { version: { deno: "2.9.6" } });
    try {
      // A fresh copy of the module (a query of its own), which sees Deno when it loads.
      const fresh = "../../../runtime/src/http/fetch-adapter.js?on-deno";
      const { serveFetch: serveFetchOnDeno } = (await import(
        /* @vite-ignore */ fresh
      )) as typeof import("../../../runtime/src/http/fetch-adapter.js");
      let read = 0;
      const request = new Request("http://x/");
      Object.defineProperty(request, "signal", {
        get: () => {
          read++;
          return new AbortController().signal;
        },
      });
      const handler = serveFetchOnDeno(async (r) => {
        expect(r.signal.aborted).toBe(false);
        return { status: 200, headers: [], body: "ok" };
      });
      expect(await (await handler(request)).text()).toBe("ok");
      expect(read).toBe(0);
      // Elsewhere it is the handler's signal.
      expect(await (await slow(request)).text()).toBe("ok");
      expect(read).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

let project: RuntimeProject | undefined;
const servers: RuntimeServer[] = [];

beforeAll(async () => {
  project = await buildRuntimeProject();
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(servers.map((s) => s.close()));
  removeProject(project);
}, 30_000);

const built = (): RuntimeProject => {
  if (project === undefined) throw new Error("the runtime project was not built");
  return project;
};

/** The suite every runtime gets. */
function runtimeSuite(
  name: string,
  start: (project: RuntimeProject) => Promise<RuntimeServer>,
  more: (server: () => RuntimeServer) => void,
): void {
  describe(`the init starter on ${name}`, () => {
    let server: RuntimeServer | undefined;
    const running = (): RuntimeServer => {
      if (server === undefined) throw new Error(`${name} did not start`);
      return server;
    };
    const clients = (): Record<"JSONRPC" | "HTTP+JSON", A2AServiceClient> => ({
      JSONRPC: new A2AServiceJsonRpcClient({ url: `${running().url}/a2a/jsonrpc` }),
      "HTTP+JSON": new A2AServiceRestClient({ url: `${running().url}/a2a/rest` }),
    });

    beforeAll(async () => {
      server = await start(built());
      servers.push(server);
    }, 60_000);

    it("serves the Agent Card: connectA2AService picks each binding from it and gets the echo", async () => {
      for (const binding of ["JSONRPC", "HTTP+JSON"] as const) {
        const agent = await connectA2AService(running().url, { bindings: [binding] });
        expect(agent.interface.protocolBinding).toBe(binding);
        expect(agent.interface.url.startsWith(`${running().url}/a2a/`)).toBe(true);
        expect(agent.card.capabilities?.streaming).toBe(true);
        const sent = await agent.client.sendMessage(message(`card ${binding}`));
        expect(sent.payload.case).toBe("task");
        expect(echoOf(sent.payload.value as Task)).toBe(`echo: card ${binding}`);
      }
    });

    for (const binding of ["JSONRPC", "HTTP+JSON"] as const) {
      it(`${binding}: SendMessage, GetTask and SendStreamingMessage (every event)`, async () => {
        const client = clients()[binding];
        const sent = await client.sendMessage(message(`hi ${binding}`));
        if (sent.payload.case !== "task")
          throw new Error(`SendMessage answered ${sent.payload.case}`);
        expect(sent.payload.value.status?.state).toBe(TaskState.COMPLETED);
        expect(echoOf(sent.payload.value)).toBe(`echo: hi ${binding}`);
        const got = await client.getTask({ id: sent.payload.value.id } as never);
        expect(got.id).toBe(sent.payload.value.id);
        expect(got.status?.state).toBe(TaskState.COMPLETED);
        expect(echoOf(got)).toBe(`echo: hi ${binding}`);
        const stream = await collect(client.sendStreamingMessage(message(`stream ${binding}`)));
        expect(stream.kinds).toEqual(ECHO_EVENTS);
        const artifact = (await collect(client.sendStreamingMessage(message("again")))).kinds;
        expect(artifact).toEqual(ECHO_EVENTS);
      });
    }

    it(`keeps streams and a blocking call open through a ${IDLE_GAP_MS / 1000} s quiet gap (JSON-RPC and HTTP+JSON)`, async () => {
      const { JSONRPC, "HTTP+JSON": REST } = clients();
      const idle = `idle:${IDLE_GAP_MS}`;
      const started = Date.now();
      const [jsonrpc, rest, blocking] = await Promise.all([
        collect(JSONRPC.sendStreamingMessage(message(idle))),
        collect(REST.sendStreamingMessage(message(idle))),
        REST.sendMessage(message(idle)),
      ]);
      for (const stream of [jsonrpc, rest]) {
        // The executor's own WORKING, then the starter's (after the gap), its artifact and COMPLETED.
        expect(stream.kinds).toEqual([
          "task:SUBMITTED",
          "statusUpdate:WORKING",
          "statusUpdate:WORKING",
          "artifactUpdate",
          "statusUpdate:COMPLETED",
        ]);
        const gap = (stream.at[2] as number) - (stream.at[1] as number);
        expect(gap).toBeGreaterThanOrEqual(IDLE_GAP_MS - 500);
      }
      if (blocking.payload.case !== "task")
        throw new Error(`SendMessage answered ${blocking.payload.case}`);
      expect(blocking.payload.value.status?.state).toBe(TaskState.COMPLETED);
      expect(echoOf(blocking.payload.value)).toBe(`echo: ${idle}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_GAP_MS - 500);
    });

    it("passes the binding-equivalence kit (every group but cancellation) on JSON-RPC and HTTP+JSON against Node's JSON-RPC", async () => {
      const remote = remoteKitBindings(running().url);
      const report = await checkA2AServiceBindingEquivalence({
        references: { JSONRPC: A2AServiceReferenceBindings.JSONRPC },
        candidates: {
          [`${name} JSONRPC`]: remote.JSONRPC,
          [`${name} HTTP+JSON`]: remote["HTTP+JSON"],
        },
        scenarios: (s) => s.group !== "cancellation",
      });
      if (!report.ok) console.log(formatEquivalenceReport(report));
      expect(report.failures).toEqual([]);
      const groups = new Set(report.scenarios.map((s) => s.group));
      expect(groups).toEqual(
        new Set(["operations", "streaming", "errors", "call context", "validation"]),
      );
      for (const candidate of [`${name} JSONRPC`, `${name} HTTP+JSON`]) {
        const cells = report.cells.filter((c) => c.binding === candidate);
        expect(cells).toHaveLength(report.scenarios.length);
        expect(
          cells.filter((c) => c.status !== "pass").map((c) => `${c.scenario}: ${c.status}`),
        ).toEqual([]);
      }
    });

    more(running);
  });
}

runtimeSuite(
  "Bun",
  (p) =>
    startServer("bun", bunBinary(), ["--conditions=@protoc-gen-a2a/source", p.bunEntry], p.dir),
  (server) => {
    it("printed no idle-timeout warning", () => {
      expect(server().stderr()).not.toMatch(/timed out/i);
      expect(server().stderr()).toBe("");
    });
  },
);

runtimeSuite(
  "Deno",
  (p) =>
    startServer(
      "deno",
      denoBinary(),
      [
        "run",
        "--config",
        p.denoConfig,
        "--allow-net=127.0.0.1",
        "--no-remote",
        "--no-npm",
        p.denoEntry,
      ],
      p.dir,
      {
        DENO_DIR: join(p.dir, ".deno"),
        NO_COLOR: "1",
      },
    ),
  (server) => {
    it("runs the generated TypeScript without --sloppy-imports, and printed nothing (no request.signal warning)", () => {
      expect(server().stderr()).not.toMatch(/request\.signal|sloppy/);
      expect(server().stderr()).toBe("");
    });
  },
);

runtimeSuite(
  "workerd",
  (p) => {
    // miniflare in a Node child of its own: it runs workerd (a child of that) and says where it listens.
    const runner = join(p.dir, "miniflare-runner.mjs");
    writeFileSync(
      runner,
      `import { Miniflare } from ${JSON.stringify(join(repoRoot, "node_modules/miniflare/dist/src/index.js"))};
const mf = new Miniflare({ modules: true, scriptPath: ${JSON.stringify(p.workerBundle)}, compatibilityDate: "2025-09-01", host: "127.0.0.1", port: 0 });
const url = await mf.ready;
console.log("listening " + url.origin);
const stop = () => mf.dispose().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
`,
    );
    return startServer("miniflare", process.execPath, [runner], p.dir);
  },
  (server) => {
    it("printed no error (no I/O across requests, no uncaught exception)", () => {
      expect(server().stderr()).not.toMatch(/different request|Uncaught|Error/);
    });

    it("bundles without a node: import (no nodejs_compat), though the project generates the SQLite and PostgreSQL store factories", () => {
      expect(existsSync(join(built().dir, "src/gen/a2a_a2a_sqlite_task_store.ts"))).toBe(true);
      expect(existsSync(join(built().dir, "src/gen/a2a_a2a_postgres_task_store.ts"))).toBe(true);
      expect(nodeImportsOf(built().workerBundle)).toEqual([]);
      expect(readFileSync(built().workerBundle, "utf8")).not.toMatch(
        /better-sqlite3|SqliteTaskStore|PostgresTaskStore/,
      );
    });
  },
);
