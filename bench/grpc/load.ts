/**
 * The fallback load generator of bench/grpc.mjs when h2load is not on PATH: a @grpc/grpc-js
 * client loop in its own process (bundled with esbuild into node_modules/.cache/bench/).
 *
 * The parent sends one job over IPC:
 *   { port, path, message (base64 of the serialized request), connections, streams, seconds }
 * and gets back
 *   { ok, errors, codes, seconds, p50, p99, mean, cpu }
 * `connections` grpc-js channels (local subchannel pools, so one HTTP/2 connection each), each
 * with `streams` calls in flight; the request bytes are pre-serialized and the response is not
 * decoded (identity (de)serializers), so the client does as little as grpc-js allows. It is
 * still a JS client on the same machine: with few cores it is usually the bottleneck.
 *
 * One job per process: it exits after answering, when the parent goes away (IPC
 * "disconnect"), and at the latest 10 s after the job's duration.
 */
import * as grpc from "@grpc/grpc-js";

interface Job {
  readonly port: number;
  readonly path: string;
  readonly message: string;
  readonly connections: number;
  readonly streams: number;
  readonly seconds: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

async function run(job: Job): Promise<Record<string, unknown>> {
  const body = Buffer.from(job.message, "base64");
  const identity = (b: Buffer) => b;
  const clients = Array.from(
    { length: job.connections },
    () =>
      new grpc.Client(`127.0.0.1:${job.port}`, grpc.credentials.createInsecure(), {
        "grpc.use_local_subchannel_pool": 1,
      }),
  );
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let errors = 0;
  const codes: Record<string, number> = {};
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const end = started + job.seconds * 1000;

  const one = (client: grpc.Client) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const md = new grpc.Metadata();
      md.set("a2a-version", "1.0");
      client.makeUnaryRequest(
        job.path,
        identity,
        identity,
        body,
        md,
        { deadline: Date.now() + 10_000 },
        (err, res) => {
          const t = performance.now() - t0;
          if (err !== null || res === undefined || res.length === 0) {
            errors++;
            const code = String(err?.code ?? "empty");
            codes[code] = (codes[code] ?? 0) + 1;
          } else {
            if (count === latencies.length) {
              const next = new Float64Array(latencies.length * 2);
              next.set(latencies);
              latencies = next;
            }
            latencies[count++] = t;
          }
          resolve();
        },
      );
    });

  const loop = async (client: grpc.Client) => {
    while (performance.now() < end) await one(client);
  };
  await Promise.all(clients.flatMap((c) => Array.from({ length: job.streams }, () => loop(c))));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const c of clients) c.close();
  const sorted = latencies.subarray(0, count).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    ok: count,
    errors,
    codes,
    seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: count > 0 ? sum / count : NaN,
    cpu: (cpu.user + cpu.system) / 1e6 / seconds,
  };
}

if (process.send === undefined) {
  console.error("usage: forked by bench/grpc.mjs with an IPC channel");
  process.exit(2);
}
process.on("disconnect", () => process.exit(0));
process.once("message", (job: Job) => {
  setTimeout(() => process.exit(1), (job.seconds + 10) * 1000).unref();
  const reply = (m: object) => process.send?.(m, () => process.exit(0));
  run(job).then(
    (result) => reply({ result }),
    (e: unknown) => reply({ error: e instanceof Error ? e.message : String(e) }),
  );
});
process.send({ ready: true });
