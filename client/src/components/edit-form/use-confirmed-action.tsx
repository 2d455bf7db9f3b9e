import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../lib/toast';
import { ConfirmDialog } from './confirm-dialog';

interface Texts {
  /** Already translated. */
  title: string;
  body: string;
  confirmLabel: string;
}

/**
 * Confirm-then-act, the shape of every card button that undoes something for
 * good (reset a user's second factor, unlink a service): `ask(target)` opens
 * the confirmation; Confirm runs `act`, shows its error as a toast, and closes.
 */
export function useConfirmedAction<T>(act: (target: T) => Promise<void>, texts: (target: T) => Texts) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<T | null>(null);
  const [shown, setShown] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (pending === null) return;
    setBusy(true);
    try {
      await act(pending);
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const ask = (target: T) => {
    setPending(target);
    setShown(target);
  };
  // The texts stay those of the last target while the dialog fades out.
  const current = shown === null ? null : texts(shown);
  const dialog = (
    <ConfirmDialog
      show={pending !== null}
      title={current?.title ?? ''}
      body={current?.body ?? ''}
      confirmLabel={current?.confirmLabel ?? ''}
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={() => setPending(null)}
    />
  );
  return { ask, busy, pending, dialog };
}
