import { asMemberRole, memberPermissions, type MyInvitation, type PersonRef, type TeamInvitation, type TeamMember } from '@sitewalk/proto';
import { iso, type Db } from '../db/query-types.js';
import { signedUrl } from '../storage/index.js';
import { peopleRows, type PersonRow } from '../repositories/users.repository.js';
import type { TeamMemberRow } from '../repositories/team.repository.js';
import type { MyInvitationRow, ProjectInvitationRow } from '../repositories/invitations.repository.js';

/** How the API shows the people of a team and their invitations (proto's teams contract). */

export const personRef = (u: PersonRow): PersonRef => ({
  id: u.id,
  username: u.username,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  avatar_url: signedUrl(u.avatar),
});

export const teamMemberDto = (r: TeamMemberRow): TeamMember => ({
  id_member: r.id_member,
  user: personRef(r),
  role: asMemberRole(r.role),
  permissions: memberPermissions(r.role, r.permissions),
  joined_at: iso(r.joined_at),
});

/** The people with these ids, as they are shown (for "invited by"). */
async function peopleById(k: Db, ids: (number | null)[]): Promise<Map<number, PersonRef>> {
  const wanted = [...new Set(ids.filter((i): i is number => !!i))];
  const out = new Map<number, PersonRef>();
  if (!wanted.length) return out;
  for (const r of await peopleRows(k, wanted)) out.set(r.id, personRef(r));
  return out;
}

/** A project's invitations as its team managers see them. */
export async function teamInvitationDtos(k: Db, rows: (ProjectInvitationRow & { email: string })[]): Promise<TeamInvitation[]> {
  const inviters = await peopleById(k, rows.map((r) => r.invited_by));
  return rows.map((r) => ({
    id: r.id,
    id_project: r.id_project,
    id_user: r.id_user,
    email: r.email,
    role: asMemberRole(r.role),
    invited_by: r.invited_by ? (inviters.get(r.invited_by) ?? null) : null,
    sent: r.sent,
    created_at: iso(r.created_at),
  }));
}

/** A user's invitations as they see them. */
export async function myInvitationDtos(k: Db, rows: MyInvitationRow[]): Promise<MyInvitation[]> {
  const inviters = await peopleById(k, rows.map((r) => r.invited_by));
  return rows.map((r) => ({
    id: r.id,
    project: { id: r.id_project, name: r.project_name, project_code: r.project_code },
    role: asMemberRole(r.role),
    invited_by: r.invited_by ? (inviters.get(r.invited_by) ?? null) : null,
    status: r.status,
    created_at: iso(r.created_at),
  }));
}
