// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Generation notices: things the plugin did that the author should know about but that
 * do not stop generation (an RPC the bindings cannot carry was skipped, an RPC the task
 * runtime does not implement answers UnsupportedOperationError). One line each on the
 * plugin's stderr, which `buf generate` and protoc show:
 *
 * ```
 * protoc-gen-a2a: notice: a2a.proto: rpc lf.a2a.v1.A2AService.ArchiveTask: …
 * ```
 */
import { locationPrefix, type ErrorLocation } from "./generation-error.js";

/** Where notices go; tests replace it to collect them. */
export type NoticeSink = (line: string) => void;

let sink: NoticeSink = (line) => {
  process.stderr.write(`${line}\n`);
};

/** Reports one notice. */
export function notice(where: ErrorLocation, text: string): void {
  sink(`protoc-gen-a2a: notice: ${locationPrefix(where)}: ${text}`);
}

/** Replaces the sink; returns the previous one (restore it when done). */
export function setNoticeSink(next: NoticeSink): NoticeSink {
  const previous = sink;
  sink = next;
  return previous;
}
