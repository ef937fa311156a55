// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Types of scripts/tck/v03/results.mjs (for test/tck/v03-results.test.ts).
import type { TckRow } from "../results.mjs";

export const PER_TRANSPORT_CATEGORIES: readonly string[];
export const EQUIVALENCE: "transport-equivalence";
export const TRANSPORTS: Readonly<
  Record<"jsonrpc" | "rest" | "grpc", "jsonrpc" | "http_json" | "grpc">
>;
export const ALL: "any";
export function keyOfTest(nodeid: string, test: string): string;
export function rowsOfRun(xml: string, run: { category: string; transport: string }): TckRow[];
export function totalsTableV03(rows: readonly TckRow[]): string;
