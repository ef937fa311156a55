// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** Query-string helpers shared by the HTTP bindings. */

/**
 * One query parameter (name compared case-insensitively), form-decoded; undefined
 * when absent, "" when present without a value or malformed.
 */
export function queryParameter(query: string, name: string): string | undefined {
  if (query === "") return undefined;
  const wanted = name.toLowerCase();
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (key.toLowerCase() !== wanted) continue;
    try {
      return decodeURIComponent((eq < 0 ? "" : pair.slice(eq + 1)).replace(/\+/g, " "));
    } catch {
      return "";
    }
  }
  return undefined;
}
