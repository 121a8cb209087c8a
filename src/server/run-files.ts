// Where the files the server reads or starts at run time are, whether it runs from its TypeScript
// sources (tsx, vitest) or from its build (dist-server/, scripts/build.mjs). The build bundles the
// server into one file, so there every module's import.meta.url is dist-server/main.js's: a module
// that finds a file next to itself finds it through here (decision 018).
import { fileURLToPath } from 'node:url';

/** True in the bundle of scripts/build.mjs, false from the TypeScript sources. */
export const BUILT = !import.meta.url.endsWith('.ts');

/** The absolute path of a run-time file: `source` relative to src/server/, `built` relative to dist-server/. */
export function runFile(source: string, built: string): string {
  return fileURLToPath(new URL(BUILT ? built : source, import.meta.url));
}
