// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import { getComments } from "@bufbuild/protoplugin";
import type { DescMethod, DescService } from "@bufbuild/protobuf";

/**
 * JSDoc text for a generated symbol that stands for a service or an RPC: the proto
 * comments, then the lines this plugin adds, then `@generated from …` (and
 * `@deprecated`), the way protoc-gen-es documents its own symbols.
 */
export function docText(desc: DescService | DescMethod, extra: readonly string[] = []): string {
  const comments = getComments(desc);
  const blocks: string[] = [];
  for (const c of [comments.leading, comments.trailing]) {
    if (c === undefined) continue;
    const text = stripInternalComments(c);
    if (text.trim() === "") continue;
    blocks.push(
      text
        .replace(/\n$/, "")
        .split("\n")
        .map((line) => (line.startsWith(" ") ? line.substring(1) : line))
        .join("\n"),
    );
  }
  if (extra.length > 0) blocks.push(extra.join("\n"));
  let tail = `@generated from ${desc.toString()}`;
  if (desc.deprecated) tail += "\n@deprecated";
  blocks.push(tail);
  return blocks.join("\n\n");
}

/** Drops AIP-192 internal comments, `(-- … --)`: they are for API linters, not for readers. */
function stripInternalComments(comment: string): string {
  return comment.replace(/\(--[\s\S]*?--\)\s*/g, "");
}
