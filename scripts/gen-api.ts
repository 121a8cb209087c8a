// Generates src/api/schema.d.ts from openapi.yaml (npm run gen:api). The contract test imports
// generateApiTypes() too and compares its output with the committed file, so the two never drift.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

export const specUrl = new URL('../openapi.yaml', import.meta.url);
export const typesUrl = new URL('../src/api/schema.d.ts', import.meta.url);

/** The full text of src/api/schema.d.ts for the current openapi.yaml (the CLI's header included). */
export async function generateApiTypes(): Promise<string> {
  const ast = await openapiTS(specUrl, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(typesUrl, await generateApiTypes());
  console.log(`${fileURLToPath(specUrl)} -> ${fileURLToPath(typesUrl)}`);
}
