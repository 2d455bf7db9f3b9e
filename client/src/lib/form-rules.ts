import { MESSAGES, PASSWORDS_DIFFER, passwordSchema, requiredEmailSchema, usernameSchema } from '@sitewalk/proto';
import { tk } from './i18n-keys';
import { schemaError } from './schema-errors';

/**
 * Client-side checks with the SPEC §5 messages, so a person sees what to fix
 * before anything is sent, for the forms not yet on react-hook-form (sign-up,
 * activation, password reset, profile details); the edit forms ask proto's
 * schemas through requestRules (components/edit-form). Username, password
 * and e-mail are proto's own schemas (the server checks the same); the rest
 * are rules of the forms alone. Each returns the message to show, or null.
 */

export const checkEmail = (v: string): string | null => schemaError(requiredEmailSchema, v);

export const checkFirstName = (v: string): string | null => (v.trim() ? null : MESSAGES.firstNameRequired);

export const checkPassword = (v: string): string | null => schemaError(passwordSchema, v);

export const checkSamePassword = (a: string, b: string): string | null => (a === b ? null : PASSWORDS_DIFFER);

export const checkUsername = (v: string): string | null => schemaError(usernameSchema, v);

export const checkRequired = (v: string): string | null => (v.trim() ? null : tk('This field is required.'));

/** True when an error map has no message. */
export const noErrors = (errors: Record<string, string | null | undefined>) => Object.values(errors).every((e) => !e);
