/**
 * The example agent's API documents and API reference page: the OpenAPI (HTTP+JSON) and OpenRPC
 * (JSON-RPC) documents protoc-gen-a2a generates, served next to the Agent Card with `servers` set
 * to where the bindings are mounted (proved by calling them there), and the Swagger UI page at the
 * card's documentationUrl, opened in a real browser (Debian's Chromium, driven by playwright-core):
 * it lists every operation of the served document, logs no error, loads nothing from another
 * origin, and "Try it out" reaches the agent.
 * Chromium: `npm run setup:browser` (apt-get install chromium); CHROMIUM_PATH overrides the path.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startExampleAgent,
  type ExampleAgent,
} from "../../../generated-example/agent/echo-agent.js";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  readonly summary?: string;
}
interface OpenApi {
  openapi: string;
  servers: { url: string; description?: string }[];
  paths: Record<
    string,
    Partial<Record<(typeof HTTP_METHODS)[number], { operationId?: string; summary?: string }>>
  >;
}
interface OpenRpc {
  openrpc: string;
  servers: { name: string; url: string }[];
  methods: { name: string }[];
}

/** Every path × method of an OpenAPI document. */
function operationsOf(doc: OpenApi): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op !== undefined)
        out.push({
          method,
          path,
          ...(op.operationId !== undefined ? { operationId: op.operationId } : {}),
          ...(op.summary !== undefined ? { summary: op.summary } : {}),
        });
    }
  }
  return out;
}

describe("the example agent's API documents and Swagger UI reference page", () => {
  let agent: ExampleAgent;
  let browser: Browser;
  let openapi: OpenApi;
  let openrpc: OpenRpc;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `no Chromium at ${CHROMIUM}: run 'npm run setup:browser' (apt-get install chromium) or set CHROMIUM_PATH`,
      );
    agent = await startExampleAgent({ longRunningMs: 200 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.close();
  });

  it("serves the OpenAPI document at /openapi.json, its servers the mounted HTTP+JSON base, which answers its operations", async () => {
    expect(agent.endpoints.openapi).toBe(`${new URL(agent.cardUrl).origin}/openapi.json`);
    const res = await fetch(agent.endpoints.openapi);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("etag")).toBeTruthy();
    openapi = (await res.json()) as OpenApi;
    expect(openapi.openapi).toMatch(/^3\.1\./);
    expect(openapi.servers.map((s) => s.url)).toEqual([agent.endpoints.rest]);
    const card = (await (await fetch(agent.cardUrl)).json()) as {
      documentationUrl?: string;
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    expect(card.supportedInterfaces.find((i) => i.protocolBinding === "HTTP+JSON")?.url).toBe(
      openapi.servers[0]!.url,
    );
    // The server URL + a path of the document reaches the binding: the extended card without a token is the
    // agent's Unauthenticated (401), which no other mount answers.
    const extended = operationsOf(openapi).find(
      (o) => o.operationId === "GetExtendedAgentCard" && !o.path.includes("{tenant}"),
    );
    expect(extended?.method).toBe("get");
    const direct = await fetch(`${openapi.servers[0]!.url}${extended!.path}`, {
      headers: { "A2A-Version": "1.0" },
    });
    expect(direct.status).toBe(401);
    expect(operationsOf(openapi).length).toBeGreaterThan(1);
  });

  it("serves the OpenRPC document at /openrpc.json, its server the mounted JSON-RPC endpoint, which knows its methods", async () => {
    const res = await fetch(agent.endpoints.openrpc);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    openrpc = (await res.json()) as OpenRpc;
    expect(openrpc.openrpc).toMatch(/^1\.3\./);
    expect(openrpc.servers).toEqual([{ name: "JSON-RPC", url: agent.endpoints.jsonrpc }]);
    expect(openrpc.methods.map((m) => m.name)).toContain("GetTask");
    // Every method of the document is a method of the endpoint: not -32601 (method not found).
    for (const { name } of openrpc.methods) {
      const answer = (await (
        await fetch(openrpc.servers[0]!.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: name, params: {} }),
        })
      ).text()) as string;
      expect(answer, name).not.toContain("-32601");
    }
    const unknown = await fetch(openrpc.servers[0]!.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "NoSuchMethod", params: {} }),
    });
    expect(await unknown.text()).toContain("-32601");
  });

  it("names the docs page as the card's documentationUrl", async () => {
    const card = (await (await fetch(agent.cardUrl)).json()) as { documentationUrl?: string };
    expect(agent.endpoints.docs).toBe(`${new URL(agent.cardUrl).origin}/docs`);
    expect(card.documentationUrl).toBe(agent.endpoints.docs);
    const page = await fetch(agent.endpoints.docs);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  describe("the docs page in Chromium", () => {
    let tab: Page;
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    const failures: string[] = [];

    beforeAll(async () => {
      tab = await browser.newPage();
      tab.on("console", (m) => {
        if (m.type() === "error") consoleErrors.push(m.text());
      });
      tab.on("pageerror", (e) => consoleErrors.push(`page error: ${e.message}`));
      tab.on("request", (r) => requests.push(r.url()));
      tab.on("requestfailed", (r) => failures.push(`${r.url()}: ${r.failure()?.errorText}`));
      tab.on("response", (r) => {
        if (r.status() >= 400) failures.push(`${r.url()}: HTTP ${r.status()}`);
      });
      await tab.goto(agent.endpoints.docs);
      // Swagger UI has fetched the document and rendered its operations.
      await tab.waitForSelector(".opblock", { timeout: 20_000 });
    }, 60_000);

    it("renders Swagger UI with the document's title and every operation (method, path, operationId or summary), visibly", async () => {
      await expect
        .poll(() => tab.locator(".opblock").count(), { timeout: 10_000 })
        .toBe(operationsOf(openapi).length);
      const shown = await tab.$$eval(".opblock", (blocks) =>
        blocks.map((b) => ({
          method:
            b.querySelector(".opblock-summary-method")?.textContent?.trim().toLowerCase() ?? "",
          path:
            b
              .querySelector(".opblock-summary-path")
              ?.textContent?.replace(/\u200b/g, "")
              .trim() ?? "",
          operationId: b.querySelector(".opblock-summary-operation-id")?.textContent?.trim() ?? "",
          summary: b.querySelector(".opblock-summary-description")?.textContent?.trim() ?? "",
          visible:
            (
              b.querySelector(".opblock-summary") as { checkVisibility(): boolean } | null
            )?.checkVisibility() === true,
        })),
      );
      for (const op of operationsOf(openapi)) {
        const hit = shown.filter(
          (s) =>
            s.method === op.method &&
            s.path === op.path &&
            ((op.operationId !== undefined && s.operationId === op.operationId) ||
              (op.summary !== undefined && s.summary === op.summary)),
        );
        expect(
          hit,
          `${op.method.toUpperCase()} ${op.path} (${op.operationId ?? op.summary})`,
        ).toHaveLength(1);
        expect(hit[0]!.visible, `${op.method.toUpperCase()} ${op.path} visible`).toBe(true);
      }
      const title = (await tab.locator(".information-container .title").textContent()) ?? "";
      expect(title).toContain((openapi as unknown as { info: { title: string } }).info.title);
    });

    it("loads nothing from any origin but the agent's (no CDN, no online validator), without errors", () => {
      const agentOrigin = new URL(agent.endpoints.docs).origin;
      const network = requests.filter((u) => !u.startsWith("data:") && !u.startsWith("blob:"));
      expect(network).toContain(`${agentOrigin}/docs/swagger-ui-bundle.js`);
      expect(network).toContain(`${agentOrigin}/docs/swagger-ui.css`);
      expect(network).toContain(agent.endpoints.openapi);
      expect(network.filter((u) => new URL(u).origin !== agentOrigin)).toEqual([]);
      expect(failures).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });

    it("Try it out → Execute on GetExtendedAgentCard shows the agent's real answer", async () => {
      const op = operationsOf(openapi).find(
        (o) => o.operationId === "GetExtendedAgentCard" && !o.path.includes("{tenant}"),
      )!;
      const expected = await fetch(`${openapi.servers[0]!.url}${op.path}`, {
        headers: { "A2A-Version": "1.0" },
      });
      const expectedBody = (await expected.json()) as {
        error: { status: string; message: string };
      };
      expect(expected.status).toBe(401);
      const block = tab
        .locator(`.opblock-${op.method}`)
        .filter({ has: tab.locator(`.opblock-summary-path[data-path="${op.path}"]`) });
      await expect.poll(() => block.count()).toBe(1);
      await block.locator(".opblock-summary-control").click();
      await block.locator("button.try-out__btn").click();
      const errorsBefore = consoleErrors.length;
      await block.locator("button.execute").click();
      const status = block.locator(".live-responses-table .response .response-col_status");
      await status.first().waitFor({ timeout: 15_000 });
      // "401", then "Undocumented" when the document lists no such response.
      expect((await status.first().textContent())?.trim()).toMatch(
        new RegExp(`^${expected.status}(?!\\d)`),
      );
      const body =
        (await block
          .locator(".live-responses-table .response .response-col_description")
          .first()
          .textContent()) ?? "";
      expect(body).toContain(expectedBody.error.message);
      expect(await block.locator(".request-url pre").textContent()).toBe(
        `${agent.endpoints.rest}${op.path}`,
      );
      expect(requests).toContain(`${agent.endpoints.rest}${op.path}`);
      // Chromium logs the refused call itself, nothing else.
      expect(consoleErrors.slice(errorsBefore)).toEqual([
        `Failed to load resource: the server responded with a status of ${expected.status} (Unauthorized)`,
      ]);
    }, 60_000);
  });
});
