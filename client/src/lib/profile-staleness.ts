/**
 * Which successful writes change what the profile load shows (SPEC §3: the
 * user, plan, stats, plan slot, members, invites and preferences). The
 * profile is cached for an hour (SPEC §4); a write that changes any of it
 * makes the cache stale, so the dashboard counts and /profile's plan are
 * right on the next look — not after signing out and in.
 *
 * Paths are those of SPEC §7 (and the api's route tables), relative to /api.
 */
const PROFILE_SOURCES: RegExp[] = [
  // Counts: projects (owned or joined), visits, sheets, open snags.
  /^\/projects(\/|$)/,
  /^\/visits(\/|$)/,
  /^\/maps(\/|$)/,
  /^\/annotations(\/|$)/,
  // Joined projects: join requests, invitations, team membership.
  /^\/join-requests\//,
  /^\/team-members\//,
  /^\/users\/invitations\//,
  // Plan, plan slot and members.
  /^\/plans(\/|$)/,
  /^\/plan-subscriptions\//,
  /^\/plan-members(\/|$)/,
  // Design-cloud projects come in as projects.
  /^\/autodesk\/sync-/,
];

/** Read-only answers sent by POST (lookups), which change nothing. */
const LOOKUPS: RegExp[] = [/^\/project-tiers\/(find-tier|check-upgrade)$/];

/** True when a successful `method` request to `url` may change the signed-in user's profile load. */
export function writeChangesProfile(method: string | undefined, url: string | undefined): boolean {
  const m = (method ?? 'GET').toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS' || !url) return false;
  const path = url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/api(?=\/)/, '').split(/[?#]/)[0];
  if (LOOKUPS.some((re) => re.test(path))) return false;
  return PROFILE_SOURCES.some((re) => re.test(path));
}
