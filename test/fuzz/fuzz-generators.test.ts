// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The generators of issue #25 build what they claim: a non-finite number planted at every
 * Struct/Value position of a SendMessage or CancelTask request (JSON text that parses to ±Infinity;
 * a binary double NaN or ±Infinity that survives protobuf encoding), and SendMessage bodies and
 * gRPC messages exactly one byte under and over their limits, messages of 1,000 and 1,001 parts.
 */
import { create, fromBinary, toBinary, type JsonObject } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CancelTaskRequestSchema, SendMessageRequestSchema } from "../../generated-example/gen/a2a_pb.js";
import { encodePayload } from "../support/fuzz-grpc-inputs.js";
import { NONFINITE_MARK, nonFinitePlan, plantMark, replaceMarks, withNonFiniteText } from "../support/fuzz-nonfinite.js";
import { LIMITS, sizedGrpcMessage, sizedHttpInput } from "../support/fuzz-sizes.js";

const send = (): JsonObject => ({ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }, { text: "y" }] } });

/** Whether `v` holds a non-finite number anywhere. */
const hasNonFinite = (v: unknown): boolean => (typeof v === "number" ? !Number.isFinite(v) : typeof v === "object" && v !== null ? Object.values(v).some(hasNonFinite) : false);

describe("non-finite numbers", () => {
  it("reach every Struct/Value position of a SendMessage: the request's, the message's and a part's metadata, a part's data", () => {
    const fields = new Set<string>();
    for (let at = 0; at < 8; at++) {
      const json = send();
      expect(plantMark(SendMessageRequestSchema, json, { at, depth: at % 4, shape: at })).toBe(true);
      const parsed = JSON.parse(withNonFiniteText(JSON.stringify(json), "1e400")) as JsonObject;
      expect(hasNonFinite(parsed), JSON.stringify(json)).toBe(true);
      const message = parsed["message"] as JsonObject;
      if (hasNonFinite(parsed["metadata"])) fields.add("metadata");
      if (hasNonFinite(message["metadata"])) fields.add("message.metadata");
      for (const p of message["parts"] as JsonObject[]) {
        if (hasNonFinite(p["metadata"])) fields.add("part.metadata");
        // A part's data replaces the other members of its oneof.
        if (hasNonFinite(p["data"])) fields.add(p["text"] === undefined ? "part.data" : "part.data with text");
      }
    }
    expect([...fields].sort()).toEqual(["message.metadata", "metadata", "part.data", "part.metadata"]);
  });

  it("are binary doubles on gRPC, at any depth, in Structs and Values alike", () => {
    fc.assert(
      fc.property(nonFinitePlan, fc.constantFrom("NaN" as const, "Infinity" as const, "-Infinity" as const), (plan, value) => {
        const json = send();
        plantMark(SendMessageRequestSchema, json, plan);
        const bytes = encodePayload(SendMessageRequestSchema, json, "", value);
        expect(bytes).toBeDefined();
        const decoded = fromBinary(SendMessageRequestSchema, bytes!);
        expect(JSON.stringify(decoded, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(NONFINITE_MARK);
        expect(hasNonFinite(decoded)).toBe(true);
      }),
      { numRuns: 50, seed: 25 },
    );
    const cancel = create(CancelTaskRequestSchema, { id: "t", metadata: { k: NONFINITE_MARK } });
    expect(replaceMarks(cancel, "NaN")).toBe(1);
    expect(Number.isNaN(fromBinary(CancelTaskRequestSchema, toBinary(CancelTaskRequestSchema, cancel)).metadata?.["k"])).toBe(true);
  });
});

describe("sizes", () => {
  it("a body and a gRPC message one byte under and one over the limit, exactly", () => {
    expect(Buffer.from(sizedHttpInput({ grow: "body", offset: -1 }, "rest", []).body, "base64").length).toBe(LIMITS.httpBody - 1);
    for (const offset of [-1, 1]) expect(sizedGrpcMessage({ grow: "body", offset }).length).toBe(LIMITS.grpcMessage + offset);
    // Past the per-process allowance of stored large bodies (A2A_FUZZ_MAX_BIG, default 2), one under the limit goes one byte over it.
    expect(sizedGrpcMessage({ grow: "body", offset: -1 }).length).toBe(LIMITS.grpcMessage + 1);
  });

  it("messages of 1,000 and 1,001 parts, metadata of 64 KiB", () => {
    for (const offset of [0, 1]) {
      const body = JSON.parse(Buffer.from(sizedHttpInput({ grow: "parts", offset }, "jsonrpc", []).body, "base64").toString()) as { params: { message: { parts: unknown[] } } };
      expect(body.params.message.parts.length).toBe(LIMITS.parts + offset);
      const grpc = fromBinary(SendMessageRequestSchema, sizedGrpcMessage({ grow: "metadata", offset }));
      // jsonSize (runtime/src/limits.ts) counts {"k":"…"} as its text plus one.
      expect(JSON.stringify(grpc.message?.metadata).length + 1).toBe(LIMITS.metadata + offset);
    }
  });
});
