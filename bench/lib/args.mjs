// Command-line options of the bench scripts: node:util parseArgs, --help, integer checks.
import { parseArgs } from "node:util";

/**
 * Parses the command line with `options` (plus -h/--help, which prints `usage` and exits 0).
 * Returns the parsed values and `intArg(name, min, max)`, which exits 2 on an out-of-range value.
 */
export function parseBenchArgs(usage, options) {
  const { values: args } = parseArgs({
    options: { ...options, help: { type: "boolean", short: "h", default: false } },
  });
  if (args.help) {
    console.log(usage);
    process.exit(0);
  }
  function intArg(name, min, max) {
    const n = Number(args[name]);
    if (!Number.isInteger(n) || n < min || n > max) {
      console.error(
        `--${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(args[name])}`,
      );
      process.exit(2);
    }
    return n;
  }
  return { args, intArg };
}
