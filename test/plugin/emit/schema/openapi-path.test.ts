import { describe, expect, it } from "vitest";
import { openApiPathOf } from "../../../../plugin/src/emit/schema/openapi-path.js";
import { parseHttpTemplate } from "../../../../plugin/src/model/http-template.js";

/**
 * The OpenAPI path of a google.api.http template (plugin/src/emit/schema/openapi-path.ts): single
 * `*` variables stay one parameter; a variable with a pattern of its own is written out, one
 * parameter per wildcard, so that no two templates share a path and no parameter value holds `/`.
 */
const CASES: [template: string, path: string, parameters: string[]][] = [
  ["/tasks/{id}", "/tasks/{id}", ["id:whole"]],
  ["/tasks/{id=*}:cancel", "/tasks/{id}:cancel", ["id:whole"]],
  [
    "/{tenant}/tasks/{task_id}/pushNotificationConfigs/{id}",
    "/{tenant}/tasks/{task_id}/pushNotificationConfigs/{id}",
    ["tenant:whole", "task_id:whole", "id:whole"],
  ],
  ["/v1/{name=tasks/*}", "/v1/tasks/{task}", ["task:segment of name = tasks/{task}"]],
  [
    "/v1/{name=tasks/*/pushNotificationConfigs/*}",
    "/v1/tasks/{task}/pushNotificationConfigs/{pushNotificationConfig}",
    [
      "task:segment of name = tasks/{task}/pushNotificationConfigs/{pushNotificationConfig}",
      "pushNotificationConfig:segment of name = tasks/{task}/pushNotificationConfigs/{pushNotificationConfig}",
    ],
  ],
  [
    "/v1/{parent=tasks/*}/pushNotificationConfigs",
    "/v1/tasks/{task}/pushNotificationConfigs",
    ["task:segment of parent = tasks/{task}"],
  ],
  [
    "/v1/{name=operations/**}",
    "/v1/operations/{operationPath}",
    ["operationPath:segments of name = operations/{operationPath}"],
  ],
  ["/v1/{name=operations}", "/v1/operations", []],
  [
    "/v1/{parent=projects/*/databases/*/documents/*/**}/{collection_id}",
    "/v1/projects/{project}/databases/{database}/documents/{document}/{parentPath}/{collection_id}",
    [
      "project:segment of parent = projects/{project}/databases/{database}/documents/{document}/{parentPath}",
      "database:segment of parent = projects/{project}/databases/{database}/documents/{document}/{parentPath}",
      "document:segment of parent = projects/{project}/databases/{database}/documents/{document}/{parentPath}",
      "parentPath:segments of parent = projects/{project}/databases/{database}/documents/{document}/{parentPath}",
      "collection_id:whole",
    ],
  ],
  // A derived name never takes a whole variable's name, nor another derived one.
  [
    "/v1/{book.name=shelves/*/books/*}/{shelve}",
    "/v1/shelves/{shelve_2}/books/{book}/{shelve}",
    [
      "shelve_2:segment of book.name = shelves/{shelve_2}/books/{book}",
      "book:segment of book.name = shelves/{shelve_2}/books/{book}",
      "shelve:whole",
    ],
  ],
  [
    "/v1/{name=policies/*/indexes/*/statuses/*}",
    "/v1/policies/{policy}/indexes/{index}/statuses/{status}",
    [
      "policy:segment of name = policies/{policy}/indexes/{index}/statuses/{status}",
      "index:segment of name = policies/{policy}/indexes/{index}/statuses/{status}",
      "status:segment of name = policies/{policy}/indexes/{index}/statuses/{status}",
    ],
  ],
  [
    "/v1/{name=*/items/*}",
    "/v1/{name}/items/{item}",
    ["name:segment of name = {name}/items/{item}", "item:segment of name = {name}/items/{item}"],
  ],
  ["/", "/", []],
];

describe("openApiPathOf", () => {
  it.each(CASES)("%s → %s", (template, path, parameters) => {
    const rendered = openApiPathOf(parseHttpTemplate(template));
    expect(rendered.path).toBe(path);
    expect(
      rendered.parameters.map((p) =>
        p.kind === "whole"
          ? `${p.name}:whole`
          : `${p.name}:${p.kind} of ${p.variable.field} = ${p.valueForm}`,
      ),
    ).toEqual(parameters);
    // Every parameter appears in the path exactly once.
    for (const p of rendered.parameters)
      expect(rendered.path.split(`{${p.name}}`).length - 1, p.name).toBe(1);
  });

  it("gives the A2A 0.3 templates that used to share /v1/{name} paths of their own", () => {
    const paths = ["/v1/{name=tasks/*}", "/v1/{name=tasks/*/pushNotificationConfigs/*}"].map(
      (t) => openApiPathOf(parseHttpTemplate(t)).path,
    );
    expect(new Set(paths).size).toBe(2);
  });
});
