// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * fast-check arbitraries of gRPC calls to our two gRPC stacks: a path (one of the 11 methods,
 * mostly; else unknown ones, reflection, nonsense), metadata (content-type, te, grpc-timeout,
 * grpc-encoding, A2A-Version, A2A-Extensions, authorization, random keys and -bin values) and
 * length-prefixed messages: the method's request as protobuf (from a valid, perhaps mutated
 * ProtoJSON payload; perhaps naming the known task; perhaps with a NaN or ±Infinity double in a
 * Struct or Value field at any depth, test/support/fuzz-nonfinite.ts) or random bytes, then perhaps bent (bits
 * flipped, cut, bytes inserted), framed with odd compression flags, lying lengths, several
 * messages, a cut frame header or none at all. Bytes are built when sent ({@link grpcBody}), so
 * that a fixture naming the known task replays against a new one.
 */
import { fromJson, toBinary, type DescMessage, type JsonObject } from "@bufbuild/protobuf";
import fc from "fast-check";
import { A2AServiceOperations } from "../../generated-example/gen/a2a_a2a_handler.js";
import { MUTATION_KINDS, mutate, validJson } from "./proto-json-arbitrary.js";
import {
  extensionsValue,
  headerName,
  headerValue,
  sometimes,
  versionValue,
} from "./fuzz-headers.js";
import { KNOWN_TASK } from "./fuzz-jsonrpc-inputs.js";
import {
  NONFINITE_DOUBLES,
  nonFinitePlan,
  plantMark,
  replaceMarks,
  type NonFiniteDouble,
} from "./fuzz-nonfinite.js";
import {
  BIG_TENANT,
  LIMITS,
  sizedGrpcMessage,
  withRareInputs,
  type SizeSpec,
} from "./fuzz-sizes.js";
import { BIG_TASK } from "./fuzz-slow-readers.js";
import { frame } from "./grpc-frames.js";

/** The path prefix of the A2A service's gRPC methods. */
export const SERVICE = "/lf.a2a.v1.A2AService";
const OPS = Object.values(A2AServiceOperations);
/** gRPC path → the operation's input schema. */
export const GRPC_INPUT = new Map<string, DescMessage>(OPS.map((o) => [o.grpcPath, o.input]));
/** gRPC path → whether the operation streams its answer. */
export const GRPC_STREAMING = new Map<string, boolean>(
  OPS.map((o) => [o.grpcPath, o.kind === "server_streaming"]),
);

/** One length-prefixed message, described. */
export interface FrameSpec {
  /** The message: ProtoJSON of the method's input (encoded when sent) or raw bytes (base64). */
  readonly payload: { readonly json: JsonObject } | { readonly base64: string };
  /** Byte changes after encoding: [kind, position, byte]. */
  readonly bend: readonly (readonly ["flip" | "cut" | "insert" | "set", number, number])[];
  /** Compression flag byte (0: none). */
  readonly flag: number;
  /** Added to the true length in the prefix (a lie when not 0). */
  readonly lengthDelta: number;
  /** Only the first n bytes of the frame are sent (undefined: all). */
  readonly cutAt?: number;
  /** The double that replaces the non-finite mark planted in `payload.json` (test/support/fuzz-nonfinite.ts). */
  readonly nonFinite?: NonFiniteDouble;
}

/** A gRPC call as the fuzzer builds it (JSON, for fixtures). */
export interface GrpcInput {
  readonly path: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly frames: readonly FrameSpec[];
  /** The client cancels the call (RST_STREAM CANCEL) this long (ms) after sending it. */
  readonly cancelAfterMs?: number;
  /** A SendMessage of a size at a limit (test/support/fuzz-sizes.ts) instead of `frames`: built when sent. */
  readonly grow?: SizeSpec;
  /** The client never reads the answer (a flow-control window of 0: test/support/fuzz-slow-readers.ts). */
  readonly neverRead?: true;
}

/**
 * Encodes a ProtoJSON payload of `desc` (the placeholder replaced by `taskId`, a planted non-finite mark by
 * the double `nonFinite`); undefined if it is not valid ProtoJSON.
 */
export function encodePayload(
  desc: DescMessage | undefined,
  json: JsonObject,
  taskId: string,
  nonFinite?: NonFiniteDouble,
  bigTaskId = "",
): Uint8Array | undefined {
  if (desc === undefined) return undefined;
  try {
    const text = JSON.stringify(json)
      .replaceAll(KNOWN_TASK, taskId)
      .replaceAll(BIG_TASK, bigTaskId);
    const message = fromJson(desc, JSON.parse(text), { ignoreUnknownFields: true });
    if (nonFinite !== undefined) replaceMarks(message, nonFinite);
    return toBinary(desc, message);
  } catch {
    return undefined;
  }
}

/** The bytes of one frame, and whether it is a well-formed uncompressed message of its method's input. */
export function frameBytes(
  path: string,
  spec: FrameSpec,
  taskId: string,
  bigTaskId = "",
): { bytes: Buffer; intact: boolean } {
  const desc = GRPC_INPUT.get(path);
  let payload: Buffer;
  let valid: boolean;
  if ("json" in spec.payload) {
    const encoded = encodePayload(desc, spec.payload.json, taskId, spec.nonFinite, bigTaskId);
    payload = Buffer.from(encoded ?? new Uint8Array());
    valid = encoded !== undefined;
  } else {
    payload = Buffer.from(spec.payload.base64, "base64");
    valid = false;
  }
  for (const [kind, at, byte] of spec.bend) {
    const i = payload.length === 0 ? 0 : at % payload.length;
    if (kind === "flip" && payload.length > 0) payload[i] = payload[i]! ^ (1 << (byte % 8));
    else if (kind === "set" && payload.length > 0) payload[i] = byte;
    else if (kind === "cut") payload = payload.subarray(0, i);
    else if (kind === "insert")
      payload = Buffer.concat([payload.subarray(0, i), Buffer.from([byte]), payload.subarray(i)]);
    valid = false;
  }
  const header = Buffer.alloc(5);
  header[0] = spec.flag;
  header.writeUInt32BE(Math.max(0, Math.min(0xffffffff, payload.length + spec.lengthDelta)), 1);
  const whole = Buffer.concat([header, payload]);
  const bytes =
    spec.cutAt === undefined ? whole : whole.subarray(0, spec.cutAt % (whole.length + 1));
  return {
    bytes,
    intact: valid && spec.flag === 0 && spec.lengthDelta === 0 && bytes.length === whole.length,
  };
}

/**
 * The request body of `input` (the known task `taskId`, the big task `bigTaskId`), and whether it is exactly one well-formed,
 * uncompressed message that decodes as the method's input (a sized one: and within the message limit).
 */
export function grpcBody(
  input: GrpcInput,
  taskId: string,
  bigTaskId = "",
): { body: Buffer; wellFormed: boolean } {
  if (input.grow !== undefined) {
    const message = sizedGrpcMessage(input.grow);
    return { body: frame(message), wellFormed: message.length <= LIMITS.grpcMessage };
  }
  const frames = input.frames.map((f) => frameBytes(input.path, f, taskId, bigTaskId));
  return {
    body: Buffer.concat(frames.map((f) => f.bytes)),
    wellFormed: frames.length === 1 && frames[0]!.intact,
  };
}

const payloadFor = (path: string): fc.Arbitrary<FrameSpec["payload"]> => {
  const desc = GRPC_INPUT.get(path);
  const bytes = fc
    .uint8Array({ maxLength: 40 })
    .map((b) => ({ base64: Buffer.from(b).toString("base64") }));
  if (desc === undefined) return bytes;
  const json = fc
    .record({
      json: validJson(desc),
      known: fc.boolean(),
      kind: fc.constantFrom(...MUTATION_KINDS),
      pick: fc.nat(50),
      salt: fc.nat(50),
      mutated: fc.boolean(),
      realistic: fc.boolean(),
    })
    .map(({ json, known, kind, pick, salt, mutated, realistic }) => {
      let out = json;
      if (known)
        for (const f of ["id", "taskId"])
          if (desc.fields.some((x) => x.jsonName === f)) out[f] = KNOWN_TASK;
      if (
        realistic &&
        typeof out["message"] === "object" &&
        out["message"] !== null &&
        !Array.isArray(out["message"])
      ) {
        const m = out["message"];
        delete m["contextId"];
        delete m["taskId"];
        delete m["referenceTaskIds"];
        m["parts"] = [{ text: "fuzz" }];
      }
      if (mutated) out = mutate(desc, out, kind, pick, salt) ?? out;
      return { json: out };
    });
  return fc.oneof({ weight: 6, arbitrary: json }, { weight: 1, arbitrary: bytes });
};

const bend = fc.array(
  fc.tuple(
    fc.constantFrom("flip" as const, "cut" as const, "insert" as const, "set" as const),
    fc.nat(1000),
    fc.nat(255),
  ),
  { maxLength: 2 },
);

const frameFor = (path: string): fc.Arbitrary<FrameSpec> =>
  fc
    .record(
      {
        payload: payloadFor(path),
        bend: fc.oneof({ weight: 5, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: bend }),
        flag: fc.oneof(
          { weight: 20, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.constantFrom(1, 2, 128, 255) },
        ),
        lengthDelta: fc.oneof(
          { weight: 20, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.constantFrom(-1, 1, 5, 1_000, 0x7fffffff, 0xffffffff) },
        ),
        cutAt: sometimes(fc.nat(60), 0.05),
        nonFinite: sometimes(fc.tuple(nonFinitePlan, fc.constantFrom(...NONFINITE_DOUBLES)), 0.06),
      },
      { requiredKeys: ["payload", "bend", "flag", "lengthDelta"] },
    )
    .map(({ nonFinite, ...spec }): FrameSpec => {
      // A NaN or ±Infinity double in a Struct or Value of the request (binary protobuf carries them).
      const desc = GRPC_INPUT.get(path);
      if (nonFinite === undefined || desc === undefined || !("json" in spec.payload)) return spec;
      const json = structuredClone(spec.payload.json);
      return plantMark(desc, json, nonFinite[0])
        ? { ...spec, payload: { json }, nonFinite: nonFinite[1] }
        : spec;
    });

const pathArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...OPS.map((o) => o.grpcPath)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      `${SERVICE}/sendMessage`,
      `${SERVICE}/Foo`,
      `${SERVICE}/`,
      `${SERVICE}`,
      "/lf.a2a.v1.A2AServic/SendMessage",
      "/a2a.v1.A2AService/SendMessage",
      "/grpc.health.v1.Health/Check",
      "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
      "/",
      "//",
      `${SERVICE}/SendMessage/`,
      `${SERVICE}/SendMessage?x=1`,
      `${SERVICE}%2FSendMessage`,
      "/lf.a2a.v1.A2AService/GetTask/../SendMessage",
    ),
  },
);

/** grpc-timeout values, valid and not. */
const timeoutValue = fc.constantFrom(
  "1S",
  "10S",
  "100m",
  "5000000u",
  "1H",
  "1M",
  "99999999H",
  "600H",
  "720H",
  "99999999S",
  "99999999M",
  "1n",
  "0S",
  "0m",
  "-1S",
  "1",
  "S",
  "1s",
  "1.5S",
  "123456789S",
  "abc",
  "",
);

/** Metadata: content-type, te and the rest. */
const metadata: fc.Arbitrary<[string, string][]> = fc
  .record({
    contentType: fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom("application/grpc", "application/grpc+proto") },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "application/grpc; charset=utf-8",
          "Application/GRPC",
          "application/grpc+json",
          "application/grpc-web",
          "application/grpc-web-text",
          "application/json",
          "application/grpcx",
          "text/plain",
          "",
        ),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    te: fc.oneof(
      { weight: 20, arbitrary: fc.constant<string | undefined>("trailers") },
      { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, "gzip", "") },
    ),
    timeout: sometimes(timeoutValue, 0.15),
    encoding: sometimes(
      fc.constantFrom("identity", "gzip", "deflate", "snappy", "br", "", "gzip, identity", "zstd"),
      0.12,
    ),
    acceptEncoding: sometimes(
      fc.constantFrom("identity", "gzip", "identity,gzip,deflate", "nonsense", ""),
      0.12,
    ),
    version: sometimes(versionValue, 0.92),
    extensions: sometimes(extensionsValue, 0.1),
    authorization: sometimes(
      fc.constantFrom(
        "Bearer fuzz-alice",
        "Bearer fuzz-bob",
        "Bearer fuzz-carol",
        "Bearer nope",
        "Basic YTpi",
        "",
        "bearer fuzz-alice",
      ),
      0.2,
    ),
    stray: fc.oneof(
      { weight: 17, arbitrary: fc.constant([]) },
      {
        weight: 3,
        arbitrary: fc.array(
          fc.oneof(
            fc.tuple(
              headerName.map((n) => n.toLowerCase()),
              headerValue(24),
            ),
            fc.tuple(
              headerName.map((n) => `${n.toLowerCase()}-bin`),
              fc.oneof(
                fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString("base64")),
                headerValue(12),
              ),
            ),
            fc.tuple(
              fc.constantFrom(
                "grpc-status",
                "grpc-message",
                "grpc-status-details-bin",
                "a2a-version",
                "grpc-timeout",
                "user-agent",
                "grpc-previous-rpc-attempts",
              ),
              headerValue(16),
            ),
          ),
          { maxLength: 3 },
        ),
      },
    ),
  })
  .map((r) => {
    const h: [string, string][] = [];
    if (r.contentType !== undefined) h.push(["content-type", r.contentType]);
    if (r.te !== undefined) h.push(["te", r.te]);
    if (r.timeout !== undefined) h.push(["grpc-timeout", r.timeout]);
    if (r.encoding !== undefined) h.push(["grpc-encoding", r.encoding]);
    if (r.acceptEncoding !== undefined) h.push(["grpc-accept-encoding", r.acceptEncoding]);
    if (r.version !== undefined) h.push(["a2a-version", r.version]);
    if (r.extensions !== undefined) h.push(["a2a-extensions", r.extensions]);
    if (r.authorization !== undefined) h.push(["authorization", r.authorization]);
    h.push(...r.stray);
    return h;
  });

/** A whole gRPC call. */
const plainGrpcInput: fc.Arbitrary<GrpcInput> = pathArb.chain((path) =>
  fc
    .record({
      path: fc.constant(path),
      headers: metadata,
      frames: fc.oneof(
        { weight: 20, arbitrary: frameFor(path).map((f) => [f]) },
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 2, arbitrary: fc.array(frameFor(path), { minLength: 2, maxLength: 3 }) },
      ),
      cancelAfterMs: sometimes(fc.integer({ min: 0, max: 30 }), 0.015),
    })
    .map(
      ({ cancelAfterMs, ...call }): GrpcInput =>
        cancelAfterMs === undefined ? call : { ...call, cancelAfterMs },
    ),
);

/** The metadata of a normal call (sized and slow-reader calls), anonymous. */
const NORMAL_METADATA: [string, string][] = [
  ["content-type", "application/grpc"],
  ["te", "trailers"],
  ["a2a-version", "1.0"],
];

/**
 * A gRPC call: mostly {@link plainGrpcInput}; rarely a SendMessage at a size limit (test/support/fuzz-sizes.ts), or a
 * call for a large answer the client never reads (GetTask of the big task, ListTasks with artifacts:
 * test/support/fuzz-slow-readers.ts).
 */
export const grpcInput: fc.Arbitrary<GrpcInput> = withRareInputs(
  plainGrpcInput,
  (grow): GrpcInput => ({
    path: `${SERVICE}/SendMessage`,
    headers: NORMAL_METADATA,
    frames: [],
    grow,
  }),
  fc.boolean().map(
    (get): GrpcInput => ({
      path: `${SERVICE}/${get ? "GetTask" : "ListTasks"}`,
      headers: NORMAL_METADATA,
      frames: [
        {
          payload: {
            json: get
              ? { tenant: BIG_TENANT, id: BIG_TASK }
              : { tenant: BIG_TENANT, pageSize: 100, includeArtifacts: true },
          },
          bend: [],
          flag: 0,
          lengthDelta: 0,
        },
      ],
      neverRead: true,
    }),
  ),
);
