// The one way the web starts an Excel export (DECISIONS "Files"): ask for a short-lived download
// token of the export's kind (GET /api/download/excel/{kind}/token, with the filters the server fixes
// in the token), then the plain link /ext/excel/{kind}/{token}, plus the query the export reads from
// the link itself (the contract says which: e.g. the board, the selected rows). Null when no token
// came (the client has already shown why).
import type { ApiClient } from '../../api/client';
import { outcomeOf } from '../../api/outcome';
import type { components, operations } from '../../api/schema';

type ExcelKind = components['schemas']['ExcelKind'];
type TokenQuery = NonNullable<operations['getExcelDownloadToken']['parameters']['query']>;

export async function excelExportUrl(
  api: ApiClient,
  kind: ExcelKind,
  tokenQuery: TokenQuery,
  linkQuery: Record<string, string | number | boolean | undefined> = {},
): Promise<string | null> {
  const outcome = await outcomeOf(api.GET('/api/download/excel/{kind}/token', { params: { path: { kind }, query: tokenQuery } }));
  const token = outcome.ok ? outcome.data?.token : undefined;
  if (!token) return null;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(linkQuery)) if (value !== undefined) query.set(key, String(value));
  // Lists such as userIds=3,7,25 keep their commas readable (a comma is allowed in a query).
  const search = query.toString().replace(/%2C/gi, ',');
  return `/ext/excel/${kind}/${encodeURIComponent(token)}${search ? `?${search}` : ''}`;
}
