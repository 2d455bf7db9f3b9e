import { useId, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PROFILE_FIELDS, formMessages, type User, type UserCreateResponse } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { PROFILE_FIELD_LABELS, isMandatory } from '../../lib/profile-field-labels';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useGuardedEntity } from '../../routes/entity-guard';
import { TextField } from '../../components/text-field';
import { SelectField } from '../../components/edit-form/fields';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import { SetPasswordCard } from './set-password-card';
import { TwoFactorResetCard } from './two-factor-reset-card';
import { SignOutEverywhereCard } from './sign-out-everywhere-card';
import {
  CREATION_NOTICE,
  ROLE_LABELS,
  creationOutcome,
  roleChoices,
  userCreateRequest,
  userDisplayName,
  userFormRules,
  userFormValues,
  userUpdateRequest,
  type CreationOutcome,
  type UserFormValues,
} from './user-form';

const M = formMessages('User');

function SwitchField({ label, hint, checked, onChange, disabled }: { label: string; hint?: string; checked: boolean; onChange(v: boolean): void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="mb-3">
      <div className="form-check form-switch">
        <input id={id} type="checkbox" role="switch" className="form-check-input" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
        <label htmlFor={id} className="form-check-label">
          {label}
        </label>
      </div>
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}

/**
 * /edituser/{id} ('new' creates one), for super admins, through the generic
 * edit form: account, role and access, profile fields; a new user gets a
 * password or an invitation by e-mail; an existing one can be given a new
 * password. Your own account is edited in /editprofile.
 */
export default function EditUserPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useGuardedEntity<User>();
  const me = useAuthStore((s) => s.user?.id);
  const settings = useSettings();
  const initial = useMemo(() => userFormValues(user, { invite: settings.smtp_valid }), [user, settings.smtp_valid]);
  // What POST /users said, for the notice on the new user's screen.
  const outcomeRef = useRef<CreationOutcome>('password');
  const created = (location.state as { created?: CreationOutcome } | null)?.created;
  const [notice, setNotice] = useState<CreationOutcome | null>(created ?? null);

  const form = useEditForm<UserFormValues, User>({
    entity: 'User',
    id: user?.id ?? null,
    initial,
    rules: userFormRules(!user),
    endpoints: {
      create: async (v) => {
        const res = await api.post<UserCreateResponse>('/users', userCreateRequest(v), M.createFailed);
        outcomeRef.current = creationOutcome(res, v.invite);
        return res.user;
      },
      update: (id, changes) => api.put<User>(`/users/${id}`, userUpdateRequest(changes), M.updateFailed),
      // SPEC §7: the delete carries the current user's id.
      remove: (id) => api.delete(`/users/${id}`, M.deleteFailed, { params: me ? { id_user: me } : undefined }),
      idOf: (u) => u.id,
      valuesOf: (u) => userFormValues(u),
    },
    // The address follows the new id, and the next screen says how the person gets in.
    onCreated: (u) => navigate(`/edituser/${u.id}`, { replace: true, state: { created: outcomeRef.current } }),
  });

  // Your own account (its rights and existence) is not yours to change here.
  if (user && user.id === me) return <Navigate to="/editprofile" replace />;

  const { values, errors, setValue } = form;
  const creating = form.id === null;
  const err = (k: keyof UserFormValues & string) => (errors[k] ? t(errors[k] as string) : null);
  const text = (k: keyof UserFormValues & string) => ({
    value: values[k] as string,
    onChange: (v: string) => setValue(k, v as never),
    error: err(k),
  });
  const name = userDisplayName({ first_name: values.first_name, last_name: values.last_name, username: values.username || user?.username || '' });

  return (
    <div className="d-flex flex-column gap-4">
      {notice && user && (
        <div className={`alert ${notice === 'invitation_failed' ? 'alert-warning' : 'alert-success'} alert-dismissible mb-0`} role="status" data-testid="user-created-notice" data-outcome={notice}>
          <i className={`bi ${notice === 'invited' ? 'bi-envelope-paper' : notice === 'password' ? 'bi-key' : 'bi-exclamation-triangle'} me-2`} aria-hidden="true" />
          {t(CREATION_NOTICE[notice], { name: userDisplayName(user), email: user.email })}
          <button type="button" className="btn-close" aria-label={t('Close')} onClick={() => setNotice(null)} />
        </div>
      )}
      <EditFormShell
        entity="User"
        heading={creating ? t('New user') : t('Edit user')}
        id={form.id}
        hasChanges={form.hasChanges}
        busy={form.busy}
        onSave={form.save}
        onDelete={form.remove}
        recordName={name}
        actions={
          <Link to="/users" className="btn btn-outline-secondary">
            {creating ? t('Cancel') : t('Back to users')}
          </Link>
        }
      >
        <fieldset className="mb-2">
          <legend className="fs-6 fw-semibold">{t('Account')}</legend>
          <div className="row">
            <TextField className="col-md-6 mb-3" label={t('Username')} required maxLength={50} autoComplete="off" dir="ltr" autoFocus={creating} {...text('username')} />
            <TextField className="col-md-6 mb-3" label={t('E-mail')} type="email" required maxLength={254} autoComplete="off" dir="ltr" {...text('email')} />
            <SelectField className="col-md-6 mb-3" label={t('Language')} value={values.language} onChange={(v) => setValue('language', v === 'ar' ? 'ar' : 'en')} hint={t('The language of the interface and of the e-mails this person gets.')}>
              <option value="en">English</option>
              <option value="ar">العربية</option>
            </SelectField>
          </div>
        </fieldset>

        <fieldset className="mb-2">
          <legend className="fs-6 fw-semibold">{t('Role and access')}</legend>
          <div className="row">
            <SelectField className="col-md-6 mb-3" label={t('Role')} value={values.role} onChange={(v) => setValue('role', v)}>
              {roleChoices(values.role).map((r) => (
                <option key={r} value={r}>
                  {t(ROLE_LABELS[r] ?? r)}
                </option>
              ))}
            </SelectField>
          </div>
          <SwitchField
            label={t('Administrator')}
            hint={t('Administrators manage users, settings and approvals, and see every project.')}
            checked={values.super_admin}
            onChange={(v) => setValue('super_admin', v)}
          />
          {!creating && (
            <SwitchField
              label={t('Active')}
              hint={t('An inactive account cannot sign in; its open sessions end at once.')}
              checked={values.active}
              onChange={(v) => setValue('active', v)}
            />
          )}
        </fieldset>

        {creating && (
          <fieldset className="mb-3">
            <legend className="fs-6 fw-semibold">{t('How will this person sign in?')}</legend>
            <div className="form-check">
              <input id="new-user-invite" type="radio" name="new-user-access" className="form-check-input" checked={values.invite} onChange={() => setValue('invite', true)} />
              <label htmlFor="new-user-invite" className="form-check-label">
                {t('Send an invitation by e-mail')}
              </label>
              <div className="form-text mt-0">{t('The person opens the link, chooses a password and the account becomes active.')}</div>
            </div>
            <div className="form-check mt-2">
              <input id="new-user-password" type="radio" name="new-user-access" className="form-check-input" checked={!values.invite} onChange={() => setValue('invite', false)} />
              <label htmlFor="new-user-password" className="form-check-label">
                {t('Set a password now')}
              </label>
              <div className="form-text mt-0">{t('The account is active at once; tell the person their password.')}</div>
            </div>
            {values.invite && !settings.smtp_valid && (
              <div className="alert alert-warning mt-3 mb-0 small" role="alert">
                <i className="bi bi-exclamation-triangle me-1" aria-hidden="true" />
                {t('The mail server is not verified, so the invitation may never arrive. Set a password instead, or check the mail server in Settings.')}
              </div>
            )}
            {!values.invite && (
              <div className="row mt-3">
                <TextField className="col-md-6 mb-3" label={t('Password')} type="password" required autoComplete="new-password" hint={t('At least 8 characters.')} {...text('password')} />
                <TextField className="col-md-6 mb-3" label={t('Confirm password')} type="password" required autoComplete="new-password" {...text('password_confirm')} />
              </div>
            )}
          </fieldset>
        )}

        <fieldset className="mb-2">
          <legend className="fs-6 fw-semibold">{t('Profile')}</legend>
          <div className="row">
            {PROFILE_FIELDS.map((f) => (
              <TextField
                key={f}
                className="col-md-6 mb-3"
                label={t(PROFILE_FIELD_LABELS[f])}
                maxLength={200}
                // Someone else's details: the browser must not offer the administrator's own.
                autoComplete="off"
                hint={isMandatory(f, settings) ? t('Mandatory: the person is asked for it when they sign in.') : undefined}
                {...text(f)}
              />
            ))}
          </div>
        </fieldset>
      </EditFormShell>
      {user && <SetPasswordCard user={user} />}
      {user && <TwoFactorResetCard user={user} />}
      {user && <SignOutEverywhereCard user={user} />}
    </div>
  );
}
