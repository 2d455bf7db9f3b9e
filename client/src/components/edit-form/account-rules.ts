import { z } from 'zod';
import type { Resolver } from 'react-hook-form';
import { loginSchema, newPasswordFormSchema, passwordEmailSchema, profileFormSchema, requiredEmailSchema, usernameSchema, type ProfileField } from '@sitewalk/proto';
import { tk } from '../../lib/i18n-keys';
import { requestRules } from './edit-form-model';

/**
 * The rules of the account forms (sign-in, sign-up, activation, password
 * recovery and reset, your own profile), each one of proto's schemas asked through requestRules, so the
 * form says what the server would, before anything is sent. Combine them with
 * allRules; messages are translation keys.
 */

/** Signing in: proto's POST /login rules ('Enter your username or e-mail.', 'Enter your password.'). */
export const signInRules = <V extends { username: string; password: string }>(): Resolver<V> =>
  requestRules<V>((v) => ({ username: v.username, password: v.password }), loginSchema.pick({ username: true, password: true }));

/** Asking for a reset link: proto's POST /password/email rule, its `username_f` being the form's `login`. */
export const recoverRules = <V extends { login: string }>(): Resolver<V> =>
  requestRules<V>((v) => ({ username_f: v.login }), passwordEmailSchema, { username_f: 'login' });

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

/** The sentence a form shows when sent without the captcha solved (the API's own for HTTP 428). */
export const CAPTCHA_MISSING = tk('Solve the captcha first: tick "I\'m not a robot" and wait for the check mark.');

/** The captcha solved before the form is sent: its solution, empty until then (a rule of the forms that show one). */
export const captchaRules = <V extends { captcha: string }>(): Resolver<V> =>
  requestRules<V>((v) => ({ captcha: v.captcha }), z.object({ captcha: z.string().min(1, CAPTCHA_MISSING) }));
