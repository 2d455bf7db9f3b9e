import type { MemberRole, ProjectCreateRequest, ProjectDetail, ProjectPermissions } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { api, uniqueName, type TestUser } from './helpers.js';

/** Creates a project through the API as `owner` and returns what the API answered. */
export async function newProject(owner: TestUser, fields: Partial<ProjectCreateRequest> = {}): Promise<ProjectDetail> {
  const res = await api().post('/api/projects').set(owner.auth).send({ name: uniqueName('Tower'), ...fields });
  if (res.status !== 201) throw new Error(`project not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as ProjectDetail;
}

/**
 * Makes `member` part of the project's team (the team feature does this
 * through invitations and join requests), with the role's permissions or
 * the ones given.
 */
export async function addMember(projectId: number, member: TestUser, role: MemberRole = 'viewer', permissions: Partial<ProjectPermissions> = {}) {
  await db()('project_members').insert({ id_project: projectId, id_user: member.user.id, role, permissions: JSON.stringify(permissions) });
}
