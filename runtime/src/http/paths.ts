// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/** Small helpers both HTTP adapters share: base paths and body buffers. */

/** "" or "/" → undefined; otherwise a leading "/" and no trailing "/". */
export function normalizeBasePath(basePath: string | undefined): string | undefined {
  if (basePath === undefined) return undefined;
  let b = basePath;
  while (b.endsWith("/")) b = b.slice(0, -1);
  if (b === "") return undefined;
  return b.charCodeAt(0) === 47 ? b : `/${b}`;
}

/** The path under `base`, or undefined when the request is outside it. "/a2a" serves "/a2a" (as "/") and "/a2a/…". */
export function stripBasePath(path: string, base: string): string | undefined {
  if (!path.startsWith(base)) return undefined;
  if (path.length === base.length) return "/";
  return path.charCodeAt(base.length) === 47 ? path.slice(base.length) : undefined;
}

/** Joins body chunks into one buffer of `size` bytes (no copy for a single chunk). */
export function concatChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
