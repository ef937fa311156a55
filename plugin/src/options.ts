import type { ErrorProfile } from "./model/error-catalog.js";
import { errorProfiles } from "./model/error-catalog.js";

/** The options of protoc-gen-a2a, besides protoplugin's standard ones (`target`, `import_extension`, …). */
export interface PluginOptions {
  /**
   * `errors=v1.0.1` (default) or `errors=v1.0.0`: which version of the spec's §5.4
   * error table the generated error mappers follow.
   */
  readonly errorProfile: ErrorProfile;
  /**
   * `subscribe_post=true` (default) or `false`. a2a.proto binds SubscribeToTask to
   * `GET /tasks/{id}:subscribe` while the spec text (§5.3, §11.3.2) says POST; by
   * default the route table answers both. `false` keeps the proto's verb only.
   */
  readonly subscribePost: boolean;
  /**
   * `bindings=jsonrpc+rest+grpc` (default: all three): which bindings' servers and
   * clients to emit. A project without gRPC leaves `grpc` out and gets no imports of
   * `@connectrpc/*` at all.
   */
  readonly bindings: ReadonlySet<Binding>;
  /**
   * `grpc_server=grpc-js` (default) or `connect`: the stack behind the generated
   * `listen<Service>Grpc`. grpc-js is the faster gRPC server on Node (on par with or ahead of
   * @a2a-js/sdk's, see bench/grpc.mjs); Connect adds gRPC-web and the Connect protocol for
   * browsers. The Connect routes (`create<Service>GrpcRoutes`) are emitted either way.
   */
  readonly grpcServer: "grpc-js" | "connect";
  /**
   * `task_store=memory` (default) or `sqlite`: with `sqlite` the task runtime also gets a
   * SQLite store on better-sqlite3 (so an agent survives a restart) and the generated binder
   * a `create<Service>SqliteTaskStore(path)`; without it nothing imports better-sqlite3.
   */
  readonly taskStore: "memory" | "sqlite";
}

/** A binding the plugin can emit. */
export type Binding = "jsonrpc" | "rest" | "grpc";
const allBindings: readonly Binding[] = ["jsonrpc", "rest", "grpc"];

export const defaultOptions: PluginOptions = {
  errorProfile: "v1.0.1",
  subscribePost: true,
  bindings: new Set(allBindings),
  grpcServer: "grpc-js",
  taskStore: "memory",
};

/**
 * Parses the plugin's own options. Unknown keys and bad values throw: protoplugin
 * turns the throw into `invalid option "key=value": reason` and exits 1.
 */
export function parseOptions(raw: readonly { key: string; value: string }[]): PluginOptions {
  let errorProfile = defaultOptions.errorProfile;
  let subscribePost = defaultOptions.subscribePost;
  let bindings = defaultOptions.bindings;
  let grpcServer = defaultOptions.grpcServer;
  let taskStore = defaultOptions.taskStore;
  for (const { key, value } of raw) {
    switch (key) {
      case "errors":
        if (!(errorProfiles as readonly string[]).includes(value)) {
          throw new Error(`errors must be one of ${errorProfiles.join(", ")}; got "${value}"`);
        }
        errorProfile = value as ErrorProfile;
        break;
      case "subscribe_post":
        subscribePost = parseBoolean(key, value);
        break;
      case "bindings": {
        const list = value.split(/[+|]/).map((b) => b.trim()).filter((b) => b !== "");
        const unknown = list.filter((b) => !(allBindings as readonly string[]).includes(b));
        if (list.length === 0 || unknown.length > 0) {
          throw new Error(`bindings must be a +-separated list of ${allBindings.join(", ")}; got "${value}"`);
        }
        bindings = new Set(list as Binding[]);
        break;
      }
      case "grpc_server":
        if (value !== "grpc-js" && value !== "connect") throw new Error(`grpc_server must be grpc-js or connect; got "${value}"`);
        grpcServer = value;
        break;
      case "task_store":
        if (value !== "memory" && value !== "sqlite") throw new Error(`task_store must be memory or sqlite; got "${value}"`);
        taskStore = value;
        break;
      default:
        throw new Error(
          `unknown option "${key}"; protoc-gen-a2a accepts errors=v1.0.1|v1.0.0, subscribe_post=true|false, bindings=jsonrpc+rest+grpc, grpc_server=grpc-js|connect and task_store=memory|sqlite`,
        );
    }
  }
  return { errorProfile, subscribePost, bindings, grpcServer, taskStore };
}

function parseBoolean(key: string, value: string): boolean {
  if (value === "" || value === "true") return true;
  if (value === "false") return false;
  throw new Error(`${key} must be true or false; got "${value}"`);
}
