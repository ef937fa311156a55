// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The fuzzers' oracles catch what they are meant to (test/support/fuzz-checks.ts, fuzz-grpc.ts):
 * each check is shown a correct answer (no problem) and broken ones — a 5xx, a stack trace, a
 * file path, a wrong or missing id, a code outside the spec's tables, an error without an A2A
 * ErrorInfo, a REST body whose code is not the HTTP status, a gRPC answer without grpc-status or
 * with details that disagree with it, a hang — and must report each.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { StatusSchema } from "../../generated-example/gen/google/rpc/status_pb.js";
import { ErrorInfoSchema } from "../../generated-example/gen/google/rpc/error_details_pb.js";
import { checkJsonRpcAnswer, checkRestAnswer, leaks } from "../support/fuzz-checks.js";
import { checkGrpcAnswer, type GrpcAnswer } from "../support/fuzz-grpc.js";
import type { HttpAnswer, HttpInput } from "../support/fuzz-http.js";
import type { GrpcInput } from "../support/fuzz-grpc-inputs.js";
import { TaskSchema } from "../../generated-example/gen/a2a_pb.js";

const rpcInput = (body: unknown): HttpInput => ({
  method: "POST",
  path: "/a2a/jsonrpc",
  query: "",
  headers: [["content-type", "application/json"]],
  body: Buffer.from(JSON.stringify(body)).toString("base64"),
});
const answer = (status: number, body: unknown, type = "application/json"): HttpAnswer => ({
  status,
  headers: { "content-type": type },
  body: typeof body === "string" ? body : JSON.stringify(body),
  streamed: false,
  ended: true,
  timedOut: false,
});
const info = (reason: string) => [
  { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason, domain: "a2a-protocol.org" },
];
const getTask = rpcInput({ jsonrpc: "2.0", id: 7, method: "GetTask", params: { id: "x" } });
const notFound = {
  jsonrpc: "2.0",
  id: 7,
  error: { code: -32001, message: "Task x not found", data: info("TASK_NOT_FOUND") },
};

describe("JSON-RPC oracle", () => {
  it("accepts a spec-shaped error with the request's id", () => {
    expect(checkJsonRpcAnswer(getTask, answer(200, notFound))).toEqual([]);
  });

  it("reports a 5xx, a wrong id, a code outside the tables, a missing ErrorInfo, a code that does not go with the reason, a leak, a hang", () => {
    const one = (a: HttpAnswer) => checkJsonRpcAnswer(getTask, a).join("\n");
    expect(one(answer(500, notFound))).toMatch(/HTTP 500/);
    expect(one(answer(200, { ...notFound, id: 8 }))).toMatch(/does not match the request's 7/);
    expect(one(answer(200, { ...notFound, error: { ...notFound.error, code: -31000 } }))).toMatch(
      /not in the spec's tables/,
    );
    expect(one(answer(200, { ...notFound, error: { ...notFound.error, data: [] } }))).toMatch(
      /no A2A ErrorInfo/,
    );
    expect(one(answer(200, { ...notFound, error: { ...notFound.error, code: -32602 } }))).toMatch(
      /does not go with ErrorInfo reason TASK_NOT_FOUND/,
    );
    expect(
      one(
        answer(200, {
          ...notFound,
          error: {
            ...notFound.error,
            message: "TypeError: x is undefined\n    at f (/work/main/runtime/src/a.ts:1:2)",
          },
        }),
      ),
    ).toMatch(/leaks internals/);
    expect(one({ ...answer(200, ""), timedOut: true })).toMatch(/hang/);
    expect(one(answer(200, { jsonrpc: "2.0", id: 7, result: { id: 5 } }))).toMatch(/not ProtoJSON/);
  });

  it("lets a server repeat what the client sent (not a leak)", () => {
    expect(leaks('method "TypeError" not found', "TypeError")).toEqual([]);
    expect(leaks("at Object.<anonymous> (/work/x.ts:1:1)", "")).not.toEqual([]);
  });
});

describe("HTTP+JSON oracle", () => {
  const input: HttpInput = {
    method: "GET",
    path: "/a2a/rest/tasks/x",
    query: "",
    headers: [],
    body: "",
  };
  const status = (code: number, name: string, reason: string) => ({
    error: { code, status: name, message: "m", details: info(reason) },
  });

  it("accepts a google.rpc.Status error and a Task", () => {
    expect(
      checkRestAnswer(
        input,
        answer(404, status(404, "NOT_FOUND", "TASK_NOT_FOUND"), "application/a2a+json"),
        TaskSchema,
      ),
    ).toEqual([]);
    expect(
      checkRestAnswer(
        input,
        answer(200, { id: "x", status: { state: "TASK_STATE_COMPLETED" } }, "application/a2a+json"),
        TaskSchema,
      ),
    ).toEqual([]);
  });

  it("reports a 500, a code that is not the status, an unknown status name, no ErrorInfo, a bare body", () => {
    const one = (a: HttpAnswer) => checkRestAnswer(input, a, TaskSchema).join("\n");
    expect(one(answer(500, status(500, "INTERNAL", "INTERNAL")))).toMatch(/HTTP 500/);
    expect(one(answer(404, status(400, "NOT_FOUND", "TASK_NOT_FOUND")))).toMatch(
      /is not the HTTP status 404/,
    );
    expect(one(answer(404, status(404, "MISSING", "TASK_NOT_FOUND")))).toMatch(
      /not a google.rpc.Code name/,
    );
    expect(
      one(answer(404, { error: { code: 404, status: "NOT_FOUND", message: "m", details: [] } })),
    ).toMatch(/no A2A ErrorInfo/);
    expect(one(answer(404, "Not Found", "text/plain"))).toMatch(/content-type/);
  });
});

describe("gRPC oracle", () => {
  const input: GrpcInput = {
    path: "/lf.a2a.v1.A2AService/GetTask",
    headers: [["content-type", "application/grpc"]],
    frames: [],
  };
  const details = (code: number, reason: string) =>
    Buffer.from(
      toBinary(
        StatusSchema,
        create(StatusSchema, {
          code,
          message: "m",
          details: [
            anyPack(
              ErrorInfoSchema,
              create(ErrorInfoSchema, { reason, domain: "a2a-protocol.org" }),
            ),
          ],
        }),
      ),
    ).toString("base64");
  const grpc = (trailers: Record<string, string>): GrpcAnswer => ({
    headers: { ":status": "200" },
    trailers,
    body: Buffer.alloc(0),
    timedOut: false,
  });

  it("accepts an A2A error with matching details", () => {
    expect(
      checkGrpcAnswer(
        input,
        grpc({ "grpc-status": "5", "grpc-status-details-bin": details(5, "TASK_NOT_FOUND") }),
        true,
        "",
      ),
    ).toEqual([]);
  });

  it("reports no grpc-status, details that disagree, a well-formed call failing without ErrorInfo or with INTERNAL, a hang", () => {
    const one = (a: GrpcAnswer, wellFormed = true) =>
      checkGrpcAnswer(input, a, wellFormed, "").join("\n");
    expect(one(grpc({}))).toMatch(/no grpc-status/);
    expect(
      one(grpc({ "grpc-status": "5", "grpc-status-details-bin": details(3, "TASK_NOT_FOUND") })),
    ).toMatch(/is not grpc-status 5/);
    expect(
      one(grpc({ "grpc-status": "3", "grpc-status-details-bin": details(3, "TASK_NOT_FOUND") })),
    ).toMatch(/does not go with ErrorInfo reason/);
    expect(one(grpc({ "grpc-status": "13", "grpc-message": "boom" }))).toMatch(
      /without an A2A ErrorInfo/,
    );
    expect(one(grpc({ "grpc-status": "13", "grpc-message": "boom" }), false)).toBe("");
    expect(one({ ...grpc({}), timedOut: true })).toMatch(/hang/);
  });
});
