import { z } from 'zod';
import { idField } from './ids.js';

/**
 * Subscription plans (SPEC §7 "Plans and tiers", §3 profile load). `data` of
 * each answer:
 *
 *   GET    /plans                          → Plan[]            super admin only (403 otherwise)
 *   POST   /plans                          → 201 Plan          super admin; 409 on a duplicate name
 *   GET    /plans/{id}                     → PlanDetail        super admin; with its subscriptions
 *   PUT    /plans/{id}                     → Plan              super admin; changed fields only
 *   DELETE /plans/{id}                     → {id}              super admin; 409 while anyone subscribes to it
 *   POST   /plans/{id}/subscriptions       → 201 PlanSubscription  super admin: gives a user the plan until expires_at
 *   PUT    /plan-subscriptions/{id}        → PlanSubscription  super admin: another expiry date or plan
 *   DELETE /plan-subscriptions/{id}        → {id}              super admin: cancels; the members leave the plan
 *   GET    /plan-members                   → PlanMembers       the signed-in user's plan: members, invites, id_owner
 *   POST   /plan-members/invite            → 201 PlanMember    the plan owner (or a manager): {email}; 409 when no slot is free
 *   GET    /plan-members/{id}              → PlanMember        the member, the plan's owner or managers, super admins; else 404
 *   PUT    /plan-members/{id}              → PlanMember        owner or super admin: {role}
 *   DELETE /plan-members/{id}              → {id}              owner, manager or super admin removes; a member leaves
 *
 * A plan's price is per period ('month' or 'year'); member_slots is how many
 * people besides the owner may use it (pending invitations hold a slot);
 * a null limit is no limit.
 */

export const PLAN_PERIODS = ['month', 'year'] as const;
export type PlanPeriod = (typeof PLAN_PERIODS)[number];

export const PLAN_MEMBER_ROLES = ['member', 'manager'] as const;
export type PlanMemberRole = (typeof PLAN_MEMBER_ROLES)[number];

/** How many days before its expiry the owner of a plan is told (notify_plan_expiring). */
export const PLAN_EXPIRY_NOTICE_DAYS = 7;

const isoDate = z.iso.date({ message: 'Use a date like 2026-03-31.' });
const money = (label: string) =>
  z
    .number({ message: `${label} must be a number.` })
    .min(0, `${label} cannot be negative.`)
    .max(10_000_000, `${label} is too large.`)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, `${label} has at most two decimals.`);
const limit = (label: string, max: number) =>
  z.number({ message: `${label} must be a whole number.` }).int(`${label} must be a whole number.`).min(0, `${label} cannot be negative.`).max(max, `${label} is too large.`).nullable();

export const planFields = {
  name: z.string().trim().min(1, 'Plan name is required').max(100, 'Plan name must be at most 100 characters.'),
  description: z.string().trim().max(2000, 'The description must be at most 2000 characters.'),
  price: money('Price'),
  currency: z.string().trim().regex(/^[A-Za-z]{3}$/, 'Use a three-letter currency code such as USD.').transform((s) => s.toUpperCase()),
  period: z.enum(PLAN_PERIODS, { message: "The period is 'month' or 'year'." }),
  member_slots: z.number({ message: 'Member slots must be a whole number.' }).int('Member slots must be a whole number.').min(0, 'Member slots cannot be negative.').max(10_000, 'At most 10000 member slots.'),
  max_projects: limit('The project limit', 1_000_000),
  max_storage_mb: limit('The storage limit', 1_000_000_000),
  max_video_minutes: limit('The video limit', 10_000_000),
  active: z.boolean(),
  /** Billing: what a month and a year cost in minor units (cents); null: not sold for that period. */
  price_month_minor: z.number({ message: 'The monthly price must be a whole number of cents.' }).int('The monthly price must be a whole number of cents.').min(0, 'The monthly price cannot be negative.').max(1_000_000_000, 'The monthly price is too large.').nullable(),
  price_year_minor: z.number({ message: 'The yearly price must be a whole number of cents.' }).int('The yearly price must be a whole number of cents.').min(0, 'The yearly price cannot be negative.').max(1_000_000_000, 'The yearly price is too large.').nullable(),
};

export const planCreateSchema = z.object(planFields).partial().required({ name: true, price: true, period: true, member_slots: true }).strict();
export type PlanCreateRequest = z.input<typeof planCreateSchema>;

export const planUpdateSchema = z
  .object(planFields)
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });
export type PlanUpdateRequest = z.input<typeof planUpdateSchema>;

export const subscriptionCreateSchema = z
  .object({
    /** The user's username or e-mail. */
    user: z.string().trim().min(1, 'Say who gets the plan: a username or an e-mail.').max(254),
    expires_at: isoDate,
  })
  .strict();
export type SubscriptionCreateRequest = z.input<typeof subscriptionCreateSchema>;

export const subscriptionUpdateSchema = z
  .object({ expires_at: isoDate, id_plan: idField })
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });
export type SubscriptionUpdateRequest = z.infer<typeof subscriptionUpdateSchema>;

export const planInviteSchema = z
  .object({ email: z.string().trim().toLowerCase().email('Invalid email format').max(254) })
  .strict();
export type PlanInviteRequest = z.input<typeof planInviteSchema>;

export const planMemberUpdateSchema = z.object({ role: z.enum(PLAN_MEMBER_ROLES, { message: "The role is 'member' or 'manager'." }) }).strict();
export type PlanMemberUpdateRequest = z.input<typeof planMemberUpdateSchema>;

export interface Plan {
  id: number;
  name: string;
  description: string;
  price: number;
  currency: string;
  period: PlanPeriod;
  member_slots: number;
  max_projects: number | null;
  max_storage_mb: number | null;
  max_video_minutes: number | null;
  active: boolean;
  /** Billing prices per period in minor units (null: not sold for that period). */
  price_month_minor?: number | null;
  price_year_minor?: number | null;
  /** How many users have this plan. */
  subscribers: number;
  created_at: string;
  updated_at: string;
}

export interface PlanUserRef {
  id: number;
  username: string;
  email: string;
  name: string;
}

export interface PlanSubscription {
  id: number;
  id_plan: number;
  plan_name: string;
  owner: PlanUserRef;
  /** The day the plan expires (YYYY-MM-DD, site time zone): from that day it no longer counts. */
  expires_at: string;
  /** Members and pending invitations. */
  slots_used: number;
  created_at: string;
}

export interface PlanDetail extends Plan {
  subscriptions: PlanSubscription[];
}

export interface PlanMember {
  id: number;
  id_subscription: number;
  id_user: number | null;
  /** The person, once they have an account. */
  user: PlanUserRef | null;
  email: string;
  role: PlanMemberRole;
  status: 'invited' | 'active';
  plan_name: string;
  id_owner: number;
  created_at: string;
  joined_at: string | null;
}

/** SPEC §3 plan_info: the plan the user owns or belongs to (null: none). */
export type PlanInfo = {
  id_subscription: number;
  id_plan: number;
  name: string;
  price: number;
  currency: string;
  period: PlanPeriod;
  expires_at: string;
  /** Days from today to the expiry date; negative once it has passed. */
  days_left: number;
  expired: boolean;
  is_owner: boolean;
  /** The member's role when is_owner is false. */
  role: PlanMemberRole | null;
  max_projects: number | null;
  max_storage_mb: number | null;
  max_video_minutes: number | null;
  /** What the plan's owner and members use together, against the limits above. */
  usage: PlanUsage;
};

/**
 * What the people of a plan (its owner and active members) use: the projects
 * they own, the bytes uploaded into them (PDFs, 360 photos, videos, snag and
 * point-of-interest files, covers) and the minutes of their videos.
 */
export interface PlanUsage {
  projects: number;
  storage_bytes: number;
  video_seconds: number;
}

/**
 * A plan-limit refusal (a new project, an upload or a video the plan has no
 * room for, or a plan that has expired) answers this status with the reason.
 * Without a plan there are no limits; a null limit is no limit.
 */
export const PLAN_LIMIT_STATUS = 403;

/** Storage limits are in MB of 1,048,576 bytes. */
export const PLAN_BYTES_PER_MB = 1024 * 1024;

export const PLAN_LIMIT_KINDS = ['expired', 'projects', 'storage', 'video_minutes'] as const;
export type PlanLimitKind = (typeof PLAN_LIMIT_KINDS)[number];

export const PLAN_LIMIT_WHOSE = ['ours', 'owner', 'new_owner'] as const;
export type PlanLimitWhose = (typeof PLAN_LIMIT_WHOSE)[number];

/**
 * The reasons of a refusal, by kind and by whose plan it is: 'ours' when the
 * person asking belongs to the plan, 'owner' when they upload into a project
 * of someone else's plan, 'new_owner' when a project is handed over to
 * someone whose plan has no room for it. The server fills them for its
 * message; the client fills their translation from `data.plan_limit` of the
 * 403 answer.
 */
export const PLAN_LIMIT_MESSAGES: Record<PlanLimitKind, Record<PlanLimitWhose, string>> = {
  expired: {
    new_owner: 'The plan "{plan}" of the new owner expired on {date}, so it cannot take this project until it is renewed.',
    ours: 'Your plan "{plan}" expired on {date}. Nothing new can be added until it is renewed; everything already stored stays available.',
    owner: 'The plan "{plan}" of this project\'s owner expired on {date}. Nothing new can be added until it is renewed; everything already stored stays available.',
  },
  projects: {
    new_owner: 'The plan "{plan}" of the new owner allows {limit} project(s) and {used} already exist, so it has no room for this project.',
    ours: 'Your plan "{plan}" allows {limit} project(s) and {used} already exist. Delete a project or ask for a larger plan.',
    owner: 'The plan "{plan}" of this project\'s owner allows {limit} project(s) and {used} already exist. Delete a project or ask the project owner for a larger plan.',
  },
  storage: {
    new_owner: 'This project holds {needed}, but the plan "{plan}" of the new owner has only {left} left of its {limit} MB of storage.',
    ours: 'This file needs {needed}, but your plan "{plan}" has only {left} left of its {limit} MB of storage. Delete files or ask for a larger plan.',
    owner: 'This file needs {needed}, but the plan "{plan}" of this project\'s owner has only {left} left of its {limit} MB of storage. Delete files or ask the project owner for a larger plan.',
  },
  video_minutes: {
    new_owner: 'This project has {needed} of video, but the plan "{plan}" of the new owner has only {left} of video left of its {limit} min.',
    ours: 'This video lasts {needed}, but your plan "{plan}" has only {left} of video left of its {limit} min. Delete a video or ask for a larger plan.',
    owner: 'This video lasts {needed}, but the plan "{plan}" of this project\'s owner has only {left} of video left of its {limit} min. Delete a video or ask the project owner for a larger plan.',
  },
};

/** `data.plan_limit` of a plan-limit refusal: which limit, whose plan, and the figures of its message. */
export interface PlanLimitRefusal {
  kind: PlanLimitKind;
  whose: PlanLimitWhose;
  vars: Record<string, string | number>;
}

/** A message template with its {placeholders} filled. */
export const fillPlanLimitMessage = (template: string, vars: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (all, k: string) => (k in vars ? String(vars[k]) : all));

/** SPEC §3 plan_slot. */
export type PlanSlot = {
  total: number;
  used: number;
  free: number;
};

/** SPEC §3 plan_members {members, invites, id_owner}. */
export type PlanMembersView = {
  members: PlanMember[];
  invites: PlanMember[];
  id_owner: number | null;
};
