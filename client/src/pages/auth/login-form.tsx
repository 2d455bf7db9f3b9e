import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { isLanguage } from '../../i18n/language';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { tk } from '../../lib/i18n-keys';

export function LoginForm({ flash, initialUsername }: { flash?: string; initialUsername?: string }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const login = useAuthStore((s) => s.login);
  const [username, setUsername] = useState(initialUsername ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ username?: string | null; password?: string | null }>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = {
      username: username.trim() ? null : tk('Enter your username or e-mail.'),
      password: password ? null : tk('Enter your password.'),
    };
    setFieldErrors(errs);
    if (errs.username || errs.password) return;
    setBusy(true);
    setError(null);
    try {
      const user = await login({ username: username.trim(), password, remember_me: remember });
      // A language picked on this screen becomes the account's; otherwise the
      // account's language follows the user to every browser they sign in on.
      const ui = useUiStore.getState();
      if (ui.languagePickedSignedOut) {
        useUiStore.setState({ languagePickedSignedOut: false });
        if (user.language !== ui.language) void ui.setLanguage(ui.language, { saveOnServer: true });
      } else if (isLanguage(user.language) && user.language !== ui.language) {
        void ui.setLanguage(user.language);
      }
    } catch (err) {
      setError((err as Error).message || MESSAGES.loginFailed);
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Sign in')}>
      {flash && (
        <div className="alert alert-success" role="status">
          {t(flash)}
        </div>
      )}
      {error && (
        <div className="alert alert-danger" role="alert">
          {t(error)}
        </div>
      )}
      <TextField
        label={t('Username or e-mail')}
        value={username}
        onChange={(v) => {
          setUsername(v);
          setFieldErrors((f) => ({ ...f, username: null }));
        }}
        error={fieldErrors.username ? t(fieldErrors.username) : null}
        autoComplete="username"
        autoFocus
        required
      />
      <TextField
        label={t('Password')}
        type="password"
        value={password}
        onChange={(v) => {
          setPassword(v);
          setFieldErrors((f) => ({ ...f, password: null }));
        }}
        error={fieldErrors.password ? t(fieldErrors.password) : null}
        autoComplete="current-password"
        required
      />
      <div className="form-check mb-3">
        <input id="login-remember" type="checkbox" className="form-check-input" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        <label htmlFor="login-remember" className="form-check-label">
          {t('Remember me')}
        </label>
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {busy ? <Spinner size="sm" hideText /> : null} {t('Sign in')}
      </button>
      <div className="d-flex flex-wrap justify-content-between gap-2 mt-3 small">
        {settings.smtp_valid && <Link to="/recover">{t('Forgot your password?')}</Link>}
        {settings.enable_registration && <Link to="/register">{t('Create an account')}</Link>}
      </div>
    </form>
  );
}
