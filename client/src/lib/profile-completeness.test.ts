import { describe, expect, it } from 'vitest';
import { missingProfileFields, profileGuardRedirect } from './profile-completeness';

const settings = { first_name_mandatory: true, company_mandatory: true, city_mandatory: false };

describe('profile completeness guard (SPEC §5)', () => {
  it('lists the mandatory fields the user left empty, an empty string counting as missing', () => {
    expect(missingProfileFields({ first_name: '', company: 'ACME', city: '' }, settings)).toEqual(['first_name']);
    expect(missingProfileFields({ first_name: '  ', company: null }, settings)).toEqual(['first_name', 'company']);
    expect(missingProfileFields({ first_name: 'Ana', company: 'ACME' }, settings)).toEqual([]);
  });

  it('sends the user to /editprofile from a protected route', () => {
    expect(profileGuardRedirect({}, '/dashboard', ['first_name'])).toBe('/editprofile');
    expect(profileGuardRedirect({ preventWhenProfileIncomplete: true }, '/notifications', ['company'])).toBe('/editprofile');
  });

  it('lets the user through when complete, on a route that opts out, or already on /editprofile', () => {
    expect(profileGuardRedirect({}, '/dashboard', [])).toBeNull();
    expect(profileGuardRedirect({ preventWhenProfileIncomplete: false }, '/profile', ['first_name'])).toBeNull();
    expect(profileGuardRedirect({}, '/editprofile', ['first_name'])).toBeNull();
  });
});
