// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Maximal sizes (issue #25): a SendMessage whose body (HTTP: `maxBodyBytes`, 10 MiB) or message
 * (gRPC: `readMaxBytes`, 4 MiB) is one byte under, at or over the limit, or far over it; a message
 * of 999, 1,000 or 1,001 parts (`maxPartsPerMessage`); message metadata of `maxMetadataBytes`
 * (64 KiB of JSON) give or take one. An input carries a {@link SizeSpec}, small enough for a
 * fixture; the bytes are built when it is sent ({@link sizedHttpInput}, {@link sizedGrpcMessage}).
 *
 * What fits is stored (the echo agent keeps the text twice, message and artifact): at most
 * A2A_FUZZ_MAX_BIG (default 2) bodies of more than 1 MiB under the limit per process, later ones are
 * sent one byte over it, so that a long run does not fill the heap with 20 MB tasks. The sized
 * messages go to the tenant {@link BIG_TENANT}: every ListTasks of the fuzzed scopes would otherwise
 * carry their tasks (up to 20 MB) from then on (the still-serves oracle sweeps that tenant like any other).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { SendMessageRequestSchema } from "../../generated-example/gen/a2a_pb.js";
import { fuzzSetting, heavyPer10k } from "./fuzz-config.js";
import type { HttpInput } from "./fuzz-http.js";

/** The servers' defaults (runtime/src/jsonrpc/server.ts, rest/server.ts, grpc-wire/limits.ts, limits.ts). */
export const LIMITS = {
  httpBody: 10 * 1024 * 1024,
  grpcMessage: 4 * 1024 * 1024,
  parts: 1_000,
  metadata: 64 * 1024,
} as const;

/** What grows, and by how much past its limit (negative: under it). */
export interface SizeSpec {
  /** "body": one text part makes the body (HTTP) or message (gRPC) `limit + offset` bytes; "parts": `limit + offset` parts; "metadata": message metadata of `limit + offset` bytes of JSON. */
  readonly grow: "body" | "parts" | "metadata";
  readonly offset: number;
}

/** The tenant of the large bodies' tasks and of the slow readers' big task. */
export const BIG_TENANT = "fuzz-big";

/** Size specs of the parts and metadata limits (cheap: kilobytes): just under, at, just over and far over. */
export const cheapSizeSpec: fc.Arbitrary<SizeSpec> = fc.oneof(
  fc.record({ grow: fc.constant("parts" as const), offset: fc.constantFrom(-1, 0, 1, 1_000) }),
  fc.record({
    grow: fc.constant("metadata" as const),
    offset: fc.constantFrom(-1, 0, 1, 64 * 1024),
  }),
);

/** Size specs of the body or message limit (megabytes: slow): one byte under, at, one byte over and 1 MiB over. */
export const heavySizeSpec: fc.Arbitrary<SizeSpec> = fc.record({
  grow: fc.constant("body" as const),
  offset: fc.constantFrom(-1, 0, 1, 1024 * 1024),
});

let bigUnder = 0;
let sent = 0;

/** A fresh message id of a fixed length (the padding counts on it). */
const messageId = () => `m-size-${process.pid}-${String(++sent).padStart(9, "0")}`;
const BIG = 1024 * 1024;

/** `spec`, past the per-process allowance of large stored bodies sent one byte over the limit instead. */
function allowed(spec: SizeSpec, limit: number): SizeSpec {
  if (spec.grow !== "body" || spec.offset > 0 || limit + spec.offset <= BIG) return spec;
  if (bigUnder >= fuzzSetting("A2A_FUZZ_MAX_BIG", 2)) return { grow: "body", offset: 1 };
  bigUnder++;
  return spec;
}

/** A SendMessage request (ProtoJSON) of `spec`, the text of its one part `pad` when growing the body. */
function request(
  spec: SizeSpec,
  pad: string,
  messageId: string,
): { tenant?: string; message: Record<string, unknown> } {
  const message: Record<string, unknown> = { messageId, role: "ROLE_USER", parts: [{ text: pad }] };
  if (spec.grow === "parts")
    message["parts"] = Array.from({ length: Math.max(1, LIMITS.parts + spec.offset) }, (_, i) => ({
      text: `p${i}`,
    }));
  // jsonSize (runtime/src/pipeline/limits.ts) of {"k": "x…x"}: 2 + (1 + 4) + (n + 2).
  if (spec.grow === "metadata")
    message["metadata"] = { k: "x".repeat(Math.max(0, LIMITS.metadata + spec.offset - 9)) };
  return { tenant: BIG_TENANT, message };
}

/** Pads `build(pad)` so that its length is `target` bytes (ASCII padding; exact unless a length prefix grows by the padding). */
function padTo(target: number, build: (pad: string) => Uint8Array | string): Uint8Array | string {
  const size = (out: Uint8Array | string) =>
    typeof out === "string" ? Buffer.byteLength(out) : out.length;
  // Built small first: each padding character adds one byte, and a length prefix of protobuf a few more.
  let n = Math.max(0, target - size(build("")));
  for (let i = 0; i < 2; i++) {
    const out = build("x".repeat(n));
    if (size(out) === target || i === 1) return out;
    n = Math.max(0, n + target - size(out));
  }
  throw new Error("unreachable");
}

/** The HTTP request of a sized SendMessage: JSON-RPC at /a2a/jsonrpc, or HTTP+JSON at `restBase`/message:send. */
export function sizedHttpInput(
  spec: SizeSpec,
  binding: "jsonrpc" | "rest",
  headers: HttpInput["headers"],
  restBase = "/a2a/rest",
): HttpInput {
  const s = allowed(spec, LIMITS.httpBody);
  const id = messageId();
  const text = (pad: string) =>
    binding === "jsonrpc"
      ? JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "SendMessage",
          params: request(s, pad, id),
        })
      : JSON.stringify({ ...request(s, pad, id), tenant: undefined });
  const body = s.grow === "body" ? padTo(LIMITS.httpBody + s.offset, text) : text("size");
  return {
    method: "POST",
    path: binding === "jsonrpc" ? "/a2a/jsonrpc" : `${restBase}/${BIG_TENANT}/message:send`,
    query: "",
    headers,
    body: Buffer.from(body).toString("base64"),
  };
}

/** The protobuf SendMessageRequest of a sized gRPC call. */
export function sizedGrpcMessage(spec: SizeSpec): Uint8Array {
  const s = allowed(spec, LIMITS.grpcMessage);
  const id = messageId();
  const encode = (pad: string) =>
    toBinary(
      SendMessageRequestSchema,
      create(SendMessageRequestSchema, fromRequest(request(s, pad, id))),
    );
  const out = s.grow === "body" ? padTo(LIMITS.grpcMessage + s.offset, encode) : encode("size");
  return typeof out === "string" ? Buffer.from(out) : out;
}

/** The protobuf-es init of a ProtoJSON SendMessage request (text parts, string metadata). */
function fromRequest(r: { tenant?: string; message: Record<string, unknown> }) {
  const m = r.message;
  const parts = (m["parts"] as { text: string }[]).map((p) => ({
    content: { case: "text" as const, value: p.text },
  }));
  const metadata = m["metadata"] as Record<string, string> | undefined;
  return {
    tenant: r.tenant ?? "",
    message: {
      messageId: m["messageId"] as string,
      role: 1,
      parts,
      ...(metadata !== undefined
        ? { metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, v])) }
        : {}),
    },
  };
}

/**
 * `plain` inputs, and rarely: one in 1,000 a SendMessage at the parts or metadata limit (`sized`), and A2A_FUZZ_HEAVY
 * in 10,000 each a SendMessage at the body limit (`sized`) and a slow reader (`slow`).
 */
export function withRareInputs<T>(
  plain: fc.Arbitrary<T>,
  sized: (spec: SizeSpec) => T,
  slow: fc.Arbitrary<T>,
): fc.Arbitrary<T> {
  const heavy = heavyPer10k();
  const kinds = [
    { weight: 10_000 - 10 - 2 * heavy, arbitrary: plain },
    { weight: 10, arbitrary: cheapSizeSpec.map(sized) },
    { weight: heavy, arbitrary: heavySizeSpec.map(sized) },
    { weight: heavy, arbitrary: slow },
  ];
  return fc.oneof(...kinds.filter((k) => k.weight > 0));
}
