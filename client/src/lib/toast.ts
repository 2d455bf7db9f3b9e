import { toast } from 'react-toastify';
import { CONSTANTS, type ToastKind } from '@sitewalk/proto';

/**
 * Toasts of the four kinds of SPEC §9. Form, profile and notification
 * preference toasts stay 3000 ms; every other toast 5000 ms.
 */
export function showToast(kind: ToastKind, message: string, opts: { form?: boolean } = {}): void {
  toast(message, {
    type: kind,
    autoClose: opts.form ? CONSTANTS.toastFormMs : CONSTANTS.toastDefaultMs,
    toastId: `${kind}:${message}`,
  });
}

/** A toast of a form, the profile or the notification preferences (3000 ms). */
export const formToast = (kind: ToastKind, message: string) => showToast(kind, message, { form: true });

/** Takes a toast off the screen before its time, when what it announced is over. */
export const dismissToast = (kind: ToastKind, message: string) => toast.dismiss(`${kind}:${message}`);
