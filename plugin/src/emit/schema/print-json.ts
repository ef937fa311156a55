// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0

/**
 * Prints a generated JSON document: two-space indent, keys in the order the emitter built
 * them (deterministic), no trailing newline (the generated file adds one).
 */
export function printJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
