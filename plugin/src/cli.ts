// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * The `protoc-gen-a2a` binary. Without arguments it is the protoc plugin (protoc and buf run
 * it that way: a CodeGeneratorRequest on stdin, the response on stdout); `init` sets up an
 * agent project, `--version` and `--help` say what they say.
 */
import { runNodeJs } from "@bufbuild/protoplugin";
import { protocGenA2a } from "./protoc-gen-a2a-plugin.js";
import { version } from "./version.js";

// The commands other than the plugin itself are imported when run: the plugin, which buf and protoc
// start once per generation, does not load (nor compile) them (plugin/build.mjs splits them out).

const USAGE = `protoc-gen-a2a ${version}: generates A2A servers, clients, route and error tables from a2a.proto.

usage:
  protoc-gen-a2a                      the protoc plugin (run by buf generate / protoc; reads stdin)
  protoc-gen-a2a init [dir] [--force] write proto/, buf.yaml, buf.gen.yaml, tsconfig.json and a
                                      starter agent into dir (default .), keeping existing files
  protoc-gen-a2a scaffold-binding --name <short-name> --uri <URI> [--help]
                                      write (or bring up to date) a custom binding's starting point:
                                      server adapter, client transport, operations table, BINDING.md
  protoc-gen-a2a check-generated [--template buf.gen.yaml]
                                      fail (exit 1) when the generated files are not what buf
                                      generate makes of the protos and options now
  protoc-gen-a2a diff <old> <new> [--format text|json] [--fail-on-breaking] [--options <opts>]
                                      what changed between two API versions (manifests or protos),
                                      each change breaking or not for servers and for clients
  protoc-gen-a2a --version | --help`;

const [command, ...rest] = process.argv.slice(2);
if (command === undefined) {
  if (process.stdin.isTTY) {
    // A person typed the plugin's name: a plugin would wait for a request on stdin forever.
    console.error(USAGE);
    process.exit(2);
  }
  runNodeJs(protocGenA2a);
} else if (command === "init" && (rest.includes("--help") || rest.includes("-h"))) {
  console.log(USAGE);
} else if (command === "init") {
  const { runInit } = await import("./init/init-command.js");
  const result = runInit(rest);
  (result.ok ? console.log : console.error)(result.lines.join("\n"));
  process.exit(result.ok ? 0 : 2);
} else if (command === "check-generated") {
  const { runCheck } = await import("./check/check-command.js");
  const result = runCheck(rest);
  (result.ok ? console.log : console.error)(result.lines.join("\n"));
  process.exit(result.ok ? 0 : 1);
} else if (command === "diff") {
  const { runDiff } = await import("./diff/diff-command.js");
  const result = runDiff(rest);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
} else if (command === "scaffold-binding") {
  const { runScaffold } = await import("./scaffold/scaffold-command.js");
  runScaffold(rest).then(
    (result) => {
      (result.ok ? console.log : console.error)(result.lines.join("\n"));
      process.exit(result.ok ? 0 : 2);
    },
    (e: unknown) => {
      console.error(
        `protoc-gen-a2a scaffold-binding: ${e instanceof Error ? e.message : String(e)}`,
      );
      process.exit(1);
    },
  );
} else if (command === "--version" || command === "-v") {
  console.log(`protoc-gen-a2a v${version}`);
} else if (command === "--help" || command === "-h") {
  console.log(USAGE);
} else {
  console.error(`protoc-gen-a2a: unknown command "${command}"\n\n${USAGE}`);
  process.exit(2);
}
