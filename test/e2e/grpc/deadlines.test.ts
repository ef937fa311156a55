// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Deadlines and late results on the gRPC servers we start (issue #17, found by the fuzzer), on both
 * stacks (grpc-js: the generated listenA2AServiceGrpc; Connect: listenGrpc, lean path included, and
 * the Connect protocol mounted on an HTTP/1.1 port):
 *   - a handler that fails after its call's deadline passed leaves no unhandled rejection behind (it
 *     used to end the process: any client could kill the agent with `connect-timeout-ms: 1`);
 *   - a deadline longer than a Node timer holds (`grpc-timeout: 600H`, `99999999S`,
 *     `connect-timeout-ms: 9999999999`) is no practical deadline: the call succeeds, and no
 *     TimeoutOverflowWarning is printed (it used to fail at once with DEADLINE_EXCEEDED);
 *   - a call whose deadline passes while it is being authenticated is not dispatched;
 *   - listenGrpc answers a gRPC call of an unknown method UNIMPLEMENTED (grpc-status 12), not HTTP 404;
 *   - grpc-js's per-entry "Failed to add metadata entry" log lines (client text, at the client's rate)
 *     are dropped, and grpc-js's other lines still reach the logger set before;
 *   - gRPC and gRPC-web with the JSON codec are refused (415, INVALID_ARGUMENT) unless `jsonCodecs: true`:
 *     Connect left some bad JSON unanswered (a hang); the Connect protocol's JSON is still served.
 */
import { createServer, type Server } from "node:http";
import {
  connect as connectHttp2,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from "node:http2";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { setLogger } from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GetTaskRequestSchema } from "../../../generated-example/gen/a2a_pb.js";
import { TaskNotFoundError } from "../../../generated-example/gen/a2a_a2a_errors.js";
import {
  createA2AServiceGrpcRoutes,
  listenA2AServiceGrpc,
} from "../../../generated-example/gen/a2a_a2a_grpc_server.js";
import { listenGrpc, mountConnectRoutes, type GrpcEndpoint } from "@protoc-gen-a2a/runtime/grpc";
import type { CallContext } from "@protoc-gen-a2a/runtime";
import { TestAgent } from "../../support/test-agent.js";
import { frame } from "../../support/grpc-frames.js";

const SERVICE = "/lf.a2a.v1.A2AService";

/** grpc-js's logger for this file, set before any grpc-js server starts: what reaches it is recorded. */
const grpcJsLog: string[] = [];
setLogger({
  error: (...args: unknown[]) => grpcJsLog.push(args.map(String).join(" ")),
  info: () => {},
  debug: () => {},
});

/** GetTask of "slow-…" answers after 50 ms; of "late-fail" fails after 50 ms (past a 1 ms deadline). */
class SlowAgent extends TestAgent {
  dispatched = 0;
  override async getTask(
    request: { id: string; historyLength?: number },
    context: CallContext<{ user: string }>,
  ) {
    this.dispatched++;
    await new Promise((r) => setTimeout(r, 50));
    if (request.id === "late-fail")
      throw new TaskNotFoundError("Task late-fail not found", { metadata: { taskId: request.id } });
    return super.getTask(request, context);
  }
}

/** An auth hook that takes 30 ms when the caller sends `x-slow-auth` (so that a 1 ms deadline passes meanwhile). */
const authenticate = async ({
  serviceParameters,
}: {
  serviceParameters: { get(name: string): string | undefined };
}) => {
  if (serviceParameters.get("x-slow-auth") !== undefined)
    await new Promise((r) => setTimeout(r, 30));
  return { user: "u" };
};

interface Answer {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
}

function unary(
  session: ClientHttp2Session,
  path: string,
  id: string,
  headers: OutgoingHttpHeaders = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
      ...headers,
    });
    let answer: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    req.on("response", (h) => (answer = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", () => {});
    req.on("error", reject);
    req.on("close", () => resolve({ headers: answer, trailers }));
    req.end(frame(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id }))));
  });
}

const grpcStatus = (a: Answer) => a.trailers["grpc-status"] ?? a.headers["grpc-status"];

/** Records unhandled rejections and TimeoutOverflowWarnings while a test runs. */
const unhandled: unknown[] = [];
const warnings: string[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const onWarning = (w: Error) => {
  if (w.name === "TimeoutOverflowWarning") warnings.push(w.message);
};
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
  process.on("warning", onWarning);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  process.off("warning", onWarning);
});
afterEach(() => {
  unhandled.length = 0;
  warnings.length = 0;
});

/** Lets pending rejections and warnings surface (both are reported on later ticks). */
const settle = () => new Promise((r) => setTimeout(r, 150));

const options = { authenticate, logger: { error() {} } };
const stacks: [string, (agent: SlowAgent) => Promise<GrpcEndpoint>][] = [
  [
    "grpc-js (listenA2AServiceGrpc)",
    (agent) => listenA2AServiceGrpc(agent, { ...options, listen: {} }),
  ],
  ["Connect (listenGrpc)", (agent) => listenGrpc(createA2AServiceGrpcRoutes(agent, options))],
];

for (const [name, start] of stacks) {
  describe(name, () => {
    const agent = new SlowAgent();
    let endpoint: GrpcEndpoint;
    let session: ClientHttp2Session;
    beforeAll(async () => {
      endpoint = await start(agent);
      session = connectHttp2(`http://${endpoint.address}`);
    });
    afterAll(async () => {
      session.close();
      await endpoint.close();
    });

    it("a handler failing after the deadline passed: DEADLINE_EXCEEDED, no unhandled rejection", async () => {
      for (const timeout of ["1m", "1n"])
        expect(
          grpcStatus(
            await unary(session, `${SERVICE}/GetTask`, "late-fail", { "grpc-timeout": timeout }),
          ),
          timeout,
        ).toBe("4");
      await settle();
      expect(unhandled).toEqual([]);
    });

    it("a deadline longer than a timer holds is no practical deadline: the call succeeds, no TimeoutOverflowWarning", async () => {
      for (const timeout of ["600H", "99999999S", "99999999M", "35791M"]) {
        expect(
          grpcStatus(
            await unary(session, `${SERVICE}/GetTask`, "slow-1", { "grpc-timeout": timeout }),
          ),
          timeout,
        ).toBe("0");
      }
      await settle();
      expect(warnings).toEqual([]);
    });

    it("a call whose deadline passes while it is authenticated is not dispatched", async () => {
      const before = agent.dispatched;
      expect(
        grpcStatus(
          await unary(session, `${SERVICE}/GetTask`, "slow-2", {
            "grpc-timeout": "1m",
            "x-slow-auth": "1",
          }),
        ),
      ).toBe("4");
      await settle();
      expect(agent.dispatched).toBe(before);
      // Without the deadline, the same call is served.
      expect(
        grpcStatus(await unary(session, `${SERVICE}/GetTask`, "slow-3", { "x-slow-auth": "1" })),
      ).toBe("0");
      expect(agent.dispatched).toBe(before + 1);
    });
  });
}

describe("Connect protocol on an HTTP/1.1 port (mountConnectRoutes)", () => {
  const agent = new SlowAgent();
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(
      mountConnectRoutes(
        createA2AServiceGrpcRoutes(agent, options),
        (_req, res) => res.writeHead(404).end(),
        { prefix: "/a2a/connect" },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a/connect${SERVICE}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (id: string, timeoutMs: string) =>
    fetch(`${base}/GetTask`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "connect-protocol-version": "1",
        "connect-timeout-ms": timeoutMs,
        "a2a-version": "1.0",
      },
      body: JSON.stringify({ id }),
    });

  it("a handler failing after `connect-timeout-ms: 1` passed: deadline_exceeded, no unhandled rejection", async () => {
    const response = await post("late-fail", "1");
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ code: "deadline_exceeded" });
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("a connect-timeout-ms beyond a timer's range is no practical deadline", async () => {
    const response = await post("slow-4", "9999999999");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: "slow-4" });
    await settle();
    expect(warnings).toEqual([]);
  });
});

describe("listenGrpc and grpc-js: unknown methods and dropped metadata", () => {
  it("listenGrpc answers a gRPC call of an unknown method UNIMPLEMENTED (HTTP 200, grpc-status 12), a non-gRPC request 404", async () => {
    const endpoint = await listenGrpc(createA2AServiceGrpcRoutes(new TestAgent(), options));
    const session = connectHttp2(`http://${endpoint.address}`);
    try {
      const answer = await unary(session, "/lf.a2a.v1.A2AServic/GetTask", "t-1");
      expect(answer.headers[":status"]).toBe(200);
      expect(grpcStatus(answer)).toBe("12");
      const plain = await new Promise<number>((resolve, reject) => {
        const req = session.request({ ":method": "GET", ":path": "/nothing-here" });
        req.on("response", (h) => resolve(Number(h[":status"])));
        req.on("error", reject);
        req.resume();
        req.end();
      });
      expect(plain).toBe(404);
    } finally {
      session.close();
      await endpoint.close();
    }
  });

  it("grpc-js: a metadata entry it drops writes no log line; the call is served", async () => {
    const endpoint = await listenA2AServiceGrpc(new TestAgent(), { ...options, listen: {} });
    const session = connectHttp2(`http://${endpoint.address}`);
    try {
      grpcJsLog.length = 0;
      for (let i = 0; i < 5; i++)
        expect(
          grpcStatus(
            await unary(session, `${SERVICE}/GetTask`, "t-1", { "x&y": "1", [`k+${i}`]: "v" }),
          ),
        ).toBe("0");
      expect(grpcJsLog.filter((line) => line.includes("Failed to add metadata entry"))).toEqual([]);
      // grpc-js's other lines still reach the logger set before.
      const logging = (await import("@grpc/grpc-js/build/src/logging.js")) as unknown as {
        log: (severity: number, ...args: unknown[]) => void;
      };
      logging.log(2, "some other grpc-js error");
      expect(grpcJsLog.some((line) => line.includes("some other grpc-js error"))).toBe(true);
    } finally {
      session.close();
      await endpoint.close();
    }
  });
});

describe("gRPC and gRPC-web with the JSON codec (found by the fuzzer: Connect hangs on some bad JSON)", () => {
  // U+4D25D then "h": not JSON, and V8's parse error quotes a lone surrogate that Connect cannot percent-encode.
  const badJson = frame(Buffer.from([0xf2, 0x8d, 0xa9, 0x9d, 0x68]));

  it("listenGrpc refuses application/grpc+json at once (415, INVALID_ARGUMENT); with jsonCodecs: true it serves it", async () => {
    const refusing = await listenGrpc(createA2AServiceGrpcRoutes(new TestAgent(), options));
    const serving = await listenGrpc(createA2AServiceGrpcRoutes(new TestAgent(), options), {
      jsonCodecs: true,
    });
    const sessions = [
      connectHttp2(`http://${refusing.address}`),
      connectHttp2(`http://${serving.address}`),
    ] as const;
    const post = (session: ClientHttp2Session, body: Buffer) =>
      new Promise<Answer>((resolve, reject) => {
        const req = session.request({
          ":method": "POST",
          ":path": `${SERVICE}/ListTasks`,
          "content-type": "application/grpc+json",
          te: "trailers",
          "a2a-version": "1.0",
        });
        let headers: IncomingHttpHeaders = {};
        let trailers: IncomingHttpHeaders = {};
        req.on("response", (h) => (headers = h));
        req.on("trailers", (t) => (trailers = t));
        req.on("data", () => {});
        req.on("error", reject);
        req.on("close", () => resolve({ headers, trailers }));
        req.end(body);
      });
    try {
      const refused = await post(sessions[0], badJson);
      expect([refused.headers[":status"], grpcStatus(refused)]).toEqual([415, "3"]);
      expect(grpcStatus(await post(sessions[1], frame(Buffer.from("{}"))))).toBe("0");
    } finally {
      for (const s of sessions) s.close();
      await Promise.all([refusing.close(), serving.close()]);
    }
  });

  it("mountConnectRoutes refuses application/grpc-web+json (415, grpc-status 3); the Connect protocol's JSON is served", async () => {
    const server = createServer(
      mountConnectRoutes(
        createA2AServiceGrpcRoutes(new TestAgent(), options),
        (_req, res) => res.writeHead(404).end(),
        { prefix: "/c" },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/c${SERVICE}/GetTask`;
    try {
      const web = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+json", "a2a-version": "1.0" },
        body: badJson,
      });
      expect([web.status, web.headers.get("grpc-status")]).toEqual([415, "3"]);
      const connect = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "connect-protocol-version": "1",
          "a2a-version": "1.0",
        },
        body: '{"id":"t-1"}',
      });
      expect(connect.status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
