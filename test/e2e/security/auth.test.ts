// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Security review (#17) of the auth hook (`authenticate` in the server options) on every binding
 * and every server path: JSON-RPC, HTTP+JSON, gRPC on grpc-js, gRPC on Connect over node:http2 (its
 * lean unary path and Connect's streaming path), gRPC-web and the Connect protocol (the Connect
 * routes on the HTTP port), and A2A over WebSocket (the custom binding). Proves, for each of the
 * eleven operations, streaming ones and GetExtendedAgentCard included:
 * - the hook runs once before the operation, and sees the operation's name and the caller's headers;
 *   the handler gets the principal it returned and the request's tenant (path, field) on every path;
 * - a hook that throws or rejects UnauthenticatedError / PermissionDeniedError gets that error type
 *   to the caller, with its message, and no handler method runs;
 * - a hook that throws or rejects any other Error is the generic InternalError: its message is in
 *   no byte of the answer (it is logged), and no handler method runs;
 * - on the wire: JSON-RPC and HTTP+JSON answer 401 with `WWW-Authenticate` / 403 without, gRPC
 *   answers UNAUTHENTICATED (16) / PERMISSION_DENIED (7) / INTERNAL (13), the WebSocket binding an
 *   error frame with the JSON-RPC codes -32098 / -32099 / -32603;
 * - JSON-RPC batches are refused as a whole (InvalidRequest) before the hook or a handler runs, so
 *   there is no per-entry authentication to get wrong.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import {
  Client as GrpcJsClient,
  credentials,
  type Metadata,
  type ServiceError,
} from "@grpc/grpc-js";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  GetTaskRequestSchema,
  SubscribeToTaskRequestSchema,
} from "../../../generated-example/gen/a2a_pb.js";
import { StatusSchema } from "../../../generated-example/gen/google/rpc/status_pb.js";
import { ErrorInfoSchema } from "../../../generated-example/gen/google/rpc/error_details_pb.js";
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { A2AError, type AuthRequest } from "@protoc-gen-a2a/runtime";
import {
  errorSpecs,
  InternalError,
  PermissionDeniedError,
  UnauthenticatedError,
} from "../../../generated-example/gen/a2a_a2a_errors.js";
import { TestAgent } from "../../support/test-agent.js";
import {
  SERVER_PATHS,
  spyHandler,
  startAllBindings,
  type AllBindings,
  type ServerPath,
} from "../../support/security-servers.js";
import { OPERATION_NAMES, callOperation, failureOf } from "../../support/security-operations.js";

/** The secret an unexpected hook failure carries: it must never reach a client. */
const SECRET = "db-password-hunter2";

type Mode =
  | "unauthenticated"
  | "unauthenticated-async"
  | "denied"
  | "denied-async"
  | "crash"
  | "crash-async"
  | "copy"
  | "ok";
let mode: Mode = "ok";
const seen: AuthRequest[] = [];
const logged: [string, unknown][] = [];

const authenticate = (request: AuthRequest): { user: string } | Promise<{ user: string }> => {
  seen.push(request);
  switch (mode) {
    case "unauthenticated":
      throw new UnauthenticatedError("a bearer token is required");
    case "unauthenticated-async":
      return Promise.reject(new UnauthenticatedError("a bearer token is required"));
    case "denied":
      throw new PermissionDeniedError("this token may not do that");
    case "denied-async":
      return Promise.reject(new PermissionDeniedError("this token may not do that"));
    case "crash":
      throw new Error(`token store unreachable: ${SECRET}`);
    case "crash-async":
      return Promise.reject(new Error(`token store unreachable: ${SECRET}`));
    case "copy":
      // The UnauthenticatedError of another generated error table (one shared hook, two services).
      throw new A2AError({ ...errorSpecs.UnauthenticatedError }, "a bearer token is required");
    case "ok":
      return { user: "u" };
  }
};

const spy = spyHandler(new TestAgent());
let servers: AllBindings;

beforeAll(async () => {
  servers = await startAllBindings(spy.handler, {
    authenticate,
    logger: { error: (m, e) => logged.push([m, e]) },
  });
});
afterAll(() => servers.close());
beforeEach(() => {
  mode = "ok";
  seen.length = 0;
  spy.calls.length = 0;
  spy.contexts.length = 0;
  logged.length = 0;
});

const FAILING: readonly { mode: Mode; error: new (...args: never[]) => Error; message: RegExp }[] =
  [
    { mode: "unauthenticated", error: UnauthenticatedError, message: /a bearer token is required/ },
    {
      mode: "unauthenticated-async",
      error: UnauthenticatedError,
      message: /a bearer token is required/,
    },
    { mode: "denied", error: PermissionDeniedError, message: /this token may not do that/ },
    { mode: "denied-async", error: PermissionDeniedError, message: /this token may not do that/ },
    { mode: "crash", error: InternalError, message: /^Internal error$/ },
    { mode: "crash-async", error: InternalError, message: /^Internal error$/ },
  ];

describe.each(SERVER_PATHS)("the auth hook on %s", (path: ServerPath) => {
  it("runs once before every operation (streaming ones and GetExtendedAgentCard included), with its name and the caller's headers", async () => {
    const client = servers.clients[path];
    for (const operation of OPERATION_NAMES) {
      seen.length = 0;
      spy.calls.length = 0;
      // The handler's answer does not matter here (TestAgent knows no such task): the hook ran first.
      await callOperation(
        client,
        operation,
        {},
        { headers: { authorization: "Bearer t-1" } },
      ).catch(() => undefined);
      expect(
        seen.map((r) => r.operation),
        operation,
      ).toEqual([operation]);
      expect(seen[0]?.serviceParameters.get("authorization"), operation).toBe("Bearer t-1");
      expect(spy.calls, operation).toEqual([operation]);
    }
  });

  it.each(FAILING)(
    "a hook that fails with $mode: the caller gets its error type on every operation and no handler runs",
    async ({ mode: failing, error, message }) => {
      mode = failing;
      const client = servers.clients[path];
      for (const operation of OPERATION_NAMES) {
        const failure = await failureOf(callOperation(client, operation, {}));
        expect(failure, `${operation}: ${failure.message}`).toBeInstanceOf(error);
        expect(failure.message, operation).toMatch(message);
        expect(failure.message, operation).not.toContain(SECRET);
      }
      expect(spy.calls).toEqual([]);
      expect(seen.map((r) => r.operation)).toEqual([...OPERATION_NAMES]);
      if (failing.startsWith("crash")) {
        // Logged for the operator, once per call.
        expect(logged).toHaveLength(OPERATION_NAMES.length);
        expect(String(logged[0]?.[1])).toContain(SECRET);
      } else expect(logged).toEqual([]);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// the wire: statuses, challenges, and no leak in any byte
// ---------------------------------------------------------------------------------------------

const JSON_HEADERS = { "content-type": "application/json", "a2a-version": "1.0" };
const sendParams = { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hello" }] } };

/** A JSON-RPC call as raw HTTP. */
function jsonRpc(method: string, params: object): Promise<Response> {
  return fetch(servers.jsonrpc, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
}

/** The HTTP+JSON requests of a unary and of a streaming operation. */
const REST_CALLS: readonly [string, string, string | undefined][] = [
  ["GET", "/tasks/t-1", undefined],
  ["GET", "/extendedAgentCard", undefined],
  ["POST", "/message:stream", JSON.stringify(sendParams)],
  ["GET", "/tasks/t-1:subscribe", undefined],
];

describe("on the wire", () => {
  it("the Connect protocol's 401 carries WWW-Authenticate (RFC 9110 §15.5.2)", async () => {
    mode = "unauthenticated";
    const r = await fetch(`${servers.connect}/lf.a2a.v1.A2AService/GetTask`, {
      method: "POST",
      headers: { ...JSON_HEADERS, "connect-protocol-version": "1" },
      body: '{"id":"t-1"}',
    });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("JSON-RPC and HTTP+JSON answer 401 with their challenge for an UnauthenticatedError of another error table", async () => {
    mode = "copy";
    const r = await jsonRpc("GetTask", { id: "t-1" });
    expect([r.status, r.headers.get("www-authenticate")]).toEqual([401, "Bearer"]);
    const rest = await fetch(`${servers.rest}/tasks/t-1`, { headers: JSON_HEADERS });
    expect([rest.status, rest.headers.get("www-authenticate")]).toEqual([401, "Bearer"]);
    expect(spy.calls).toEqual([]);
  });

  it("HTTP+JSON answers are never stored by caches (the extended card, tasks: spec §13.3)", async () => {
    for (const path of ["/extendedAgentCard", "/tasks/t-1"]) {
      const r = await fetch(`${servers.rest}${path}`, { headers: JSON_HEADERS });
      expect(r.headers.get("cache-control"), path).toBe("no-store");
    }
  });

  it.each([
    ["unauthenticated", 401, -32098, "UNAUTHENTICATED"],
    ["denied", 403, -32099, "PERMISSION_DENIED"],
  ] as const)(
    "JSON-RPC: a hook failing with %s answers HTTP %i (WWW-Authenticate on 401 only), code %i, for unary and streaming methods",
    async (failing, status, code, reason) => {
      mode = failing;
      for (const method of [
        "GetTask",
        "SendStreamingMessage",
        "GetExtendedAgentCard",
        "SubscribeToTask",
      ]) {
        const response = await jsonRpc(
          method,
          method === "SendStreamingMessage" ? sendParams : { id: "t-1" },
        );
        expect(response.status, method).toBe(status);
        expect(response.headers.get("content-type"), method).toMatch(/^application\/json/);
        expect(response.headers.get("www-authenticate"), method).toBe(
          status === 401 ? "Bearer" : null,
        );
        const body = (await response.json()) as {
          id: unknown;
          error: { code: number; data: { reason?: string }[] };
        };
        expect(body.id).toBe(7);
        expect(body.error.code).toBe(code);
        expect(body.error.data.map((d) => d.reason)).toContain(reason);
      }
      expect(spy.calls).toEqual([]);
    },
  );

  it.each([
    ["unauthenticated", 401, "UNAUTHENTICATED"],
    ["denied", 403, "PERMISSION_DENIED"],
  ] as const)(
    "HTTP+JSON: a hook failing with %s answers HTTP %i (WWW-Authenticate on 401 only) with a google.rpc.Status body",
    async (failing, status, reason) => {
      mode = failing;
      for (const [method, path, body] of REST_CALLS) {
        const response = await fetch(`${servers.rest}${path}`, {
          method,
          headers: JSON_HEADERS,
          ...(body === undefined ? {} : { body }),
        });
        expect(response.status, path).toBe(status);
        expect(response.headers.get("www-authenticate"), path).toBe(
          status === 401 ? "Bearer" : null,
        );
        const json = (await response.json()) as {
          error: { code: number; status: string; details: { reason?: string }[] };
        };
        expect(json.error.code).toBe(status);
        expect(json.error.status).toBe(reason);
        expect(json.error.details.map((d) => d.reason)).toContain(reason);
      }
      expect(spy.calls).toEqual([]);
    },
  );

  it("an unexpected hook error is a generic internal error on JSON-RPC and HTTP+JSON: the secret is in no byte of status line, headers or body", async () => {
    for (const crash of ["crash", "crash-async"] as const) {
      mode = crash;
      const answers: Response[] = [
        await jsonRpc("GetTask", { id: "t-1" }),
        await jsonRpc("SendStreamingMessage", sendParams),
      ];
      for (const [method, path, body] of REST_CALLS)
        answers.push(
          await fetch(`${servers.rest}${path}`, {
            method,
            headers: JSON_HEADERS,
            ...(body === undefined ? {} : { body }),
          }),
        );
      for (const response of answers) {
        const text = await response.text();
        const everything = `${response.status} ${response.statusText} ${[...response.headers].join(" ")} ${text}`;
        expect(everything).not.toContain(SECRET);
        expect(everything).not.toMatch(/token store|at .*\.ts:\d+/);
        expect(text).toMatch(/Internal error/);
      }
      expect(answers.map((r) => r.status)).toEqual([200, 200, 500, 500, 500, 500]);
    }
    expect(spy.calls).toEqual([]);
  });

  it("the Connect protocol: 401 / 403 / 500 with a Connect error body, and the secret in no byte", async () => {
    const post = (rpc: string) =>
      fetch(`${servers.connect}/lf.a2a.v1.A2AService/${rpc}`, {
        method: "POST",
        headers: { ...JSON_HEADERS, "connect-protocol-version": "1" },
        body: JSON.stringify(rpc === "GetTask" ? { id: "t-1" } : {}),
      });
    for (const [failing, status, code] of [
      ["unauthenticated", 401, "unauthenticated"],
      ["denied", 403, "permission_denied"],
      ["crash", 500, "internal"],
    ] as const) {
      mode = failing;
      for (const rpc of ["GetTask", "GetExtendedAgentCard"]) {
        const response = await post(rpc);
        const text = await response.text();
        expect(response.status, `${failing} ${rpc}`).toBe(status);
        expect(JSON.parse(text)).toMatchObject({ code });
        expect(`${[...response.headers].join(" ")} ${text}`).not.toContain(SECRET);
      }
    }
    expect(spy.calls).toEqual([]);
  });

  it.each(["grpcJs", "grpcConnect"] as const)(
    "gRPC (%s): UNAUTHENTICATED 16 / PERMISSION_DENIED 7 / INTERNAL 13 with ErrorInfo, unary and streaming, the secret in no byte",
    async (server) => {
      const client = new GrpcJsClient(servers[server], credentials.createInsecure());
      const identity = (b: Buffer) => b;
      const unary = () =>
        new Promise<ServiceError>((resolve, reject) =>
          client.makeUnaryRequest(
            "/lf.a2a.v1.A2AService/GetTask",
            (m: Uint8Array) => Buffer.from(m),
            identity,
            toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id: "t-1" })),
            (e) => (e === null ? reject(new Error("succeeded")) : resolve(e)),
          ),
        );
      const streaming = () =>
        new Promise<ServiceError>((resolve, reject) => {
          const call = client.makeServerStreamRequest(
            "/lf.a2a.v1.A2AService/SubscribeToTask",
            (m: Uint8Array) => Buffer.from(m),
            identity,
            toBinary(
              SubscribeToTaskRequestSchema,
              create(SubscribeToTaskRequestSchema, { id: "t-1" }),
            ),
          );
          call.on("data", () => reject(new Error("an event")));
          call.on("error", (e: ServiceError) => resolve(e));
          call.on("end", () => undefined);
        });
      const reasonOf = (metadata: Metadata) => {
        const bin = metadata.get("grpc-status-details-bin")[0] as Buffer;
        const status = fromBinary(StatusSchema, bin);
        return {
          code: status.code,
          reasons: status.details.map((d) => anyUnpack(d, ErrorInfoSchema)?.reason),
          text: `${status.message} ${bin.toString("latin1")}`,
        };
      };
      try {
        for (const [failing, code, reason] of [
          ["unauthenticated", 16, "UNAUTHENTICATED"],
          ["denied-async", 7, "PERMISSION_DENIED"],
          ["crash", 13, "INTERNAL"],
          ["crash-async", 13, "INTERNAL"],
        ] as const) {
          mode = failing;
          for (const error of [await unary(), await streaming()]) {
            expect(error.code, failing).toBe(code);
            const details = reasonOf(error.metadata);
            expect(details.code).toBe(code);
            expect(details.reasons).toEqual([reason]);
            expect(`${error.details} ${details.text}`).not.toContain(SECRET);
          }
        }
      } finally {
        client.close();
      }
      expect(spy.calls).toEqual([]);
    },
  );

  it("WebSocket: an error frame with the call's id and the JSON-RPC codes; the upgrade's Authorization reaches the hook, a frame's own wins", async () => {
    const frames = async (headers: Record<string, string>, calls: object[]) => {
      const socket = new WebSocket(servers.ws, { headers });
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      const answers: string[] = [];
      const done = new Promise<void>((resolve) =>
        socket.on("message", (data) => {
          answers.push(String(data));
          if (answers.length === calls.length) resolve();
        }),
      );
      for (const call of calls) socket.send(JSON.stringify(call));
      await done;
      socket.close();
      return answers.map(
        (a) => JSON.parse(a) as { id: unknown; error?: { code: number; message: string } },
      );
    };
    for (const [failing, code] of [
      ["unauthenticated", -32098],
      ["denied", -32099],
      ["crash", -32603],
    ] as const) {
      mode = failing;
      seen.length = 0;
      const answers = await frames({ authorization: "Bearer from-upgrade" }, [
        {
          id: 1,
          method: "GetTask",
          params: { id: "t-1" },
          serviceParameters: { "A2A-Version": "1.0" },
        },
        {
          id: 2,
          method: "SubscribeToTask",
          params: { id: "t-1" },
          serviceParameters: { "A2A-Version": "1.0", Authorization: "Bearer from-frame" },
        },
      ]);
      expect(answers.map((a) => [a.id, a.error?.code]).sort()).toEqual([
        [1, code],
        [2, code],
      ]);
      for (const a of answers) expect(JSON.stringify(a)).not.toContain(SECRET);
      expect(seen.map((r) => r.serviceParameters.get("authorization")).sort()).toEqual([
        "Bearer from-frame",
        "Bearer from-upgrade",
      ]);
    }
    expect(spy.calls).toEqual([]);
  });

  it("JSON-RPC batches are refused whole (InvalidRequest, id null) before the hook or any handler runs", async () => {
    mode = "unauthenticated";
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t-1" } },
      { jsonrpc: "2.0", id: 2, method: "SendMessage", params: sendParams },
    ];
    const response = await fetch(servers.jsonrpc, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600 },
    });
    expect(seen).toEqual([]);
    expect(spy.calls).toEqual([]);
  });
});
