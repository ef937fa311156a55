// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
// The example agent (generated-example/agent/main.ts) as `npm run tck` runs it. Profile "tck":
// A2A_PROFILE=tck (loopback webhooks, REST application/json) on code generated with the
// generator's `errors=v1.0.0` option (the spec version the TCK pins): buf generates
// generated-example/gen's inputs, with buf.gen.yaml's plugins and options plus errors=v1.0.0, into
// a temporary folder, and the bundle's imports of generated-example/gen/… resolve there. Profile
// "default": the agent as `npm run example` starts it (the checked-in v1.0.1 code).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { parse, stringify } from "yaml";
import { bundleExampleAgent } from "../bundle-example-agent.mjs";

/** Generates generated-example/gen's code with `errors=v1.0.0` into `out` (buf.gen.yaml otherwise). */
export function generateV100({ repoRoot, out, templateFile }) {
  const built = spawnSync(process.execPath, [join(repoRoot, "plugin", "build.mjs")], {
    encoding: "utf8",
  });
  if (built.status !== 0)
    throw new Error(`building the plugin (node plugin/build.mjs) failed: ${built.stderr.trim()}`);
  const template = parse(readFileSync(join(repoRoot, "buf.gen.yaml"), "utf8"));
  template.clean = true;
  let found = false;
  for (const plugin of template.plugins) {
    plugin.out = out;
    if (String(plugin.local).includes("protoc-gen-a2a")) {
      plugin.opt = [
        ...(plugin.opt ?? []).filter((o) => !String(o).startsWith("errors=")),
        "errors=v1.0.0",
      ];
      found = true;
    }
  }
  if (!found) throw new Error("buf.gen.yaml has no protoc-gen-a2a plugin");
  writeFileSync(templateFile, stringify(template));
  const buf = join(repoRoot, "node_modules", ".bin", "buf");
  const r = spawnSync(buf, ["generate", "--template", templateFile], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new Error(`buf generate (errors=v1.0.0) failed: ${r.error?.message ?? r.stderr.trim()}`);
}

/** An esbuild plugin: relative imports that land in `from` resolve in `to` instead (`x.js` → `x.ts` when that exists). */
function redirect(from, to) {
  return {
    name: "generated-code-redirect",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = resolve(args.resolveDir, args.path);
        if (!target.startsWith(from + sep)) return undefined;
        let path = to + target.slice(from.length);
        if (path.endsWith(".js") && !existsSync(path) && existsSync(`${path.slice(0, -3)}.ts`))
          path = `${path.slice(0, -3)}.ts`;
        if (!existsSync(path))
          return { errors: [{ text: `${args.path}: ${path} was not generated` }] };
        return { path };
      });
    },
  };
}

/**
 * Bundles generated-example/agent/main.ts (optionally on other generated code) into `outfile`.
 * The bundle must lie inside the repository so that its external packages resolve from node_modules.
 */
export async function bundleAgent({ repoRoot, outfile, generatedCode }) {
  const gen = join(repoRoot, "generated-example", "gen");
  await bundleExampleAgent({
    outfile,
    plugins: generatedCode !== undefined ? [redirect(gen, generatedCode)] : [],
  });
}

/**
 * Starts a bundle made by {@link bundleAgent} on free ports (`capabilities`: A2A_CAPABILITIES, default all) and waits for its card URL.
 * @returns {Promise<{ baseUrl: string, output: () => string, stop: () => Promise<void> }>}
 */
export function startAgent({ bundle, profile, capabilities, timeoutMs = 60_000 }) {
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      A2A_PROFILE: profile === "tck" ? "tck" : "default",
      A2A_CAPABILITIES: capabilities ?? "",
      A2A_HTTP_PORT: "0",
      A2A_GRPC_PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise((done) => child.once("exit", done));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolveStart, rejectStart) => {
    let started = false;
    const fail = (why) => {
      if (started) return;
      clearTimeout(timer);
      void stop().then(() =>
        rejectStart(new Error(`the example agent did not start (${why}); its output:\n${output}`)),
      );
    };
    const timer = setTimeout(() => fail(`no card URL within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const m = /example agent: card (http:\/\/\S+?)\/\.well-known\/agent-card\.json/.exec(output);
      if (m !== null && !started) {
        started = true;
        clearTimeout(timer);
        resolveStart({ baseUrl: m[1], output: () => output, stop });
      }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code, signal) => fail(`it exited with ${signal ?? code}`));
  });
}
