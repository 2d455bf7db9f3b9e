import { describe, expect, it } from 'vitest';
import { inviteMemberSchema, memberPermissions, removeMemberSchema, updatePermissionsSchema } from './teams.js';

describe('memberPermissions', () => {
  it('gives each role its defaults and lets stored toggles change only editors and viewers', () => {
    expect(memberPermissions('editor', {})).toEqual({ view: true, upload: true, edit: true, manage_snags: true, manage_team: false });
    expect(memberPermissions('viewer', { upload: true })).toEqual({ view: true, upload: true, edit: false, manage_snags: false, manage_team: false });
    expect(memberPermissions('editor', { edit: false, manage_team: true })).toMatchObject({ edit: false, manage_team: true });
    expect(memberPermissions('guest', { edit: true, manage_team: true })).toEqual({ view: true, upload: false, edit: false, manage_snags: false, manage_team: false });
    expect(memberPermissions('project_admin', { manage_team: false }).manage_team).toBe(true);
  });

  it('keeps view on, ignores what is not a boolean, and reads an unknown role as a viewer', () => {
    expect(memberPermissions('viewer', { view: false }).view).toBe(true);
    expect(memberPermissions('editor', { upload: 'no' }).upload).toBe(true);
    expect(memberPermissions('boss', null)).toEqual(memberPermissions('viewer', {}));
  });
});

describe('team request schemas', () => {
  it('checks roles, e-mails and the two forms of removal', () => {
    expect(inviteMemberSchema.safeParse({ email: 'A@B.test', role: 'editor', id_project: '4' }).data).toEqual({ email: 'a@b.test', role: 'editor', id_project: 4 });
    expect(inviteMemberSchema.safeParse({ email: 'a@b.test', role: 'owner', id_project: 4 }).success).toBe(false);
    expect(removeMemberSchema.safeParse({ id_member: 3 }).success).toBe(true);
    expect(removeMemberSchema.safeParse({ id_project: 3 }).success).toBe(false);
    expect(updatePermissionsSchema.safeParse({ id_project: 1, id_user: 2 }).success).toBe(false);
    expect(updatePermissionsSchema.safeParse({ id_project: 1, id_user: 2, permissions: { upload: true } }).success).toBe(true);
  });
});
