import { join } from "node:path";

/** The repository's root folder: tests anchor paths on it, so that they do not depend on how deep the test file sits in test/. */
export const repoRoot = join(import.meta.dirname, "..", "..");
