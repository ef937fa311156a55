import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufGenTemplate } from "../../support/buf-gen-template.js";
import { repoRoot } from "../../support/plugin-runner.js";
import { typeCheck } from "../../support/type-check.js";

/**
 * End to end: `buf generate` runs protoc-gen-es and the bundled protoc-gen-a2a over
 * the second proto (library.proto, not A2A), and the output type-checks under strict
 * and routes requests by that proto's own rules.
 */
const buf = join(repoRoot, "node_modules/.bin/buf");
let out: string;

beforeAll(() => {
  mkdirSync(join(repoRoot, "test/.tmp"), { recursive: true });
  out = mkdtempSync(join(repoRoot, "test/.tmp/gen-"));
  const template = join(out, "buf.gen.yaml");
  writeFileSync(
    template,
    bufGenTemplate({
      inputs: [
        "  - directory: test/fixtures/proto",
        "  - directory: third_party/googleapis",
        "    paths: [third_party/googleapis/google/rpc/error_details.proto, third_party/googleapis/google/rpc/status.proto]",
      ],
      out: relative(repoRoot, out),
      options: ["import_extension=js", "errors=v1.0.0"],
    }),
  );
  execFileSync(buf, ["generate", "--template", template], { cwd: repoRoot, stdio: "pipe" });
});

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

function listTs(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split("\\").join("/"))
    .sort();
}

describe("buf generate over library.proto", () => {
  it("writes the file set of that proto, in its package folder", () => {
    const files = listTs(out);
    expect(files).toEqual(
      expect.arrayContaining([
        "demo/v1/library_pb.ts",
        "demo/v1/library_a2a_handler.ts",
        "demo/v1/library_a2a_errors.ts",
        "demo/v1/library_a2a_jsonrpc_methods.ts",
        "demo/v1/library_a2a_rest_routes.ts",
      ]),
    );
    // Not A2A-shaped: no task runtime and no agent client; and no runtime copy (it is imported from @protoc-gen-a2a/runtime).
    expect(files.filter((f) => /task|agent[-_]client/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith("a2a-runtime/"))).toEqual([]);
  });

  it("type-checks under strict, together with code that implements the handler", () => {
    const usage = join(out, "usage.ts");
    writeFileSync(
      usage,
      `
import { create } from "@bufbuild/protobuf";
import { BookSchema, ListBooksResponseSchema, PingResponseSchema, ShelfEventSchema } from "./demo/v1/library_pb.js";
import type { LibraryServiceHandler } from "./demo/v1/library_a2a_handler.js";
import { LibraryServiceOperations } from "./demo/v1/library_a2a_handler.js";
import { TaskNotFoundError, errorRegistry } from "./demo/v1/library_a2a_errors.js";
import { LibraryServiceRoutes } from "./demo/v1/library_a2a_rest_routes.js";
import { findLibraryServiceJsonRpcMethod } from "./demo/v1/library_a2a_jsonrpc_methods.js";
import { matchRoute } from "@protoc-gen-a2a/runtime/rest";

export const handler: LibraryServiceHandler<{ user: string }> = {
  async getBook(request, context) {
    if (context.principal?.user === undefined) throw new TaskNotFoundError();
    return create(BookSchema, { name: request.name });
  },
  async listBooks() { return create(ListBooksResponseSchema, {}); },
  async createBook(request) { return create(BookSchema, request.book); },
  async deleteBook(request) { return create(BookSchema, { name: request.name }); },
  async archiveBook(request) { return create(BookSchema, { name: request.name }); },
  async *watchShelf(_request, context) { if (!context.signal.aborted) yield create(ShelfEventSchema, {}); },
  async readFile(request) { return create(BookSchema, { name: request.path }); },
  async ping() { return create(PingResponseSchema, {}); },
};
const kind: "server_streaming" = LibraryServiceOperations.watchShelf.kind;
const m = matchRoute(LibraryServiceRoutes, "GET", "/v1/shelves/a/books/b");
const op: "GetBook" | "ListBooks" | "CreateBook" | "DeleteBook" | "ArchiveBook" | "WatchShelf" | "ReadFile" | "Ping" | undefined = m.kind === "match" ? m.route.operation : undefined;
export const checks = [kind, op, findLibraryServiceJsonRpcMethod("Ping")?.name, errorRegistry.specs.length];
`,
    );
    const diagnostics = typeCheck([join(out, "**/*.ts")]);
    expect(diagnostics).toEqual([]);
  });

  it("routes by the proto's own rules: multi-segment variables, verbs, ** and custom methods", async () => {
    const { matchRoute } = await import("@protoc-gen-a2a/runtime/rest");
    const { LibraryServiceRoutes } = await import(join(out, "demo/v1/library_a2a_rest_routes.ts"));
    const cases: [string, string, unknown][] = [
      [
        "GET",
        "/v1/shelves/s1/books/b1",
        { operation: "GetBook", params: { name: "shelves/s1/books/b1" } },
      ],
      [
        "POST",
        "/v1/shelves/s1/books/b1:archive",
        { operation: "ArchiveBook", params: { name: "shelves/s1/books/b1" } },
      ],
      ["GET", "/v1/shelves/s1:watch", { operation: "WatchShelf", params: { name: "shelves/s1" } }],
      ["GET", "/v1/shelves/s1/books", { operation: "ListBooks", params: { parent: "shelves/s1" } }],
      [
        "POST",
        "/v1/shelves/s1/books",
        { operation: "CreateBook", params: { parent: "shelves/s1" } },
      ],
      [
        "DELETE",
        "/v1/shelves/s1/books/b1",
        { operation: "DeleteBook", params: { name: "shelves/s1/books/b1" } },
      ],
      ["GET", "/v1/files/a/b/c.txt", { operation: "ReadFile", params: { path: "a/b/c.txt" } }],
      ["HEAD", "/v1/files/a", { operation: "ReadFile", params: { path: "a" } }],
    ];
    for (const [method, path, want] of cases) {
      const m = matchRoute(LibraryServiceRoutes, method, path);
      expect(m.kind, `${method} ${path}`).toBe("match");
      if (m.kind !== "match") continue;
      expect(
        { operation: m.route.operation, params: { ...m.params } },
        `${method} ${path}`,
      ).toEqual(want);
    }
    expect(matchRoute(LibraryServiceRoutes, "PUT", "/v1/shelves/s1/books/b1")).toEqual({
      kind: "method-not-allowed",
      allow: ["DELETE", "GET"],
    });
    expect(matchRoute(LibraryServiceRoutes, "GET", "/v1/ping").kind).toBe("not-found");
  });

  it("applies the errors option of that run", async () => {
    const { errorSpecs } = await import(join(out, "demo/v1/library_a2a_errors.ts"));
    expect(errorSpecs.TaskNotCancelableError.httpStatus).toBe(409);
  });
});

describe("generated-example/", () => {
  it("type-checks under strict with ts-morph's TypeScript too", () => {
    expect(typeCheck([join(repoRoot, "generated-example/gen/**/*.ts")])).toEqual([]);
  });
});
