/**
 * @protoc-gen-a2a/runtime/next (runtime/src/frameworks/next.ts): the A2A handler as Next.js App Router
 * route handlers (`export const { GET, POST, … } = a2aNext(handler)`). Next.js is not installed: the
 * route handlers are called as Next.js calls them, with a fetch Request (and the route's params), by
 * the generated clients through their `fetch` option (test/support/framework-suite.ts).
 */
import { describe, expect, it } from "vitest";
import { a2aNext, type A2ANextRouteHandlers } from "@protoc-gen-a2a/runtime/next";
import { a2aMount, frameworkSuite, type FrameworkApp } from "../../support/framework-suite.js";

const ORIGIN = "https://agent.example.com";
const mount = a2aMount();
mount.setOrigin(ORIGIN);
/** app/a2a/[[...path]]/route.ts and app/.well-known/agent-card.json/route.ts, both exporting the same handlers. */
const route = a2aNext(mount.handler);

/** What Next.js does for a request: the route file's export named by the method, else 405; its own route beside it. */
const nextFetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const { pathname } = new URL(request.url);
  if (pathname === "/own") return new Response("own route");
  if (!pathname.startsWith("/a2a/") && pathname !== "/.well-known/agent-card.json")
    return new Response("not found", { status: 404 });
  const handler = route[request.method as keyof A2ANextRouteHandlers] as (
    request: Request,
    context: { params: Promise<unknown> },
  ) => Promise<Response>;
  if (handler === undefined) return new Response(null, { status: 405 });
  const response = await handler(request, {
    params: Promise.resolve({ path: pathname.split("/").slice(2) }),
  });
  // A server sends a HEAD answer's headers only.
  return request.method === "HEAD" ? new Response(null, response) : response;
};

describe("Next.js: a2aNext route handlers", () => {
  const app: FrameworkApp = {
    origin: ORIGIN,
    fetch: nextFetch,
    mount,
    ownRoute: { path: "/own", body: "own route" },
    close: async () => {},
  };

  frameworkSuite(() => app);

  it("exports a handler for every method Next.js routes", () => {
    expect(Object.keys(route).sort()).toEqual([
      "DELETE",
      "GET",
      "HEAD",
      "OPTIONS",
      "PATCH",
      "POST",
      "PUT",
    ]);
  });
});
