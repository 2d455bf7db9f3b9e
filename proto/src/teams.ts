import { z } from 'zod';
import { idField } from './ids.js';
import { emailSchema } from './users.js';

/**
 * Teams (SPEC §7 "Team members and join requests", GET /users/invitations,
 * POST /users/invitations/accept|decline/{id}; SPEC §4 and §6). Every answer
 * is wrapped in the envelope; the types below are what `data` holds.
 *
 *   GET  /team-members?id_project                 → ProjectTeam (any member; invitations and requests only for team managers)
 *   GET  /team-members/permissions?id_project&id_user → MemberPermissions (id_user defaults to the caller)
 *   PUT  /team-members/update-permissions         → TeamMember            body: UpdatePermissionsRequest
 *   POST /team-members/remove-team-member         → {removed: true}       body: {id_project, id_user} | {id_member}
 *   POST /team-members/leave-project              → {left: true}          body: {id_project}
 *   POST /team-members/invite-team-member         → 201 TeamInvitation    body: {email, role, id_project, permissions?}
 *   POST /team-members/cancel-invitation          → {cancelled: true}     body: {id_project, id_user}
 *   POST /team-members/transfer-ownership         → ProjectTeam           body: {id_project, id_user} (owner only)
 *   POST /join-requests/send                      → 201 MyJoinRequest     body: {project_code}
 *   GET  /join-requests/check-join-status         → JoinStatus | MyJoinRequest[]   query: {project_code?}
 *   POST /join-requests/cancel                    → {cancelled: true}     body: {id_project}
 *   POST /join-requests/accept                    → TeamMember            body: {id_project, id_user, role?}
 *   POST /join-requests/decline                   → {declined: true}      body: {id_project, id_user}
 *   GET  /users/invitations                       → MyInvitation[]
 *   POST /users/invitations/accept/{id}           → MyInvitation
 *   POST /users/invitations/decline/{id}          → MyInvitation
 *
 * A project the caller may not know of answers 404; one they may see but
 * not manage answers 403.
 */

/** The fixed set of per-member permissions every part of SiteWalk checks. */
export const PROJECT_PERMISSIONS = ['view', 'upload', 'edit', 'manage_snags', 'manage_team'] as const;
export type ProjectPermission = (typeof PROJECT_PERMISSIONS)[number];
/**
 * view: see the project, its sheets, visits and snags (every member has it);
 * upload: add files (PDF plans, 360 photos, walk-through videos);
 * edit: create, change and delete sheets and visits;
 * manage_snags: create, change and close snags;
 * manage_team: invite, remove and set the permissions of members, answer join requests.
 */
export type ProjectPermissions = Record<ProjectPermission, boolean>;

/**
 * Roles a member can have (sent on invitation). A project admin has every
 * permission; editors and viewers start from their defaults, which the owner
 * may change per member; a guest only reads, whatever is stored.
 */
export const MEMBER_ROLES = ['project_admin', 'editor', 'viewer', 'guest'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

const none: ProjectPermissions = { view: false, upload: false, edit: false, manage_snags: false, manage_team: false };
export const ALL_PERMISSIONS: ProjectPermissions = { view: true, upload: true, edit: true, manage_snags: true, manage_team: true };
export const READ_ONLY_PERMISSIONS: ProjectPermissions = { ...none, view: true };

/** What a new member of this role may do before anyone changes it. */
export const ROLE_DEFAULT_PERMISSIONS: Record<MemberRole, ProjectPermissions> = {
  project_admin: ALL_PERMISSIONS,
  editor: { ...none, view: true, upload: true, edit: true, manage_snags: true },
  viewer: READ_ONLY_PERMISSIONS,
  guest: READ_ONLY_PERMISSIONS,
};

/** Roles whose permissions are fixed by the role (toggles do not apply). */
export const FIXED_PERMISSION_ROLES: readonly MemberRole[] = ['project_admin', 'guest'];

/** A stored role as one of MEMBER_ROLES (anything unknown reads as a viewer: least power). */
export const asMemberRole = (role: string | null | undefined): MemberRole =>
  (MEMBER_ROLES as readonly string[]).includes(role ?? '') ? (role as MemberRole) : 'viewer';

/**
 * A member's effective permissions: the role's defaults, then what the owner
 * stored for editors and viewers. View is always on: membership is seeing.
 */
export function memberPermissions(role: string | null | undefined, stored: unknown): ProjectPermissions {
  const r = asMemberRole(role);
  const base = { ...ROLE_DEFAULT_PERMISSIONS[r] };
  if (!FIXED_PERMISSION_ROLES.includes(r) && stored && typeof stored === 'object') {
    for (const p of PROJECT_PERMISSIONS) {
      const v = (stored as Record<string, unknown>)[p];
      if (typeof v === 'boolean') base[p] = v;
    }
  }
  base.view = true;
  return base;
}

/** How long someone whose join request was declined waits before asking again. */
export const JOIN_REQUEST_COOLDOWN_MS = 3 * 24 * 60 * 60_000;

const permissionsPatch = z
  .object(Object.fromEntries(PROJECT_PERMISSIONS.map((p) => [p, z.boolean({ message: `${p} must be true or false.` }).optional()])) as Record<ProjectPermission, z.ZodOptional<z.ZodBoolean>>)
  .strict();
export type PermissionsPatch = z.infer<typeof permissionsPatch>;

const memberRole = z.enum(MEMBER_ROLES, { message: `role must be one of: ${MEMBER_ROLES.join(', ')}.` });

export const teamQuerySchema = z.object({ id_project: idField }).strict();

export const memberPermissionsQuerySchema = z.object({ id_project: idField, id_user: idField.optional() }).strict();

export const updatePermissionsSchema = z
  .object({ id_project: idField, id_user: idField, role: memberRole.optional(), permissions: permissionsPatch.optional() })
  .strict()
  .refine((o) => o.role !== undefined || (o.permissions && Object.keys(o.permissions).length > 0), { message: 'Send a role or at least one permission to change.' });
export type UpdatePermissionsRequest = z.input<typeof updatePermissionsSchema>;

export const removeMemberSchema = z.union(
  [z.object({ id_project: idField, id_user: idField }).strict(), z.object({ id_member: idField }).strict()],
  { error: 'Send {id_project, id_user} or {id_member}.' },
);
export type RemoveMemberRequest = z.input<typeof removeMemberSchema>;

export const projectOnlySchema = z.object({ id_project: idField }).strict();
export const projectUserSchema = z.object({ id_project: idField, id_user: idField }).strict();

export const inviteMemberSchema = z
  .object({ email: emailSchema, role: memberRole, id_project: idField, permissions: permissionsPatch.optional() })
  .strict();
export type InviteMemberRequest = z.input<typeof inviteMemberSchema>;

export const projectCodeField = z.string({ message: 'project_code is required.' }).trim().min(1, 'Enter the project code.').max(64, 'This is not a project code.');
export const joinSendSchema = z.object({ project_code: projectCodeField }).strict();
export const joinStatusQuerySchema = z.object({ project_code: projectCodeField.optional() }).strict();
export const joinAcceptSchema = z.object({ id_project: idField, id_user: idField, role: memberRole.optional() }).strict();

export interface PersonRef {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  avatar_url: string | null;
}

export interface TeamMember {
  /** The membership's id (id_member of remove-team-member); null for the owner, who is not a member row. */
  id_member: number | null;
  user: PersonRef;
  role: MemberRole | 'owner';
  permissions: ProjectPermissions;
  joined_at: string | null;
}

export interface TeamInvitation {
  id: number;
  id_project: number;
  id_user: number;
  /** Only the address the inviter typed: an invitation never tells who holds it. */
  email: string;
  role: MemberRole;
  invited_by: PersonRef | null;
  /** Whether the mail or notification could be queued. */
  sent: boolean;
  created_at: string;
}

export interface TeamJoinRequest {
  id: number;
  id_project: number;
  user: PersonRef;
  created_at: string;
}

/** GET /team-members: who is in the team and, for those who manage it, who is invited or asking. */
export interface ProjectTeam {
  id_project: number;
  owner: TeamMember;
  members: TeamMember[];
  /** Pending invitations; empty unless the caller may manage the team. */
  invitations: TeamInvitation[];
  /** Pending join requests; empty unless the caller may manage the team. */
  join_requests: TeamJoinRequest[];
  /** What the caller may do with this team. */
  can_manage_team: boolean;
  /** Only the owner or a super admin may name project admins, grant manage_team or hand the project over. */
  can_grant_admin: boolean;
  /** The caller is a member (not the owner) and may leave. */
  can_leave: boolean;
}

export interface MemberPermissions {
  id_project: number;
  id_user: number;
  role: MemberRole | 'owner' | 'admin';
  permissions: ProjectPermissions;
}

export interface ProjectRef {
  id: number;
  name: string;
  project_code: string;
}

/** One of the signed-in user's invitations (GET /users/invitations). */
export interface MyInvitation {
  id: number;
  project: ProjectRef;
  role: MemberRole;
  invited_by: PersonRef | null;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled';
  created_at: string;
}

export type JoinRequestStatus = 'pending' | 'accepted' | 'declined' | 'cancelled';

/** One of the signed-in user's join requests. */
export interface MyJoinRequest {
  id: number;
  project: ProjectRef;
  status: JoinRequestStatus;
  created_at: string;
  decided_at: string | null;
  /** After a decline: when the user may ask again (ISO), null when they may now. */
  retry_after: string | null;
}

/**
 * GET /join-requests/check-join-status?project_code: where the user stands
 * with that code. 'none' also for a code that does not exist or whose
 * project is not active: the answer never tells them apart.
 */
export interface JoinStatus {
  status: 'none' | 'member' | 'invited' | JoinRequestStatus;
  request: MyJoinRequest | null;
}

/** Pushed over Socket.IO to the team managers (and the person concerned) when a team changes. */
export interface TeamChangedEvent {
  id_project: number;
  change: 'join_request' | 'invitation' | 'member';
}
