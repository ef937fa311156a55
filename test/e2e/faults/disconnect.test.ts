/**
 * Clients that disconnect mid-body (issue #17), from raw sockets, on every binding: JSON-RPC and HTTP+JSON
 * (a Content-Length body cut off half-way, a chunked body cut off half-way), gRPC on grpc-js and on
 * Connect (half a length-prefixed message, then the stream reset or the connection dropped). The handler is
 * never called, nothing is logged as a failure, the process's fds return to the baseline, and the
 * server answers a normal call afterwards.
 */
import { connect as connectHttp2, constants as h2 } from "node:http2";
import { connect as connectTcp } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { A2AServiceHandler } from "../../../generated-example/gen/a2a_a2a_handler.js";
import {
  GetTaskRequestSchema,
  TaskSchema,
  TaskState,
} from "../../../generated-example/gen/a2a_pb.js";
import { eventually } from "../../support/servers.js";
import { SERVERS, openFds, type FaultServer } from "../../support/faults-servers.js";

/** A handler that counts its calls and answers every GetTask with a WORKING task. */
function countingHandler(calls: string[]): A2AServiceHandler {
  return new Proxy({} as A2AServiceHandler, {
    get: (_target, name) => async (request: { id?: string }) => {
      calls.push(String(name));
      return create(TaskSchema, {
        id: request.id ?? "t",
        contextId: "c",
        status: { state: TaskState.WORKING },
      });
    },
  });
}

const JSON_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "GetTask",
  params: { id: "t-1", padding: "x".repeat(2_000) },
});

/** Writes `head` and then half of `body` on a raw TCP connection, waits a little, and destroys it. */
async function halfHttp(port: number, head: string, body: string): Promise<void> {
  const socket = connectTcp(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(head);
  socket.write(body.slice(0, Math.floor(body.length / 2)));
  await new Promise((r) => setTimeout(r, 50));
  socket.destroy();
}

const httpHead = (path: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n${framing}\r\n`;

/** A gRPC envelope declaring `payload`'s length, of which only the first half is sent. */
function halfEnvelope(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out.writeUInt32BE(payload.length, 1);
  out.set(payload, 5);
  return out.subarray(0, 5 + Math.floor(payload.length / 2));
}

/** Opens a gRPC call, sends half its message, then resets the stream ("rst") or drops the connection ("drop"). */
async function halfGrpc(address: string, how: "rst" | "drop"): Promise<void> {
  const session = connectHttp2(`http://${address}`);
  session.on("error", () => {});
  const stream = session.request({
    ":method": "POST",
    ":path": "/lf.a2a.v1.A2AService/GetTask",
    "content-type": "application/grpc",
    te: "trailers",
    "a2a-version": "1.0",
  });
  stream.on("error", () => {});
  stream.write(
    halfEnvelope(
      toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id: "t-1".repeat(500) })),
    ),
  );
  await new Promise((r) => setTimeout(r, 50));
  if (how === "rst") {
    stream.close(h2.NGHTTP2_CANCEL);
    await new Promise((r) => setTimeout(r, 20));
  }
  session.destroy();
}

describe.each(SERVERS)("$name: a client that disconnects mid-body", ({ name, start, grpc }) => {
  const calls: string[] = [];
  let server: FaultServer;
  let baseline = 0;

  beforeAll(async () => {
    server = await start(countingHandler(calls));
    expect((await server.client.getTask({ id: "warm" })).id).toBe("warm");
    baseline = openFds();
  });
  afterAll(() => server.close());

  const cases: [string, () => Promise<void>][] = grpc
    ? [
        ["half a message, then RST_STREAM", () => halfGrpc(server.address, "rst")],
        ["half a message, then the connection dropped", () => halfGrpc(server.address, "drop")],
      ]
    : [
        [
          "a Content-Length body cut off half-way",
          () =>
            halfHttp(
              server.port,
              httpHead(
                name === "JSON-RPC" ? "/" : "/message:send",
                `Content-Length: ${JSON_BODY.length}\r\n`,
              ),
              JSON_BODY,
            ),
        ],
        [
          "a chunked body cut off half-way",
          () =>
            halfHttp(
              server.port,
              httpHead(
                name === "JSON-RPC" ? "/" : "/message:send",
                "Transfer-Encoding: chunked\r\n",
              ),
              `${JSON_BODY.length.toString(16)}\r\n${JSON_BODY}\r\n0\r\n\r\n`,
            ),
        ],
      ];

  for (const [what, run] of cases) {
    it(`${what} (20 times): no handler call, nothing logged, fds back to the baseline, still serving`, async () => {
      const before = calls.length;
      const logged = server.logged.length;
      for (let i = 0; i < 20; i++) await run();
      await eventually(() => openFds() <= baseline + 2, 15_000);
      expect(calls.length).toBe(before);
      expect(server.logged.slice(logged)).toEqual([]);
      expect((await server.client.getTask({ id: "after" })).id).toBe("after");
      expect(calls.length).toBe(before + 1);
    });
  }
});
