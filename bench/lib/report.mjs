// Reporting helpers of the bench scripts: medians, random order, number formats, Markdown tables, verdicts.

export function median(items, key) {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export function shuffle(items) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export const fmtInt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");
export const fmtMs = (n) => (Number.isFinite(n) ? n.toFixed(2) : "n/a");
export const fmtPct = (n) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : "n/a");
export const fmtRatio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "n/a");

/** A Markdown table; the first `textColumns` columns are left-aligned, the others right-aligned. */
export function table(header, rows, textColumns = 1) {
  const left = (i) => i < textColumns;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    "| " +
    cells
      .map((c, i) => (left(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join(" | ") +
    " |";
  return [
    line(header),
    "|" +
      widths.map((w, i) => (left(i) ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") +
      "|",
    ...rows.map(line),
  ].join("\n");
}

export const verdict = (ok) => (ok ? "PASS" : "FAIL");

/** Prints "Targets" and one PASS/FAIL line per `[name, ok, value]`. */
export function printTargets(targets) {
  console.log("\nTargets");
  for (const [name, ok, value] of targets)
    console.log(`  ${verdict(ok)}  ${name}${value ? `  (${value})` : ""}`);
}
