import type { Knex } from 'knex';
import type { UserStats } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';
import { whereVisible } from './projects.repository.js';

/** The counts of a user's dashboard and profile: what lies in the projects they own or belong to. */

/**
 * Which columns exist in the tables the counts read. Features arrive with
 * their own migrations, so a count only runs once its table is there; until
 * then it is zero.
 */
async function columnsOf(k: Db, tables: string[]): Promise<Map<string, Set<string>>> {
  const rows: { table_name: string; column_name: string }[] = await k('information_schema.columns')
    .where('table_schema', k.raw('current_schema()'))
    .whereIn('table_name', tables)
    .select('table_name', 'column_name');
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}

const count = async (q: Knex.QueryBuilder) => Number((await q.count<{ n: number }[]>({ n: '*' }).first())?.n ?? 0);

/**
 * How many projects a user owns or belongs to (the same set GET /projects
 * lists), and the visits, sheets and open snags in those projects. The
 * features that own these tables extend the counts here as their tables grow.
 */
export async function userStatsCounts(k: Db, userId: number): Promise<UserStats> {
  const cols = await columnsOf(k, ['projects', 'visits', 'maps', 'annotations']);
  const stats: UserStats = { projects: 0, visits: 0, sheets: 0, open_snags: 0 };
  if (!cols.get('projects')?.has('id_owner')) return stats;
  // Owned or joined: what the user's dashboard and project list show.
  const owned = whereVisible(k('projects'), { id: userId, super_admin: false }).select('projects.id');
  const inOwnedProjects = async (table: string, extra?: (q: Knex.QueryBuilder) => void) => {
    if (!cols.get(table)?.has('id_project')) return 0;
    const q = k(table).whereIn('id_project', owned.clone());
    extra?.(q);
    return count(q);
  };
  const snagCols = cols.get('annotations');
  [stats.projects, stats.visits, stats.sheets, stats.open_snags] = await Promise.all([
    count(whereVisible(k('projects'), { id: userId, super_admin: false })),
    inOwnedProjects('visits'),
    inOwnedProjects('maps'),
    inOwnedProjects('annotations', (q) => {
      // A snag is open until it is closed; without a status column every snag counts as open.
      if (snagCols?.has('closed_at')) q.whereNull('closed_at');
      else if (snagCols?.has('status')) q.whereNot('status', 'closed');
    }),
  ]);
  return stats;
}
