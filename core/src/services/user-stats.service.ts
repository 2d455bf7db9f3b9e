import type { UserStats } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { whereVisible } from './access.service.js';

/**
 * Which columns exist in the tables the counts read. Features arrive with
 * their own migrations, so a count only runs once its table is there; until
 * then it is zero.
 */
async function columnsOf(tables: string[]): Promise<Map<string, Set<string>>> {
  const rows: { table_name: string; column_name: string }[] = await db()('information_schema.columns')
    .where('table_schema', db().raw('current_schema()'))
    .whereIn('table_name', tables)
    .select('table_name', 'column_name');
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}

const count = async (q: ReturnType<ReturnType<typeof db>>) => Number((await q.count<{ n: number }[]>({ n: '*' }).first())?.n ?? 0);

/**
 * What a user has: the projects they own or belong to (the same set GET
 * /projects lists), and the visits, sheets and open snags in those projects.
 * Read by the profile load and the dashboard. The features that own these
 * tables extend the counts here as their tables grow.
 */
export async function userStats(userId: number): Promise<UserStats> {
  const cols = await columnsOf(['projects', 'visits', 'maps', 'annotations']);
  const stats: UserStats = { projects: 0, visits: 0, sheets: 0, open_snags: 0 };
  if (!cols.get('projects')?.has('id_owner')) return stats;
  const k = db();
  // Owned or joined: what the user's dashboard and project list show.
  const owned = whereVisible(k('projects'), { id: userId, super_admin: false }).select('projects.id');
  const inOwnedProjects = async (table: string, extra?: (q: ReturnType<typeof k>) => void) => {
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
