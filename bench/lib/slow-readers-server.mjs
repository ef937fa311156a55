// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The server of bench/slow-readers-http.mjs (bundled by it, the runtime from the tree it names): a
// createA2AHttpServer + serveNode listener on 127.0.0.1 whose every GET is answered with a buffered JSON
// body of --body-mib MiB, encoded anew for each request as a large GetTask would be. Over IPC: "ready" with
// its port, then its memory, open connections and (when the runtime has it) pendingWriteStats on request.
import * as runtime from "@protoc-gen-a2a/runtime/http";

const [bodyMib, timeoutMs] = process.argv.slice(2).map(Number);
const text = "y".repeat(bodyMib * 1024 * 1024 - 200);
const task = {
  id: "t-big",
  contextId: "c",
  status: { state: "TASK_STATE_COMPLETED" },
  artifacts: [{ artifactId: "a", parts: [{ text }] }],
};
const handler = async () => ({
  status: 200,
  headers: [["content-type", "application/json"]],
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: task }),
});
const listener = runtime.serveNode(handler, { stalledWriteTimeoutMs: timeoutMs });
const server = runtime.createA2AHttpServer({}, listener);
let connections = 0;
server.on("connection", (socket) => {
  connections++;
  socket.on("close", () => connections--);
});
server.listen(0, "127.0.0.1", () => {
  process.send({
    ready: true,
    port: server.address().port,
    budget: runtime.DEFAULT_MAX_PENDING_WRITE_BYTES ?? null,
  });
});
process.on("message", (m) => {
  if (m?.cmd !== "stats") return;
  if (m.gc) globalThis.gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.send({
    stats: {
      rss,
      heapUsed,
      external,
      arrayBuffers,
      connections,
      pending: runtime.pendingWriteStats?.(listener) ?? null,
    },
  });
});
process.on("disconnect", () => process.exit(0));
