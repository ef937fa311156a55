/**
 * RFC 9110 §15.5.2: "The server generating a 401 (Unauthorized) response MUST send a
 * WWW-Authenticate header field containing at least one challenge." The generated JSON-RPC
 * and HTTP+JSON servers answer an UnauthenticatedError with 401 and a challenge (default
 * `Bearer`, or `authChallenge`), a PermissionDeniedError with 403 and none. Plain fetch
 * against real servers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createA2AServiceJsonRpcServer } from "../../../generated-example/gen/a2a_a2a_jsonrpc_server.js";
import { createA2AServiceRestServer } from "../../../generated-example/gen/a2a_a2a_rest_server.js";
import {
  PermissionDeniedError,
  UnauthenticatedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import type { AuthenticateFn } from "@protoc-gen-a2a/runtime";
import { TestAgent } from "../../support/test-agent.js";
import { listen, type Listening } from "../../support/servers.js";

const agent = new TestAgent();
/** No header: 401; "Bearer reader": served; anything else: 403. */
const authenticate: AuthenticateFn<{ user: string }> = ({ serviceParameters }) => {
  const header = serviceParameters.get("authorization");
  if (header === undefined) throw new UnauthenticatedError("a bearer token is required");
  if (header !== "Bearer reader") throw new PermissionDeniedError("this token may not do that");
  return { user: "reader" };
};
const quiet = { error() {} };
const servers: Record<string, Listening> = {};

beforeAll(async () => {
  servers["jsonrpc"] = await listen(
    createA2AServiceJsonRpcServer(agent, { authenticate, logger: quiet }).node,
  );
  servers["rest"] = await listen(
    createA2AServiceRestServer(agent, { authenticate, logger: quiet }).node,
  );
  servers["jsonrpc-basic"] = await listen(
    createA2AServiceJsonRpcServer(agent, {
      authenticate,
      authChallenge: 'Basic realm="agents", Bearer',
      logger: quiet,
    }).node,
  );
  servers["rest-basic"] = await listen(
    createA2AServiceRestServer(agent, {
      authenticate,
      authChallenge: 'Basic realm="agents", Bearer',
      logger: quiet,
    }).node,
  );
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

const V = { "a2a-version": "1.0", "content-type": "application/json" };
const getTask = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t" } });
const stream = JSON.stringify({
  jsonrpc: "2.0",
  id: 2,
  method: "SendStreamingMessage",
  params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hello" }] } },
});

/** The request each case sends, by server kind. */
function request(
  kind: string,
  what: "unary" | "stream",
  authorization?: string,
): Promise<Response> {
  const headers = { ...V, ...(authorization !== undefined ? { authorization } : {}) };
  const url = servers[kind]!.url.replace(/\/$/, "");
  if (kind.startsWith("jsonrpc"))
    return fetch(url, { method: "POST", headers, body: what === "unary" ? getTask : stream });
  return what === "unary"
    ? fetch(`${url}/tasks/t`, { headers })
    : fetch(`${url}/message:stream`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hello" }] },
        }),
      });
}

describe.each(["jsonrpc", "rest"])("%s", (kind) => {
  it.each(["unary", "stream"] as const)(
    "a %s call without credentials: 401 with WWW-Authenticate: Bearer",
    async (what) => {
      const res = await request(kind, what);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      const body = (await res.json()) as {
        error: { code: number; data?: { reason: string }[]; details?: { reason: string }[] };
      };
      expect((body.error.data ?? body.error.details)?.[0]?.reason).toBe("UNAUTHENTICATED");
    },
  );

  it("the challenge is the server's authChallenge when set", async () => {
    const res = await request(`${kind}-basic`, "unary");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="agents", Bearer');
  });

  it("403 (authenticated, not allowed) and a served call carry no challenge", async () => {
    const denied = await request(kind, "unary", "Bearer someone-else");
    expect(denied.status).toBe(403);
    expect(denied.headers.get("www-authenticate")).toBeNull();
    const served = await request(kind, "unary", "Bearer reader");
    expect(served.status).toBe(200);
    expect(served.headers.get("www-authenticate")).toBeNull();
  });
});
