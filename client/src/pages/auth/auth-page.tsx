import { Navigate, useLocation } from 'react-router-dom';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { AuthCard } from '../../components/auth-card';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';
import { RecoverForm } from './recover-form';
import { tk } from '../../lib/i18n-keys';

export type AuthMode = 'login' | 'register' | 'recover';

const TITLES: Record<AuthMode, string> = { login: tk('Sign in'), register: tk('Create an account'), recover: tk('Recover your password') };

interface FromState {
  from?: { pathname?: string; search?: string; hash?: string };
  message?: string;
  username?: string;
}

/** Where to go after signing in: where the user was going, else the dashboard. */
export function destinationAfterLogin(state: unknown): string {
  const from = (state as FromState | null)?.from;
  const path = from?.pathname;
  if (!path || !path.startsWith('/') || path.startsWith('//') || path === '/login') return '/dashboard';
  return `${path}${from?.search ?? ''}${from?.hash ?? ''}`;
}

/** SPEC §2: one authentication screen with three modes, login / register / recover. */
export default function AuthPage() {
  const location = useLocation();
  const status = useAuthStore((s) => s.status);
  const settings = useSettings();
  const mode: AuthMode = location.pathname.startsWith('/register') ? 'register' : location.pathname.startsWith('/recover') ? 'recover' : 'login';
  if (status === 'authenticated') return <Navigate to={destinationAfterLogin(location.state)} replace />;
  const state = (location.state as FromState | null) ?? {};
  return (
    <AuthCard title={TITLES[mode]} background={mode === 'register' ? settings.background_reg || settings.background : settings.background}>
      {mode === 'login' && <LoginForm flash={state.message} initialUsername={state.username} />}
      {mode === 'register' && <RegisterForm />}
      {mode === 'recover' && <RecoverForm />}
    </AuthCard>
  );
}
