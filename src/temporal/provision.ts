// Makes a Temporal namespace ready for this service: registers the custom search attributes
// (idempotent; the dev server started by this project registers them at start already).
import type { Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../contracts/search-attributes';

export async function ensureSearchAttributes(connection: Pick<Connection, 'operatorService'>, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const have = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = CUSTOM_SEARCH_ATTRIBUTES.filter((k) => !have.has(k.name));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((k) => [k.name, proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD])),
  });
  return missing.map((k) => k.name);
}
