/**
 * The server of bench/slow-readers-grpc.mjs, one per process (bundled by it with esbuild, against the
 * tree it is told: this one, or another checkout for "before" figures). `node server.mjs '<config>'`
 * with an IPC channel; config: `{ stack, sizeMb, stalledWriteTimeoutMs }`, stack one of
 * - grpc-js:      the generated listenA2AServiceGrpc (h2c);
 * - connect:      createA2AServiceGrpcRoutes on listenGrpc (h2c; GetTask on its lean path);
 * - connect-http: createA2AServiceGrpcRoutes on mountConnectRoutes under /c of a node:http server.
 * GetTask of any id answers a task whose artifact holds `sizeMb` MiB of text (one string, shared: what
 * each call holds is its encoded answer). The server sends `{ ready: true, port }`, answers
 * `{ cmd: "mem", gc }` with `{ mem: process.memoryUsage(), served, budget }` (after a full GC when `gc`; `served`:
 * the GetTask calls answered so far; `budget`: the totals of the write budget the stack counts in, 64 MiB, or
 * null on a tree without WriteBudget), and exits with its parent.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { create } from "@bufbuild/protobuf";
import { ArtifactSchema, TaskSchema, TaskState } from "../../generated-example/gen/a2a_pb.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../generated-example/gen/a2a_a2a_grpc_server.js";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { listenGrpc, mountConnectRoutes } from "@protoc-gen-a2a/runtime/grpc";
import * as runtime from "@protoc-gen-a2a/runtime";

interface Config {
  readonly stack: "grpc-js" | "connect" | "connect-http";
  readonly sizeMb: number;
  readonly stalledWriteTimeoutMs: number;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const config = JSON.parse(process.argv[2] ?? "{}") as Config;
const text = "x".repeat(config.sizeMb * 1024 * 1024);
const quiet = { error() {} };
/** GetTask calls answered so far. */
let served = 0;
// Only GetTask is called.
const handler = {
  async getTask(request: { id: string }) {
    served++;
    return create(TaskSchema, {
      id: request.id,
      contextId: "c-1",
      status: { state: TaskState.COMPLETED },
      artifacts: [
        create(ArtifactSchema, {
          artifactId: "big",
          parts: [{ content: { case: "text", value: text } }],
        }),
      ],
    });
  },
} as unknown as A2AServiceHandler<unknown>;

/**
 * The write budget (64 MiB, the default), made here to read its totals: a tree without WriteBudget
 * (before issue #25) has none, and `budget` in the answers is then null.
 */
const WriteBudgetClass = (runtime as Partial<typeof runtime>).WriteBudget;
const writeBudget =
  WriteBudgetClass === undefined ? undefined : new WriteBudgetClass(64 * 1024 * 1024);

async function start(): Promise<number> {
  const stalledWriteTimeoutMs = config.stalledWriteTimeoutMs;
  switch (config.stack) {
    case "grpc-js":
      return (
        await listenA2AServiceGrpc(handler, {
          logger: quiet,
          listen: { stalledWriteTimeoutMs, writeBudget } as object,
        })
      ).port;
    case "connect":
      return (
        await listenGrpc(createA2AServiceGrpcRoutes(handler, { logger: quiet }), {
          stalledWriteTimeoutMs,
          writeBudget,
        })
      ).port;
    case "connect-http": {
      const server = createServer(
        mountConnectRoutes(
          createA2AServiceGrpcRoutes(handler, { logger: quiet }),
          (_req, res) => res.writeHead(404).end(),
          { prefix: "/c", stalledWriteTimeoutMs, writeBudget },
        ),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return (server.address() as AddressInfo).port;
    }
  }
}

process.on("disconnect", () => process.exit(0));
process.on("message", (m: { cmd?: string; gc?: boolean }) => {
  if (m.cmd !== "mem") return;
  if (m.gc === true) {
    gc();
    gc();
  }
  process.send?.({ mem: process.memoryUsage(), served, budget: writeBudget?.stats ?? null });
});
const port = await start();
process.send?.({ ready: true, port });
