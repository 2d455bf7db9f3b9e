import { MESSAGES } from '@sitewalk/proto';
import { tk } from './i18n-keys';

/**
 * Client-side checks with the SPEC §5 messages (and the server's own limits),
 * so a person sees what to fix before anything is sent. Each returns the
 * message to show, or null.
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const checkEmail = (v: string): string | null =>
  !v.trim() ? MESSAGES.emailRequired : EMAIL.test(v.trim()) ? null : MESSAGES.invalidEmail;

export const checkFirstName = (v: string): string | null => (v.trim() ? null : MESSAGES.firstNameRequired);

export const checkPassword = (v: string): string | null =>
  v.length < 8 ? tk('Password must be at least 8 characters.') : v.length > 200 ? tk('Password must be at most 200 characters.') : null;

export const checkSamePassword = (a: string, b: string): string | null => (a === b ? null : tk('The passwords do not match.'));

export const checkUsername = (v: string): string | null => {
  const s = v.trim();
  if (s.length < 3) return tk('Username must be at least 3 characters.');
  if (s.length > 50) return tk('Username must be at most 50 characters.');
  return /^[A-Za-z0-9._-]+$/.test(s) ? null : tk('Username may use letters, digits, dot, dash and underscore only.');
};

export const checkRequired = (v: string): string | null => (v.trim() ? null : tk('This field is required.'));

/** True when an error map has no message. */
export const noErrors = (errors: Record<string, string | null | undefined>) => Object.values(errors).every((e) => !e);
