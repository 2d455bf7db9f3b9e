import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, memberPermissions, type MemberRole, type TeamMember } from '@sitewalk/proto';
import { assignableRoles, canChangeMember, toggleEnabled } from './team-rules';

const member = (id: number, role: MemberRole | 'owner', stored: object = {}): TeamMember => ({
  id_member: role === 'owner' ? null : id,
  user: { id, username: `u${id}`, first_name: '', last_name: '', email: `u${id}@x.test`, avatar_url: null },
  role,
  permissions: role === 'owner' ? ALL_PERMISSIONS : memberPermissions(role, stored),
  joined_at: null,
});
const owner = { can_manage_team: true, can_grant_admin: true };
const manager = { can_manage_team: true, can_grant_admin: false };
const reader = { can_manage_team: false, can_grant_admin: false };

describe('team rules', () => {
  it('lets the owner change members but never the owner row or themselves', () => {
    expect(canChangeMember(owner, member(2, 'viewer'), 1)).toBe(true);
    expect(canChangeMember(owner, member(1, 'owner'), 1)).toBe(false);
    expect(canChangeMember(manager, member(3, 'editor'), 3)).toBe(false);
    expect(canChangeMember(reader, member(2, 'viewer'), 1)).toBe(false);
  });

  it('keeps a team manager away from project admins and other managers, and from granting manage_team', () => {
    expect(canChangeMember(manager, member(2, 'project_admin'), 9)).toBe(false);
    expect(canChangeMember(manager, member(2, 'viewer', { manage_team: true }), 9)).toBe(false);
    expect(toggleEnabled(manager, member(2, 'viewer'), 'upload', 9)).toBe(true);
    expect(toggleEnabled(manager, member(2, 'viewer'), 'manage_team', 9)).toBe(false);
    expect(toggleEnabled(owner, member(2, 'viewer'), 'manage_team', 1)).toBe(true);
    expect(assignableRoles(manager)).not.toContain('project_admin');
    expect(assignableRoles(owner)).toContain('project_admin');
  });

  it('never offers view, nor the toggles of fixed roles', () => {
    expect(toggleEnabled(owner, member(2, 'editor'), 'view', 1)).toBe(false);
    expect(toggleEnabled(owner, member(2, 'guest'), 'upload', 1)).toBe(false);
    expect(toggleEnabled(owner, member(2, 'project_admin'), 'edit', 1)).toBe(false);
  });
});
