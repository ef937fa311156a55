/**
 * The example agent's executor served over stdio (the stdio binding): a process a parent starts
 * and talks to in JSON lines (`connectStdio(process.execPath, { args: [<this file, bundled>] })`).
 * Tasks live in memory for the life of the process; `Authorization: Bearer secret` (at start,
 * in A2A_SERVICE_PARAMETERS, or per line) is the only token, anything else is UnauthenticatedError.
 */
import type { AuthRequest } from "@protoc-gen-a2a/runtime";
import { UnauthenticatedError } from "../../gen/a2a_a2a_errors.js";
import { createA2AServiceTaskHandler } from "../../gen/a2a_a2a_task_handler.js";
import { createExampleExecutor } from "../../agent/echo-agent.js";
import { serveStdio } from "./stdio-server.js";

const shutdown = new AbortController();
const handler = createA2AServiceTaskHandler({
  executor: createExampleExecutor({ longRunningMs: 300, shutdown: shutdown.signal }),
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
});
const authenticate = ({ serviceParameters }: AuthRequest): undefined => {
  const header = serviceParameters.get("authorization");
  if (header !== undefined && header !== "Bearer secret")
    throw new UnauthenticatedError("Unknown bearer token");
  return undefined;
};
await serveStdio(handler, {
  versionWhenMissing: "1.0",
  authenticate,
  logger: { error: (m, e) => console.error(m, e) },
});
shutdown.abort();
process.exit(0);
