/**
 * A real browser (Debian's Chromium, driven by playwright-core) on a page served from another
 * origin calls the example agent: JSON-RPC and HTTP+JSON through the generated clients, gRPC-web
 * and Connect through connect-web, each found in the agent's card. It proves the CORS answers
 * and the HTTP/1.1 Connect routes work where browsers enforce them (Node's fetch does not).
 * Chromium: `npm run setup:browser` (apt-get install chromium); CHROMIUM_PATH overrides the path.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";
import type { BindingReport } from "../../browser/page.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

describe("the example agent from a web page in Chromium", () => {
  let agent: ExampleAgent;
  let page: Server;
  let pageOrigin: string;
  let browser: Browser;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `no Chromium at ${CHROMIUM}: run 'npm run setup:browser' (apt-get install chromium) or set CHROMIUM_PATH`,
      );
    agent = await startExampleAgent({ longRunningMs: 200 });
    const bundle = await build({
      entryPoints: [new URL("../../browser/page.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      conditions: ["@protoc-gen-a2a/source"],
      logLevel: "silent",
    });
    const script = bundle.outputFiles[0]!.contents;
    // Nothing of Node in the page (the generated gRPC client's runtime entry has a browser build).
    expect(new TextDecoder().decode(script)).not.toMatch(
      /connect-node|node:http2|createGrpcTransport/,
    );
    page = createServer((req, res) => {
      if (req.url === "/page.js")
        res.writeHead(200, { "content-type": "text/javascript" }).end(script);
      else if (req.url === "/")
        res
          .writeHead(200, { "content-type": "text/html" })
          .end('<!doctype html><title>a2a</title><script type="module" src="/page.js"></script>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    // "localhost" against the agent's 127.0.0.1: another host, so every call is cross-origin.
    pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
    await agent?.close();
  });

  it("calls every binding a browser can speak, cross-origin, with the answers and errors of the other clients", async () => {
    const tab = await browser.newPage();
    tab.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    await tab.goto(`${pageOrigin}/`);
    await tab.waitForFunction(
      () => typeof (globalThis as { callEveryBinding?: unknown }).callEveryBinding === "function",
    );
    const reports = (await tab.evaluate(
      (cardUrl) =>
        (
          globalThis as unknown as {
            callEveryBinding: (e: { cardUrl: string }) => Promise<unknown>;
          }
        ).callEveryBinding({ cardUrl }),
      agent.cardUrl,
    )) as BindingReport[];
    expect(new URL(agent.cardUrl).origin).not.toBe(pageOrigin);
    expect(reports.map((r) => r.binding)).toEqual([
      "JSONRPC",
      "HTTP+JSON",
      "GRPC-WEB",
      "GRPC-WEB (generated client)",
      "CONNECT",
      "CONNECT (generated client)",
    ]);
    const events = ["task", "statusUpdate", "artifactUpdate", "statusUpdate"];
    for (const r of reports) {
      expect(r.reply, r.binding).toBe("message");
      expect(r.stream, r.binding).toEqual(events);
    }
    expect(reports.map((r) => [r.binding, r.missingTask, r.badToken])).toEqual([
      ["JSONRPC", "TaskNotFoundError", "UnauthenticatedError"],
      ["HTTP+JSON", "TaskNotFoundError", "UnauthenticatedError"],
      ["GRPC-WEB", "ConnectError 5", "ConnectError 16"],
      // The generated gRPC client on connect-web's transports: the A2A error classes, as on every other binding.
      ["GRPC-WEB (generated client)", "TaskNotFoundError", "UnauthenticatedError"],
      ["CONNECT", "ConnectError 5", "ConnectError 16"],
      ["CONNECT (generated client)", "TaskNotFoundError", "UnauthenticatedError"],
    ]);
    // No CORS refusal or other error in the page (the failed calls above are answers, not network errors).
    expect(consoleErrors.filter((e) => /CORS|Access-Control|net::/i.test(e))).toEqual([]);
  }, 60_000);
});
