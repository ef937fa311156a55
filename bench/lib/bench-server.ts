/**
 * What the bench server entries (bench/{jsonrpc,rest,grpc}/server.ts) share: the handler methods no benchmark
 * calls, the first text of a Message, and the child-process side of the IPC protocol of bench/lib/children.mjs.
 */
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import type { A2AServiceHandler } from "../../generated-example/gen/a2a_a2a_handler.js";
import { UnsupportedOperationError } from "../../generated-example/gen/a2a_a2a_errors.js";
import type { Message, StreamResponse } from "../../generated-example/gen/a2a_pb.js";

export function firstText(message: Message | undefined): string {
  const content = message?.parts[0]?.content;
  return content?.case === "text" ? content.value : "";
}

export const unsupported = async (): Promise<never> => {
  throw new UnsupportedOperationError("not part of the benchmark");
};

function unsupportedStream(): AsyncIterable<StreamResponse> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.reject(new UnsupportedOperationError("not part of the benchmark")),
    }),
  };
}

/** Every handler method but sendMessage, each throwing UnsupportedOperationError; a server overrides what it serves. */
export const notBenchmarked: Omit<A2AServiceHandler, "sendMessage"> = {
  sendStreamingMessage: unsupportedStream,
  getTask: unsupported,
  listTasks: unsupported,
  cancelTask: unsupported,
  subscribeToTask: unsupportedStream,
  createTaskPushNotificationConfig: unsupported,
  getTaskPushNotificationConfig: unsupported,
  listTaskPushNotificationConfigs: unsupported,
  getExtendedAgentCard: unsupported,
  deleteTaskPushNotificationConfig: unsupported,
};

/** Starts `listener` on node:http at 127.0.0.1 (a free port); resolves the port. */
export function listenHttp(listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

/**
 * The child side: starts the server of kind `process.argv[2]` from `starters`, sends `{ ready: true, kind, port }`
 * over IPC, answers `{ cmd: "cpu" }` with `{ cpu: <user+system µs so far> }`, and exits with the parent.
 */
export function runBenchServer(
  script: string,
  starters: Record<string, () => Promise<number>>,
): void {
  const kind = process.argv[2] ?? "";
  const start = starters[kind];
  if (start === undefined || process.send === undefined) {
    console.error(
      `usage: node ${script} <${Object.keys(starters).join("|")}> (spawned with an IPC channel)`,
    );
    process.exit(2);
  }
  // Exit with the parent, whatever way it ended (the IPC channel closes even on SIGKILL).
  process.on("disconnect", () => process.exit(0));
  process.on("message", (m: { cmd?: string } | null) => {
    if (m?.cmd === "cpu") {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpu: user + system });
    }
  });
  start().then(
    (port) => process.send?.({ ready: true, kind, port }),
    (e: unknown) => {
      console.error(`${kind}: failed to start`, e);
      process.exit(1);
    },
  );
}
