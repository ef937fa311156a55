// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * One fuzzed gRPC call over a real HTTP/2 connection (node:http2; reconnecting when the server
 * ended the session), and what its answer must be: an answer within the bound; a grpc-status
 * (trailers, or the headers of a trailers-only answer) of 0–16, HTTP 200, or 415 for a content
 * type that is not gRPC; a grpc-status-details-bin that decodes as google.rpc.Status with the same
 * code and an A2A ErrorInfo whose reason goes with the code (spec §10.6); for a well-formed call (one
 * intact, uncompressed message that decodes as the method's input) an error must be such an A2A
 * error (not UNKNOWN or INTERNAL), except CANCELLED and DEADLINE_EXCEEDED; answer messages decode
 * as the method's output; no stack trace or internal detail in grpc-message or the details.
 */
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { fromBinary, type DescMessage } from "@bufbuild/protobuf";
import { anyIs, anyUnpack } from "@bufbuild/protobuf/wkt";
import { StatusSchema } from "../../generated-example/gen/google/rpc/status_pb.js";
import { ErrorInfoSchema } from "../../generated-example/gen/google/rpc/error_details_pb.js";
import { A2AServiceOperations } from "../../generated-example/gen/a2a_a2a_handler.js";
import { leaks, SPEC_BY_REASON } from "./fuzz-checks.js";
import { tally } from "./fuzz-harness.js";
import type { GrpcInput } from "./fuzz-grpc-inputs.js";

/** What came back. */
export interface GrpcAnswer {
  readonly headers: IncomingHttpHeaders;
  readonly trailers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly timedOut: boolean;
  /** The stream was reset (RST_STREAM code) or the session failed, before a grpc-status. */
  readonly reset?: string;
  /** The client cancelled the call before its end (GrpcInput.cancelAfterMs): only bounds, rejections and logs are judged. */
  readonly cancelled?: boolean;
  /** The client library refused to send the call (e.g. a header HTTP/2 forbids): not the server's fault. */
  readonly clientRefused?: string;
}

const OUTPUT = new Map<string, DescMessage>(
  Object.values(A2AServiceOperations).map((o) => [o.grpcPath, o.output]),
);

/** A reconnecting HTTP/2 client of one gRPC server (`address` may be a getter: a restarted server listens elsewhere). */
export class GrpcFuzzClient {
  #session: ClientHttp2Session | undefined;
  #connectedTo = "";

  constructor(readonly target: string | (() => string)) {}

  /** host:port of the server now. */
  get address(): string {
    return typeof this.target === "string" ? this.target : this.target();
  }

  #connection(): ClientHttp2Session {
    const address = this.address;
    if (
      this.#session === undefined ||
      this.#session.closed ||
      this.#session.destroyed ||
      this.#connectedTo !== address
    ) {
      this.#session?.destroy();
      this.#session = connect(`http://${address}`);
      this.#connectedTo = address;
      this.#session.on("error", () => {});
    }
    return this.#session;
  }

  /** Sends one call (`headers` after :method/:path), the body, and waits for its end, at most `boundMs`. */
  async call(
    path: string,
    headers: readonly (readonly [string, string])[],
    body: Buffer,
    boundMs = 15_000,
    cancelAfterMs?: number,
  ): Promise<GrpcAnswer> {
    const answer = await this.#call(path, headers, body, boundMs, cancelAfterMs);
    // After a cancel: time for what the server still does for the call to settle before the next input is judged.
    if (cancelAfterMs !== undefined) await new Promise((r) => setTimeout(r, 25));
    return answer;
  }

  #call(
    path: string,
    headers: readonly (readonly [string, string])[],
    body: Buffer,
    boundMs: number,
    cancelAfterMs: number | undefined,
  ): Promise<GrpcAnswer> {
    return new Promise((resolve) => {
      let done = false;
      let responseHeaders: IncomingHttpHeaders = {};
      let trailers: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      const finish = (extra: Partial<GrpcAnswer>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve({
          headers: responseHeaders,
          trailers,
          body: Buffer.concat(chunks),
          timedOut: false,
          ...extra,
        });
      };
      const timer = setTimeout(() => {
        req?.close();
        finish({ timedOut: true });
      }, boundMs);
      let req: ReturnType<ClientHttp2Session["request"]> | undefined;
      try {
        const h: Record<string, string | string[]> = { ":method": "POST", ":path": path };
        for (const [k, v] of headers) {
          const seen = h[k];
          h[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
        }
        req = this.#connection().request(h);
      } catch (e) {
        finish({ clientRefused: e instanceof Error ? e.message : String(e) });
        return;
      }
      req.on("response", (h) => (responseHeaders = h));
      req.on("trailers", (t) => (trailers = t));
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("error", (e) => finish({ reset: e.message }));
      req.on("close", () => {
        const code = req!.rstCode;
        const status = trailers["grpc-status"] ?? responseHeaders["grpc-status"];
        finish(
          status === undefined && code !== undefined && code !== 0
            ? { reset: `RST_STREAM ${code}` }
            : {},
        );
      });
      if (cancelAfterMs !== undefined)
        setTimeout(() => {
          if (done) return;
          req?.close(constants.NGHTTP2_CANCEL);
          finish({ cancelled: true });
        }, cancelAfterMs);
      req.end(body);
    });
  }

  close(): void {
    this.#session?.close();
  }
}

/** The messages of a gRPC body (length-prefixed; compressed ones inflated by `encoding`), or a problem; gRPC-web trailers apart. */
export function messages(
  body: Buffer,
  encoding: string | undefined,
): { messages: Buffer[]; trailers: Record<string, string> } | string {
  const out: Buffer[] = [];
  const trailers: Record<string, string> = {};
  for (let at = 0; at < body.length; ) {
    if (body.length - at < 5) return "a cut message header in the answer";
    const flag = body[at]!;
    const length = body.readUInt32BE(at + 1);
    if (body.length - at - 5 < length) return "a cut message in the answer";
    let payload = body.subarray(at + 5, at + 5 + length);
    at += 5 + length;
    if ((flag & 0x80) !== 0) {
      for (const line of payload.toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        if (colon > 0)
          trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      continue;
    }
    if ((flag & 1) !== 0) {
      try {
        payload =
          encoding === "gzip"
            ? gunzipSync(payload)
            : encoding === "deflate"
              ? inflateSync(payload)
              : encoding === "br"
                ? brotliDecompressSync(payload)
                : payload;
      } catch (e) {
        return `a compressed answer message (${encoding}) that does not inflate: ${e instanceof Error ? e.message : String(e)}`;
      }
      if (encoding !== "gzip" && encoding !== "deflate" && encoding !== "br")
        return `a compressed answer message with grpc-encoding ${JSON.stringify(encoding)}`;
    }
    out.push(payload);
  }
  return { messages: out, trailers };
}

const UNIT_MS: Readonly<Record<string, number>> = {
  H: 3_600_000,
  M: 60_000,
  S: 1_000,
  m: 1,
  u: 0.001,
  n: 0.000001,
};

/** The milliseconds of a valid grpc-timeout value (gRPC over HTTP/2: 1–8 digits and a unit), undefined otherwise. */
export function grpcTimeoutMs(value: string): number | undefined {
  const m = /^(\d{1,8})([HMSmun])$/.exec(value);
  return m === null ? undefined : Number(m[1]) * UNIT_MS[m[2]!]!;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The grpc-status of an answer (trailers, or the headers of a trailers-only answer). */
export const grpcStatusOf = (a: GrpcAnswer): string | undefined => trailerOf(a, "grpc-status");

/** A trailer of an answer: HTTP/2 trailers, the headers of a trailers-only answer, or gRPC-web's trailer frame. */
export function trailerOf(a: GrpcAnswer, name: string): string | undefined {
  const direct =
    one(a.trailers[name] as string | undefined) ?? one(a.headers[name] as string | undefined);
  if (
    direct !== undefined ||
    !String(a.headers["content-type"] ?? "").startsWith("application/grpc-web")
  )
    return direct;
  const parsed = messages(a.body, one(a.headers["grpc-encoding"] as string | undefined));
  return typeof parsed === "string" ? undefined : parsed.trailers[name];
}

/** Problems of the answer to `input`; `wellFormed`: one intact message of the method's input was sent; `sent`: the client's text. */
export function checkGrpcAnswer(
  input: GrpcInput,
  answer: GrpcAnswer,
  wellFormed: boolean,
  sent: string,
): string[] {
  const problems: string[] = [];
  if (answer.clientRefused !== undefined) return problems;
  if (answer.timedOut)
    return [
      `no answer within the bound (hang) on ${input.path} (content-type ${input.headers.find(([k]) => k === "content-type")?.[1] ?? "none"})`,
    ];
  if (answer.cancelled === true) return problems;
  const contentType = input.headers.filter(([k]) => k === "content-type").map(([, v]) => v);
  // gRPC's Content-Type grammar has no parameters; a server may refuse others with 415 (gRPC over HTTP/2 spec).
  const grpcType =
    contentType.length === 1 && /^application\/grpc(?:\+proto)?$/.test(contentType[0]!);
  const httpStatus = Number(answer.headers[":status"]);
  const status = grpcStatusOf(answer);
  const why =
    status === "13" || status === "2" || status === "12"
      ? ` ${decodeURIComponent(trailerOf(answer, "grpc-message") ?? "")
          .replace(/\d+/g, "N")
          .slice(0, 60)}`
      : "";
  tally(
    `${httpStatus} grpc-status ${status ?? "none"}${why}${answer.reset !== undefined ? ` (${answer.reset})` : ""}`,
  );
  const known = OUTPUT.has(input.path);
  if (httpStatus >= 500) problems.push(`HTTP ${httpStatus} for a client's call`);
  if (status === undefined) {
    // Not gRPC (the Connect protocol, JSON, …): that protocol's own 4xx answer.
    if (!grpcType && httpStatus >= 400 && httpStatus < 500) return problems;
    return [
      `no grpc-status (HTTP ${httpStatus}${answer.reset !== undefined ? `, ${answer.reset}` : ""}${httpStatus === 404 ? ", unknown path" : `, content-type ${JSON.stringify(answer.headers["content-type"])}, ${answer.body.length} body bytes`})`,
    ];
  }
  if (!/^(?:[0-9]|1[0-6])$/.test(status))
    problems.push(`grpc-status ${JSON.stringify(status)} is not a gRPC code`);
  if (httpStatus !== 200 && !(httpStatus === 415 && !grpcType))
    problems.push(`HTTP ${httpStatus} with grpc-status ${status}`);
  const code = Number(status);
  const rawMessage = trailerOf(answer, "grpc-message") ?? "";
  let message = rawMessage;
  try {
    message = decodeURIComponent(rawMessage);
  } catch {}
  problems.push(...leaks(message, sent));
  const details = trailerOf(answer, "grpc-status-details-bin");
  let reason: string | undefined;
  if (details !== undefined) {
    try {
      const s = fromBinary(StatusSchema, Buffer.from(details, "base64"));
      if (s.code !== code)
        problems.push(`grpc-status-details-bin code ${s.code} is not grpc-status ${code}`);
      for (const any of s.details) {
        if (!anyIs(any, ErrorInfoSchema)) continue;
        const e = anyUnpack(any, ErrorInfoSchema);
        if (e === undefined) continue;
        if (e.domain !== "a2a-protocol.org")
          problems.push(`ErrorInfo domain ${JSON.stringify(e.domain)}`);
        const spec = SPEC_BY_REASON.get(e.reason);
        if (spec === undefined)
          problems.push(`ErrorInfo reason ${JSON.stringify(e.reason)} is not in the spec's table`);
        else if (spec.grpcCode !== code)
          problems.push(`grpc-status ${code} does not go with ErrorInfo reason ${e.reason}`);
        reason = e.reason;
        problems.push(...leaks(`${s.message} ${Object.values(e.metadata).join(" ")}`, sent));
      }
      if (code !== 0 && reason === undefined)
        problems.push("grpc-status-details-bin without an A2A ErrorInfo");
    } catch (e) {
      problems.push(
        `grpc-status-details-bin does not decode as google.rpc.Status: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  const encoding = input.headers.filter(([k]) => k === "grpc-encoding").map(([, v]) => v);
  const plainEncoding =
    encoding.length === 0 || (encoding.length === 1 && ["identity", "gzip"].includes(encoding[0]!));
  const timeouts = input.headers.filter(([k]) => k === "grpc-timeout").map(([, v]) => v);
  const untimed = timeouts.length === 0;
  if (
    wellFormed &&
    known &&
    grpcType &&
    plainEncoding &&
    untimed &&
    code !== 0 &&
    code !== 1 &&
    code !== 4
  ) {
    if (reason === undefined)
      problems.push(
        `grpc-status ${code} (${message.slice(0, 120)}) for a well-formed call, without an A2A ErrorInfo`,
      );
    if (code === 2 || code === 13)
      problems.push(`grpc-status ${code} for a well-formed call: ${message.slice(0, 200)}`);
  }
  // A deadline of an hour or more cannot pass during a fuzzed call.
  const timeoutMs = untimed || timeouts.length > 1 ? undefined : grpcTimeoutMs(timeouts[0]!);
  if (code === 4 && timeoutMs !== undefined && timeoutMs >= 3_600_000)
    problems.push(`DEADLINE_EXCEEDED with grpc-timeout ${timeouts[0]} (${timeoutMs} ms)`);
  if (code === 0 && known) {
    const msgs = messages(answer.body, one(answer.headers["grpc-encoding"] as string | undefined));
    if (typeof msgs === "string") problems.push(msgs);
    else
      for (const m of msgs.messages)
        try {
          fromBinary(OUTPUT.get(input.path)!, m);
        } catch (e) {
          problems.push(
            `an answer message does not decode as the method's output: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
  }
  return problems;
}
