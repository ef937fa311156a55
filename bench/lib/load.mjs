// Load generation with autocannon: runs with sub-millisecond latency samples, and CPU sampling.
import autocannon from "autocannon";

/** The p-th percentile of an ascending array (NaN when empty). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A growable Float64Array of response times in ms. */
export class Samples {
  constructor() {
    this.data = new Float64Array(1 << 16);
    this.length = 0;
  }
  push(v) {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  percentile(p) {
    return percentile(this.data.subarray(0, this.length).sort(), p);
  }
}

/** One autocannon run of `options` (url, method, headers, body); pushes every 2xx response time into `latencies` if given. */
export function runAutocannon(options, connections, seconds, latencies) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { ...options, connections, duration: seconds, pipelining: 1, timeout: 10 },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    if (latencies !== undefined) {
      instance.on("response", (_client, statusCode, _bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      });
    }
  });
}

/**
 * Warm-up (if any), then one measured autocannon run against `server` (from children.startServer):
 * 2xx req/s, sub-ms p50/p99, errors, non-2xx, and the server's and this process's CPU per wall second.
 */
export async function measureAutocannon(server, options, { connections, warmup, duration }) {
  if (warmup > 0) await runAutocannon(options, connections, warmup);
  const samples = new Samples();
  const serverCpu0 = await server.cpu();
  const clientCpu0 = process.cpuUsage();
  const r = await runAutocannon(options, connections, duration, samples);
  const clientCpu = process.cpuUsage(clientCpu0);
  const serverCpu = (await server.cpu()) - serverCpu0;
  const seconds = r.duration || duration;
  return {
    serverCpu: serverCpu / 1e6 / seconds,
    clientCpu: (clientCpu.user + clientCpu.system) / 1e6 / seconds,
    reqPerSec: r["2xx"] / seconds,
    p50: samples.percentile(50),
    p99: samples.percentile(99),
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
  };
}
