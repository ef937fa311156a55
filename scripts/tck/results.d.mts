// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// Types of scripts/tck/results.mjs (for test/tck/results.test.ts).

export type TckOutcome = "passed" | "failed" | "skipped" | "xfailed";
export type TckTransport = "jsonrpc" | "http_json" | "grpc" | "card" | "any";

export interface TckRow {
  readonly nodeid: string;
  readonly test: string;
  readonly requirement: string;
  readonly transport: TckTransport;
  readonly level: string;
  readonly outcome: TckOutcome;
  readonly message: string;
}

export interface TckMetadata {
  readonly tests?: Readonly<
    Record<
      string,
      { readonly requirement: string; readonly level: string; readonly transport: string }
    >
  >;
  readonly testRequirements?: Readonly<Record<string, string>>;
  readonly requirementTransports?: Readonly<Record<string, readonly string[]>>;
}

export interface TckExpectation {
  readonly result: Exclude<TckOutcome, "passed">;
  readonly transports: readonly TckTransport[];
  readonly test?: string;
  readonly profiles?: readonly string[];
  readonly message: RegExp;
  readonly reason: string;
}

export interface TckFinding {
  readonly kind: "expected" | "unexpected" | "stale";
  readonly key: string;
  readonly transport: TckTransport;
  readonly test: string;
  readonly outcome: TckOutcome | "not run";
  readonly message: string;
  readonly reason?: string;
}

export type TckCell = { passed: number; failed: number; xfailed: number; skipped: number };

export function parseJunitXml(
  xml: string,
): { classname: string; name: string; outcome: TckOutcome; message: string }[];
export function dottedNodeId(nodeid: string): string;
export function metadataFromCompatibilityReport(
  report: unknown,
): Pick<TckMetadata, "testRequirements" | "requirementTransports">;
export function readRun(xml: string, metadata?: TckMetadata): TckRow[];
export function totals(rows: readonly TckRow[]): Record<string, Record<string, TckCell>>;
export function totalsTable(rows: readonly TckRow[]): string;
export function keyOf(row: TckRow): string;
export function verdict(
  rows: readonly TckRow[],
  expected: Readonly<Record<string, readonly TckExpectation[]>>,
  profile: string,
  defaultProfiles?: readonly string[],
): { ok: boolean; findings: TckFinding[] };
