#!/usr/bin/env node
// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
/**
 * A round-robin HTTP/1.1 reverse proxy for trying several agent instances behind one address (what a
 * load balancer does in production): each request goes to the next instance in turn, bodies and SSE
 * streams pass through unbuffered, and the Agent Card's URLs are rewritten to the proxy's own.
 *
 *   node scripts/round-robin.mjs <listen port> <host:port> <host:port> …
 *
 * A development tool (no TLS, no health checks: an instance that is down answers 502 until it is back).
 */
import { createServer, request } from "node:http";

const [port, ...targets] = process.argv.slice(2);
if (port === undefined || targets.length === 0) {
  console.error("usage: node scripts/round-robin.mjs <listen port> <host:port> <host:port> …");
  process.exit(2);
}
let next = 0;
const server = createServer((req, res) => {
  const target = targets[next++ % targets.length];
  const [host, targetPort] = target.split(":");
  const upstream = request(
    { host, port: Number(targetPort), method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      const isCard =
        req.url?.startsWith("/.well-known/agent-card.json") && answer.statusCode === 200;
      if (!isCard) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      // The card names the instance's own URLs: clients that discover the agent through it must come back here.
      const chunks = [];
      answer.on("data", (c) => chunks.push(c));
      answer.on("end", () => {
        const self = `${req.headers.host ?? `127.0.0.1:${port}`}`;
        const text = Buffer.concat(chunks).toString("utf8").replaceAll(`//${target}`, `//${self}`);
        const headers = { ...answer.headers, "content-length": Buffer.byteLength(text) };
        delete headers.etag;
        res.writeHead(200, headers).end(text);
      });
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`instance ${target} is not reachable\n`);
  });
  res.on("close", () => upstream.destroy());
  req.pipe(upstream);
});
server.listen(Number(port), "127.0.0.1", () =>
  console.log(`round-robin proxy on http://127.0.0.1:${port} → ${targets.join(", ")}`),
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
