// Copyright 2026 The protoc-gen-a2a Authors. SPDX-License-Identifier: Apache-2.0
import type { GeneratedFile, ImportSymbol, Printable, Schema } from "@bufbuild/protoplugin";
import type { PluginOptions } from "../../options.js";
import type { FileModel } from "../../model/service-model.js";
import { taskRuntimeMessages, type TaskRuntimeEnum } from "../../model/task-runtime.js";
import { outputModule } from "../file-names.js";
import { runtimeImport } from "../runtime-package.js";
import { serviceSymbols } from "./handler-interface.js";
import { generateTsFile } from "../preamble.js";

/** The task runtime's error factories → the generated error classes that implement them. */
const errorClasses = {
  TaskNotFound: "TaskNotFoundError",
  TaskNotCancelable: "TaskNotCancelableError",
  UnsupportedOperation: "UnsupportedOperationError",
  PushNotificationNotSupported: "PushNotificationNotSupportedError",
  ExtendedAgentCardNotConfigured: "ExtendedAgentCardNotConfiguredError",
  InvalidParams: "InvalidParamsError",
  Internal: "InternalError",
  Unauthenticated: "UnauthenticatedError",
} as const;

/**
 * Emits `<file>_a2a_task_handler.ts` for A2A-shaped services: the binder that hands the
 * task runtime this proto's schemas, enums and error classes, so that an agent author
 * writes only an executor and gets the whole handler interface.
 */
export function emitTaskHandlerFile(schema: Schema<PluginOptions>, model: FileModel): void {
  const services = model.services.filter((s) => s.taskRuntime !== undefined);
  if (services.length === 0) return;
  const f = generateTsFile(schema, model, "taskHandler");
  const task = runtimeImport("task");
  const createTaskHandler = f.import("createTaskHandler", task);
  const TaskRuntimeBinding = f.import("TaskRuntimeBinding", task, true);
  const TaskHandlerOptions = f.import("TaskHandlerOptions", task, true);
  const TaskHandlerIntrospection = f.import("TaskHandlerIntrospection", task, true);
  const AgentExecutor = f.import("AgentExecutor", task, true);
  const RequestContext = f.import("RequestContext", task, true);
  const TaskEmitter = f.import("TaskEmitter", task, true);
  // The generated TypeScript enum, as a value (importShape gives a type-only import); when a value
  // the runtime reads has another TypeScript name than its key (an enum whose values do not all
  // share the prefix), the keys are spelled out.
  const enumValue = (runtime: TaskRuntimeEnum): Printable => {
    const shape = f.importShape(runtime.desc);
    const value = f.import(shape.name, shape.from);
    if ([...runtime.members].every(([key, member]) => key === member)) return value;
    return [
      "{ ",
      [...runtime.members].flatMap(([key, member], i) => [
        i === 0 ? "" : ", ",
        key,
        ": ",
        value,
        ".",
        member,
      ]),
      " }",
    ];
  };
  for (const service of services) {
    const runtime = service.taskRuntime!;
    const base = service.desc.name;
    const names = serviceSymbols(service);
    const schemasName = `${base}TaskSchemas`;
    const bindingConst = `taskBindingOf${base}`;
    f.print(
      f.jsDoc(
        `The messages of ${service.typeName} the task runtime creates (the task stores read them too).`,
      ),
    );
    f.print(f.export("const", schemasName), " = {");
    for (const name of taskRuntimeMessages)
      f.print("  ", name, ": ", f.importSchema(runtime.messages.get(name)!), ",");
    f.print("};");
    f.print();
    f.print(f.jsDoc("Their type, the `S` of the task runtime's generics."));
    f.print(f.export("type", schemasName), " = typeof ", schemasName, ";");
    f.print();
    f.print("const ", bindingConst, ": ", TaskRuntimeBinding, "<", schemasName, "> = {");
    f.print("  schemas: ", schemasName, ",");
    f.print("  states: ", enumValue(runtime.taskState), ",");
    f.print("  roles: ", enumValue(runtime.role), ",");
    const extras = runtime.extraOperations;
    if (extras.length > 0) {
      f.print("  extraOperations: [");
      for (const op of extras)
        f.print(
          "    { name: ",
          JSON.stringify(op.name),
          ", localName: ",
          JSON.stringify(op.localName),
          ", kind: ",
          JSON.stringify(op.kind),
          " },",
        );
      f.print("  ],");
    }
    f.print("  errors: {");
    for (const [key, cls] of Object.entries(errorClasses)) {
      f.print(
        "    ",
        key,
        ": (message, options) => new ",
        f.import(cls, outputModule(model.file, "errors")),
        "(message, options),",
      );
    }
    f.print("  },");
    f.print("};");
    f.print();
    f.print(
      f.jsDoc(
        `An agent's logic for ${service.typeName}: \`execute\` publishes a Message, or a Task and its updates, through the emitter.`,
      ),
    );
    f.print(
      f.export("type", `${base}Executor`),
      "<Principal = unknown> = ",
      AgentExecutor,
      "<Principal, ",
      schemasName,
      ">;",
    );
    f.print(
      f.jsDoc(
        "What `execute` receives: the message, the task it continues (if any), ids and the call context.",
      ),
    );
    f.print(
      f.export("type", `${base}RequestContext`),
      "<Principal = unknown> = ",
      RequestContext,
      "<Principal, ",
      schemasName,
      ">;",
    );
    f.print(f.jsDoc("The emitter `execute` publishes through."));
    f.print(f.export("type", `${base}TaskEmitter`), " = ", TaskEmitter, "<", schemasName, ">;");
    f.print();
    const Handler = f.import(names.handler, outputModule(model.file, "handler"), true);
    const extraType = `${base}ExtraOperations`;
    const optionsType = `${base}TaskHandlerOptions`;
    if (extras.length > 0) {
      const list = extras.map((op) => op.name).join(", ");
      f.print(
        f.jsDoc(
          [
            `The RPCs of ${service.typeName} beyond the eleven A2A operations (${list}), as in \`${names.handler}\`:`,
            `the task runtime answers each UnsupportedOperationError until \`operations\` of \`create${base}TaskHandler\` implements it.`,
          ].join("\n"),
        ),
      );
      f.print(
        f.export("type", extraType),
        "<Principal = unknown> = Pick<",
        Handler,
        "<Principal>, ",
        extras.map((op) => JSON.stringify(op.localName)).join(" | "),
        ">;",
      );
      f.print();
      f.print(
        f.jsDoc(
          `Options of \`create${base}TaskHandler\`: the task runtime's, and implementations of ${list}.`,
        ),
      );
      f.print(
        f.export("interface", optionsType),
        "<Principal = unknown> extends ",
        TaskHandlerOptions,
        "<Principal, ",
        schemasName,
        "> {",
      );
      f.print(
        f.jsDoc(
          [
            `Implementations of ${list}: \`(request, context, handler)\`, request and call context (principal, tenant,`,
            `service parameters, signal) as in \`${names.handler}\`, and the complete handler (its \`getTask\` reads the`,
            "caller's tasks). One left out is answered UnsupportedOperationError on every binding.",
          ].join("\n"),
          "  ",
        ),
      );
      const ImplementationsOf = f.import("ExtraOperationImplementationsOf", task, true);
      f.print(
        "  readonly operations?: ",
        ImplementationsOf,
        "<",
        extraType,
        "<Principal>, ",
        Handler,
        "<Principal>> | undefined;",
      );
      f.print("}");
      f.print();
    }
    f.print(
      f.jsDoc(
        [
          `The complete handler of ${service.typeName}, from an executor: task lifecycle, history,`,
          "ListTasks pagination, cancellation, subscriptions with ordered fan-out, push config storage",
          "and the capability checks of spec §3.3.4, over a task store (in memory unless `options.store`).",
          ...(extras.length > 0
            ? [
                `${extras.map((op) => op.name).join(", ")}: \`options.operations\`, else UnsupportedOperationError.`,
              ]
            : []),
          "Serve it with any binding's generated server.",
          "",
          `@generated from service ${service.typeName}`,
        ].join("\n"),
      ),
    );
    if (extras.length > 0) {
      f.print(
        f.export("function", `create${base}TaskHandler`),
        "<Principal = unknown>(options: ",
        optionsType,
        "<Principal>): ",
        Handler,
        "<Principal> & ",
        TaskHandlerIntrospection,
        " {",
      );
      f.print(
        "  return ",
        createTaskHandler,
        "<Principal, ",
        schemasName,
        ", ",
        extraType,
        "<Principal>>(",
        bindingConst,
        ", options);",
      );
    } else {
      f.print(
        f.export("function", `create${base}TaskHandler`),
        "<Principal = unknown>(options: ",
        TaskHandlerOptions,
        "<Principal, ",
        schemasName,
        ">): ",
        Handler,
        "<Principal> & ",
        TaskHandlerIntrospection,
        " {",
      );
      f.print("  return ", createTaskHandler, "(", bindingConst, ", options);");
    }
    f.print("}");
    f.print();
  }
  emitTaskStoreFiles(schema, model, services);
}

/** The messages of a service the task runtime creates, as an object literal (`{ Task: TaskSchema, … }`). */
/** The task schemas table of the task handler file (`<Service>TaskSchemas`), imported by a store file. */
function importTaskSchemas(
  f: GeneratedFile,
  model: FileModel,
  service: FileModel["services"][number],
): ImportSymbol {
  return f.import(`${service.desc.name}TaskSchemas`, outputModule(model.file, "taskHandler"));
}

/** A store factory file of {@link emitTaskStoreFiles}: what differs between SQLite and PostgreSQL. */
interface TaskStoreFile {
  /** The `task_store` option's word for it, also the runtime entry of its class. */
  readonly store: "sqlite" | "postgres";
  readonly output: "sqliteTaskStore" | "postgresTaskStore";
  /** The runtime's store class (its options type is this name + `Options`). */
  readonly className: string;
  /** The factory's JSDoc lines. */
  readonly doc: (typeName: string, base: string) => string[];
  /** The factory's name. */
  readonly name: (base: string) => string;
  /** The parameters before the options, and the option keys the factory fills in (omitted from its options). */
  readonly params: string;
  readonly omit: string;
  /** The return type and the returned expression, around the store class and the schemas table. */
  readonly returns: (store: ImportSymbol) => Printable[];
  readonly body: (store: ImportSymbol, schemas: ImportSymbol) => Printable[];
}

/** The store factory files, in the order they are emitted. */
const TASK_STORE_FILES: readonly TaskStoreFile[] = [
  {
    store: "sqlite",
    output: "sqliteTaskStore",
    className: "SqliteTaskStore",
    doc: (typeName, base) => [
      `A task store for ${typeName} in a SQLite file (better-sqlite3, WAL): tasks and push configs`,
      "survive a restart. Pass it as `store` to `create" +
        base +
        'TaskHandler`; `":memory:"` for tests.',
      "Node only (better-sqlite3 is a native module); in a file of its own so that a bundle that does not import it",
      "(Workers, Deno, the browser) links no SQLite.",
    ],
    name: (base) => `create${base}SqliteTaskStore`,
    params: "path: string",
    omit: '"schemas"',
    returns: (store) => [store],
    body: (store, schemas) => ["new ", store, "(path, { ...options, schemas: ", schemas, " })"],
  },
  {
    store: "postgres",
    output: "postgresTaskStore",
    className: "PostgresTaskStore",
    doc: (typeName, base) => [
      `A task store for ${typeName} in PostgreSQL (pg) that several instances of the agent share: any`,
      "instance serves any call (streams, cancel and turns cross instances; a dead instance's running tasks are",
      "failed by the others). Connects, migrates the schema, joins the cluster. Pass it as `store` to",
      "`create" +
        base +
        "TaskHandler`; `close(graceMs)` it on shutdown. In a file of its own: only code that",
      "imports it loads `pg`.",
    ],
    name: (base) => `open${base}PostgresTaskStore`,
    params: "connectionString: string",
    omit: '"schemas" | "connectionString"',
    returns: (store) => ["Promise<", store, ">"],
    body: (store, schemas) => [
      store,
      ".open({ ...options, connectionString, schemas: ",
      schemas,
      " })",
    ],
  },
];

/**
 * Emits `<file>_a2a_sqlite_task_store.ts` (`task_store=sqlite`) and `<file>_a2a_postgres_task_store.ts`
 * (`task_store=postgres`): the store factories, each in a file of its own, so that only the code that
 * imports one loads its store module (better-sqlite3 and `node:fs`, or `pg`). The task handler file
 * imports neither: a bundle for Workers, Deno or a browser that uses the memory store links no Node-only store.
 */
function emitTaskStoreFiles(
  schema: Schema<PluginOptions>,
  model: FileModel,
  services: FileModel["services"],
): void {
  for (const file of TASK_STORE_FILES) {
    if (!schema.options.taskStore.includes(file.store)) continue;
    const f = generateTsFile(schema, model, file.output);
    const Store = f.import(file.className, runtimeImport(file.store));
    const StoreOptions = f.import(`${file.className}Options`, runtimeImport(file.store), true);
    for (const service of services) {
      const base = service.desc.name;
      const schemasConst = importTaskSchemas(f, model, service);
      f.print(f.jsDoc(file.doc(service.typeName, base).join("\n")));
      f.print(
        f.export("function", file.name(base)),
        `(${file.params}, options?: Omit<`,
        StoreOptions,
        `, ${file.omit}>): `,
        ...file.returns(Store),
        " {",
      );
      f.print("  return ", ...file.body(Store, schemasConst), ";");
      f.print("}");
      f.print();
    }
  }
}
