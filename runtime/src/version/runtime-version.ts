// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The runtime's version, released together with protoc-gen-a2a: generated code is written for
 * the runtime of the plugin version that wrote it (a test keeps this, runtime/package.json and
 * the plugin's version in step).
 */
export const RUNTIME_VERSION = "0.1.0";

/** Major.minor of a version; before 1.0 the minor is the compatibility line (0.1.x ↔ 0.1.y). */
const line = (version: string): string => {
  const [major = "", minor = ""] = version.replace(/^v/, "").split(".");
  return major === "0" ? `0.${minor}` : major;
};

/**
 * Fails at load, with what to do, when generated code meets a runtime of another release line.
 * Called once by every generated file that uses the runtime (`file`: its proto, for the message).
 *
 * @throws Error naming both versions when `generatorVersion` (e.g. "v0.1.0") and
 * {@link RUNTIME_VERSION} are not on the same line (same major; same minor before 1.0).
 *
 * Plumbing of generated code and bindings: private, not covered by semver.
 *
 * @private
 */
export function checkRuntimeVersion(generatorVersion: string, file: string): void {
  if (line(generatorVersion) === line(RUNTIME_VERSION)) return;
  throw new Error(
    `code generated from ${file} by protoc-gen-a2a ${generatorVersion} needs @protoc-gen-a2a/runtime ${line(generatorVersion)}.x, ` +
      `but ${RUNTIME_VERSION} is installed: install the runtime of the plugin's version, or regenerate with the plugin of the runtime's`,
  );
}
