import { useState, type FormEvent } from 'react';

/**
 * The state of a form that sends one code (the sign-in's second step, the
 * first code of an authenticator app): the code as typed, a sentence under the
 * field when it is sent empty, the refusal above it, and busy while it is on
 * its way. `send` gets the trimmed code; what it throws is shown.
 */
export function useCodeForm(send: (code: string) => Promise<void>, emptyMessage: string, fallbackError?: string) {
  const [code, setCodeText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);

  const setCode = (value: string) => {
    setCodeText(value);
    setFieldError(null);
  };

  /** Empties the form (another kind of code asked for). */
  const reset = () => {
    setCodeText('');
    setFieldError(null);
    setError(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setFieldError(emptyMessage);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await send(code.trim());
    } catch (err) {
      setError((err as Error).message || fallbackError || null);
      setBusy(false);
    }
  };

  return { code, setCode, busy, error, fieldError, submit, reset };
}
