import { z } from 'zod';
import type { Resolver } from 'react-hook-form';
import { newPasswordFormSchema, profileFormSchema, requiredEmailSchema, usernameSchema, type ProfileField } from '@sitewalk/proto';
import { requestRules } from './edit-form-model';

/**
 * The rules of the account forms (sign-up, activation, password reset, your
 * own profile), each one of proto's schemas asked through requestRules, so the
 * form says what the server would, before anything is sent. Combine them with
 * allRules; messages are translation keys.
 */

/** The username a person chooses (proto's usernameSchema). */
export const usernameRules = <V extends { username: string }>(): Resolver<V> =>
  requestRules<V>((v) => ({ username: v.username }), z.object({ username: usernameSchema }));

/** An e-mail the form must have (SPEC §5 'Email is required', 'Invalid email format'). */
export const emailRules = <V extends { email: string }>(): Resolver<V> => requestRules<V>((v) => ({ email: v.email }), z.object({ email: requiredEmailSchema }));

/** A new password typed twice (proto's newPasswordFormSchema). */
export const newPasswordRules = <V extends { password: string; confirm: string }>(): Resolver<V> =>
  requestRules<V>((v) => ({ password: v.password, confirm: v.confirm }), newPasswordFormSchema);

/** The profile fields a form shows, the `required` ones not blank (proto's profileFormSchema). */
export const profileRules = <V extends Record<ProfileField, string>>(shown: readonly ProfileField[], required: readonly ProfileField[]): Resolver<V> =>
  requestRules<V>((v) => Object.fromEntries(shown.map((f) => [f, v[f]])), profileFormSchema(required));
