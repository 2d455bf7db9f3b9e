import { api } from '../../api/test/helpers.js';
import { createUser, uniqueName, type TestUser } from './backend.js';
import { planWithMember } from './plans-fixtures.js';
import { projectWithSheet, visitWithRooms } from './visits-fixtures.js';

/**
 * For the tests that sweep every route of the route table (phone widths,
 * accessibility): a super administrator with one of everything, and a
 * concrete address for each route pattern.
 */

/** A super administrator (sees every route) with a project, a ready sheet and a visit. */
export async function seed() {
  const owner: TestUser = await createUser({ super_admin: true, role: 'super_admin' } as Parameters<typeof createUser>[0]);
  const project = await projectWithSheet(owner, uniqueName('Phone site'));
  const sheet = project.maps[0];
  const visit = await visitWithRooms(owner, { id_project: project.id, name: 'Walk on a phone', id_map: sheet.id }, []);
  // A snag, so /snaglist shows its table (not its empty state) on the phone.
  const snag = await api().post('/api/annotations').set(owner.auth).send({ id_visit: visit.id, title: 'Cracked tile by the lift door, second row', priority: 'high', due_date: '2026-01-05' });
  if (snag.status !== 201) throw new Error(`snag not created: ${snag.status} ${JSON.stringify(snag.body)}`);
  const plan = await planWithMember(owner, owner);
  return { owner, project, sheet, visit, plan };
}

export type Seeded = Awaited<ReturnType<typeof seed>>;

/**
 * A concrete address for each pattern of the route table: each ':param' gets
 * a seeded id, chosen by the route's first segment; optional ones are dropped.
 * A new route with a parameter this does not know fails here, loudly.
 */
export function concretePath(pattern: string, s: Seeded): string {
  const first = pattern.split('/')[1];
  const ids: Record<string, Record<string, string | number>> = {
    project: { id: s.project.id },
    editproject: { id: s.project.id },
    editsheet: { id: s.sheet.id },
    sheet: { id: s.sheet.id },
    visits: { id: s.project.id },
    editvisit: { id: s.visit.id },
    visittour: { id: s.visit.id },
    visitsheet: { id: s.visit.id },
    visitvideo: { id: s.visit.id },
    compare: { id: s.sheet.id },
    edituser: { id: s.owner.user.id },
    editplan: { id: s.plan.plan.id },
    editmember: { id: s.plan.member.id },
    viewer: { code: s.visit.code },
  };
  return pattern
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) return seg;
      const optional = seg.endsWith('?');
      const name = seg.slice(1).replace(/\?$/, '');
      const value = ids[first]?.[name];
      if (value !== undefined) return String(value);
      if (optional) return null;
      throw new Error(`route sweep: no seeded value for ':${name}' of ${pattern}; add one to concretePath()`);
    })
    .filter((seg) => seg !== null)
    .join('/');
}

