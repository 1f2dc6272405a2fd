import type { ApiKey } from '../generated/prisma/client';
import { iso } from './iso';

export function presentApiKey(k: ApiKey, fullKey?: string) {
  return {
    id: k.id,
    object: 'api_key',
    type: k.type,
    mode: k.mode,
    label: k.label,
    ...(fullKey !== undefined ? { key: fullKey } : {}),
    last4: k.last4,
    created_at: iso(k.createdAt),
  };
}
