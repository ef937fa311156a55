// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A framework-neutral view of one HTTP exchange, so that the JSON-RPC and HTTP+JSON
 * servers are written once and served both through the fetch API
 * (`(Request) => Promise<Response>`: Node, Deno, Bun, workers) and natively on
 * `node:http` / `node:http2` (no Request/Response allocation per call).
 */

/** The request, as the binding's pipeline sees it. */
export interface UniversalRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Path without the query string, still percent-encoded, e.g. "/tasks/abc%3A1". */
  readonly path: string;
  /** Raw query string without the leading "?", "" when none. */
  readonly query: string;
  /** A request header (case-insensitive name); repeated headers joined with ", ". */
  header(name: string): string | undefined;
  /** All headers, names lower-cased. */
  headers(): Iterable<[string, string]>;
  /**
   * Reads the whole body, at most `limit` bytes. Resolves to the bytes, or to
   * `"too-large"` as soon as more than `limit` bytes arrive (the rest is not
   * buffered). Rejects only if the client goes away.
   */
  readBody(limit: number): Promise<Uint8Array | "too-large">;
  /** Aborted when the client disconnects before the response is complete. */
  readonly signal: AbortSignal;
  /** Whether the client disconnected before the response was complete, without creating `signal`; absent: read `signal.aborted`. */
  readonly aborted?: boolean;
  /**
   * Calls `listener` once when the client disconnects before the response is complete (at once if it
   * already has); returns the function that stops watching. Cheaper than listening on `signal`,
   * which the runtime then never creates for handlers that do not read it. Optional.
   */
  onAbort?(listener: () => void): () => void;
}

/** A response whose body is complete in memory. */
export interface UniversalBufferedResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string | Uint8Array;
}

/**
 * A streamed response (SSE): the adapter writes each chunk as it comes, honouring
 * back-pressure, and calls `return()` on the iterator when the client goes away.
 */
export interface UniversalStreamResponse {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly stream: AsyncIterable<string>;
}

export type UniversalResponse = UniversalBufferedResponse | UniversalStreamResponse;

/** A binding's server: one exchange in, one response out. Never rejects. */
export type UniversalHandler = (request: UniversalRequest) => Promise<UniversalResponse>;
