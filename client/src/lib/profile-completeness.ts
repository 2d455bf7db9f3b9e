import { PROFILE_FIELDS, type ProfileField } from '@sitewalk/proto';

/**
 * Profile completeness guard (SPEC §5): on a protected route, a profile that
 * lacks a field the settings mark mandatory sends the user to /editprofile
 * with the missing fields, unless the route opts out or the user is there.
 */

export const EDIT_PROFILE_PATH = '/editprofile';

type Flags = Partial<Record<string, unknown>>;
type ProfileLike = Partial<Record<ProfileField, unknown>>;

/** The mandatory profile fields (in SPEC order) that the user has left empty. */
export function missingProfileFields(user: ProfileLike | null | undefined, settings: Flags): ProfileField[] {
  if (!user) return [];
  return PROFILE_FIELDS.filter((f) => {
    if (settings[`${f}_mandatory`] !== true) return false;
    const v = user[f];
    return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
  });
}

/** Where the guard sends the user, or null to let the route render. */
export function profileGuardRedirect(
  route: { preventWhenProfileIncomplete?: boolean },
  pathname: string,
  missing: readonly ProfileField[],
): string | null {
  if (missing.length === 0) return null;
  if (route.preventWhenProfileIncomplete === false) return null;
  if (pathname.replace(/\/+$/, '') === EDIT_PROFILE_PATH) return null;
  return EDIT_PROFILE_PATH;
}
