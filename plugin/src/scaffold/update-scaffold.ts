// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * Brings an existing scaffold up to date with the proto without touching what its author
 * wrote: the operations table gets an entry for every RPC the proto gained (the fresh
 * scaffold's text) and the entries of RPCs it lost are commented out, flagged, with their
 * text kept; BINDING.md's generated tables are rewritten, keeping the author's cells.
 * TypeScript is edited through ts-morph's syntax tree, never by pattern matching.
 */
import type { ObjectLiteralExpression, PropertyAssignment, SourceFile } from "ts-morph";
import { renderOperationEntry } from "./render-scaffold.js";
import type { ScaffoldView } from "./scaffold-view.js";

/** An updated file and what changed (empty: nothing). */
export interface ScaffoldUpdate {
  readonly text: string;
  readonly changes: readonly string[];
}

/** The mark of an entry whose RPC left the proto (also how a rerun recognises it). */
export const REMOVED_MARK = "A2A-SCAFFOLD(removed)";

/** Updates `<name>-operations.ts`: adds entries for new RPCs, comments out those of removed ones. */
export async function updateOperationsFile(
  text: string,
  view: ScaffoldView,
): Promise<ScaffoldUpdate> {
  const { Project, SyntaxKind, Node } = await import("ts-morph");
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: false } });
  const file: SourceFile = project.createSourceFile("operations.ts", text);
  const variable = file.getVariableDeclaration(`${view.camel}Operations`);
  if (variable === undefined)
    throw new Error(
      `no "${view.camel}Operations" table in the file: was it renamed? Rename it back, or delete the file to scaffold it anew`,
    );
  let node = variable.getInitializerOrThrow();
  // `{ … } as const satisfies …`: down to the object literal.
  while (
    Node.isSatisfiesExpression(node) ||
    Node.isAsExpression(node) ||
    Node.isParenthesizedExpression(node)
  )
    node = node.getExpression();
  if (!Node.isObjectLiteralExpression(node))
    throw new Error(`"${view.camel}Operations" is not an object literal any more`);
  const table: ObjectLiteralExpression = node;
  const rpcs = new Set(view.operations.map((o) => o.name));
  const present = new Map<string, PropertyAssignment>();
  for (const p of table.getProperties()) {
    if (!Node.isPropertyAssignment(p)) continue;
    present.set(
      p
        .getNameNode()
        .getText()
        .replace(/^["']|["']$/g, ""),
      p,
    );
  }
  const changes: string[] = [];
  // Removed RPCs first (back to front, so that earlier positions stay valid).
  const removed = [...present.entries()].filter(([name]) => !rpcs.has(name));
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [name, property] of removed) {
    const start = property.getStart(true);
    let end = property.getEnd();
    const comma = property.getNextSiblingIfKind(SyntaxKind.CommaToken);
    if (comma !== undefined) end = comma.getEnd();
    const full = file.getFullText();
    const original = full.slice(start, end);
    // The property's own indentation, as the author has it.
    const lineStart = full.lastIndexOf("\n", start) + 1;
    const indent = /^[ \t]*/.exec(full.slice(lineStart, start))?.[0] ?? "";
    const kept = original
      .split("\n")
      .map((line) => `${indent}// ${line.trimStart()}`)
      .join("\n");
    edits.push({
      start,
      end,
      text: `// ${REMOVED_MARK}: ${name} is no longer an RPC of ${view.serviceType} (scaffold-binding v${view.version}); your entry, as it was:\n${kept}`,
    });
    changes.push(`flagged ${name} (no longer in the proto)`);
  }
  // New RPCs: after the last entry, in proto order.
  const added = view.operations.filter((o) => !present.has(o.name));
  if (added.length > 0) {
    const closing = table.getLastChildByKindOrThrow(SyntaxKind.CloseBraceToken);
    const entries = added.map((o) => renderOperationEntry(o)).join("");
    edits.push({ start: closing.getStart(), end: closing.getStart(), text: entries });
    for (const o of added) changes.push(`added ${o.name}`);
  }
  let out = file.getFullText();
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { text: out, changes };
}

/** The sections of BINDING.md the scaffold owns: rows keyed by their first cell, the last cell the author's. */
const SECTIONS = ["operations", "service-parameters", "errors"] as const;

function section(text: string, name: string): { start: number; end: number } | undefined {
  const begin = `<!-- a2a-scaffold:begin ${name} -->`;
  const finish = `<!-- a2a-scaffold:end ${name} -->`;
  const start = text.indexOf(begin);
  const end = text.indexOf(finish);
  if (start < 0 || end < start) return undefined;
  return { start: start + begin.length, end };
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/**
 * Rewrites the owned tables of BINDING.md from `fresh` (the newly rendered document), keeping
 * the author's last cell of every row whose key is still there; rows of things the proto lost
 * stay, struck through and flagged. Everything outside the markers is the author's, untouched.
 */
export function updateBindingDoc(text: string, fresh: string): ScaffoldUpdate {
  let out = text;
  const changes: string[] = [];
  for (const name of SECTIONS) {
    const mine = section(out, name);
    const theirs = section(fresh, name);
    if (mine === undefined || theirs === undefined) continue;
    const oldRows = out.slice(mine.start, mine.end).trim().split("\n");
    const newRows = fresh.slice(theirs.start, theirs.end).trim().split("\n");
    const [header, rule, ...rows] = newRows;
    const kept = new Map<string, string[]>();
    for (const row of oldRows.slice(2)) {
      const c = cells(row);
      kept.set(c[0]!.replace(/^~~(.*)~~.*$/, "$1"), c);
    }
    const keys = new Set<string>();
    const merged = rows.map((row) => {
      const c = cells(row);
      keys.add(c[0]!);
      const old = kept.get(c[0]!);
      if (old === undefined) changes.push(`${name}: added ${c[0]}`);
      else c[c.length - 1] = old[old.length - 1]!;
      return `| ${c.join(" | ")} |`;
    });
    for (const [key, old] of kept) {
      if (keys.has(key)) continue;
      const c = [...old];
      const flagged = c[0]!.startsWith("~~");
      if (!flagged) {
        c[0] = `~~${key}~~ (no longer in the proto)`;
        changes.push(`${name}: flagged ${key} (no longer in the proto)`);
      }
      merged.push(`| ${c.join(" | ")} |`);
    }
    out = `${out.slice(0, mine.start)}\n${[header, rule, ...merged].join("\n")}\n${out.slice(mine.end)}`;
  }
  return { text: out, changes };
}
