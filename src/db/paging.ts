// Cursor paging shared by every list: newest first by (sortKey desc, id desc), `limit + 1`
// rows fetched to compute has_more, `starting_after` resolved within the caller's scope so an
// unknown, foreign or other-mode id answers `resource_missing`.
import { errors } from '../errors';

export interface PageParams {
  limit: number;
  startingAfter?: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

export interface Cursor {
  id: string;
  sortKey: Date;
}

/** Prisma where-fragment selecting rows strictly after the cursor in (field desc, id desc) order. */
export function afterCursor(cursor: Cursor, field = 'createdAt'): Record<string, unknown> {
  return {
    OR: [{ [field]: { lt: cursor.sortKey } }, { [field]: cursor.sortKey, id: { lt: cursor.id } }],
  };
}

export function newestFirst(field = 'createdAt'): Array<Record<string, 'desc'>> {
  return [{ [field]: 'desc' }, { id: 'desc' }];
}

export async function listPage<T>(args: {
  params: PageParams;
  /** Looks the cursor id up within the same scope and filters as the list. */
  findCursor: (id: string) => Promise<Cursor | null>;
  /** Fetches `take` rows, newest first, restricted by `after` when given. */
  fetch: (after: Record<string, unknown> | undefined, take: number) => Promise<T[]>;
  sortField?: string;
}): Promise<Page<T>> {
  let after: Record<string, unknown> | undefined;
  if (args.params.startingAfter !== undefined) {
    const cursor = await args.findCursor(args.params.startingAfter);
    if (!cursor) throw errors.resourceMissing(`No such object: '${args.params.startingAfter}'`, 'starting_after');
    after = afterCursor(cursor, args.sortField);
  }
  const rows = await args.fetch(after, args.params.limit + 1);
  return { data: rows.slice(0, args.params.limit), hasMore: rows.length > args.params.limit };
}
