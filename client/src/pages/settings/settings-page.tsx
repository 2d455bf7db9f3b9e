import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useBlocker, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Nav, Tab } from 'react-bootstrap';
import type { Notification, ProfileField, SettingKey, Settings } from '@sitewalk/proto';
import { apiRequest } from '../../lib/api-client';
import { changedValues, setField, startTracking, type ChangeState } from '../../lib/changed-fields';
import { formToast, showToast } from '../../lib/toast';
import {
  SETTINGS_MESSAGES,
  SETTINGS_SECTIONS,
  SMTP_CHECK_NOT_STARTED,
  SMTP_CHECK_QUEUED,
  sectionKeys,
  sectionsWith,
  setProfileFlag,
  settingField,
  settingsFieldErrors,
  blockingErrors,
  settingsFormValues,
  settingsPatch,
  type SectionId,
  type SettingValue,
  type SettingsErrors,
  type SettingsFormValues,
} from '../../lib/settings-form';
import { onServerEvent } from '../../realtime/socket';
import { useNotificationText } from '../../lib/notification-text';
import { useSettingsStore } from '../../stores/settings.store';
import { Spinner } from '../../components/spinner';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { SettingControl } from './setting-control';
import { ProfileFieldsGrid } from './profile-fields-grid';
import { SmtpStatus, type SmtpCheck } from './smtp-status';
import { StorageCheck } from './storage-check';
import { useSettingsQuery } from './use-settings-query';
import './settings.css';

/** How long the screen waits for the background mail check before it stops saying "checking". */
const SMTP_CHECK_WAIT_MS = 90_000;
const SMTP_POLL_MS = 5_000;

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready' };

const isSection = (s: string | null): s is SectionId => SETTINGS_SECTIONS.some((x) => x.id === s);

/**
 * /settings (super admins): every application setting of SPEC §3 in tabs,
 * the control that fits each value, secrets kept unless retyped, only the
 * changed keys sent, and the mail server's verification status. A save
 * refreshes the app's settings at once, so name, colour and dark mode apply.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const textOf = useNotificationText();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  // The open tab is local state (the keyboard focus follows it at once) mirrored in ?tab= for links and reloads.
  const [tab, setTab] = useState<SectionId>(isSection(tabParam) ? tabParam : 'branding');
  useEffect(() => {
    if (isSection(tabParam)) setTab(tabParam);
  }, [tabParam]);
  const [form, setForm] = useState<ChangeState<SettingsFormValues> | null>(null);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [saving, setSaving] = useState(false);
  const [smtpValid, setSmtpValid] = useState(false);
  const [smtpCheck, setSmtpCheck] = useState<{ pendingSince: number | null; failure: Notification | null }>({ pendingSince: null, failure: null });
  const [refreshing, setRefreshing] = useState(false);
  const liveRef = useRef(true);

  useEffect(() => {
    liveRef.current = true;
    return () => {
      liveRef.current = false;
    };
  }, []);

  const adopt = useCallback((s: Settings) => {
    setForm(startTracking(settingsFormValues(s)));
    setSmtpValid(s.smtp_valid === true);
    setErrors({});
  }, []);

  // The form starts from the first answer; later changes are the user's, and a save's answer.
  const query = useSettingsQuery();
  const adopted = useRef(false);
  useEffect(() => {
    if (!query.data || adopted.current) return;
    adopted.current = true;
    adopt(query.data);
  }, [query.data, adopt]);
  // Ready once the form holds the answer (the effect above runs after the answer's first render).
  const load: Load = form ? { status: 'ready' } : query.isError ? { status: 'error', message: query.error.message } : { status: 'loading' };

  /** Reads smtp_valid again without touching the values being edited. */
  const refreshSmtp = useCallback(async (opts: { quiet?: boolean } = {}) => {
    if (!opts.quiet) setRefreshing(true);
    try {
      await useSettingsStore.getState().load(true);
      const s = useSettingsStore.getState().settings;
      if (!liveRef.current || !s) return;
      setSmtpValid(s.smtp_valid === true);
      if (s.smtp_valid) setSmtpCheck({ pendingSince: null, failure: null });
    } finally {
      if (!opts.quiet && liveRef.current) setRefreshing(false);
    }
  }, []);

  // The mail check's outcome arrives as a notification linking to /settings.
  const pending = smtpCheck.pendingSince !== null;
  useEffect(() => {
    if (!pending) return;
    const off = onServerEvent('notification:new', (n) => {
      if (!n.link?.startsWith('/settings')) return;
      setSmtpCheck({ pendingSince: null, failure: n.type === 'error' ? n : null });
      void refreshSmtp({ quiet: true });
    });
    const poll = setInterval(() => void refreshSmtp({ quiet: true }), SMTP_POLL_MS);
    const giveUp = setTimeout(() => setSmtpCheck((c) => ({ ...c, pendingSince: null })), SMTP_CHECK_WAIT_MS);
    return () => {
      off();
      clearInterval(poll);
      clearTimeout(giveUp);
    };
  }, [pending, refreshSmtp]);

  const hasChanges = !!form && form.changed.size > 0;

  // Leaving with unsaved changes asks first (inside the app and when closing the tab).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => hasChanges && !saving && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!hasChanges) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasChanges]);

  const setValue = (key: SettingKey, value: SettingValue) => {
    setForm((f) => f && setField(f, key, value));
    setErrors((e) => (e[key] ? { ...e, [key]: null } : e));
  };
  const setFlag = (field: ProfileField, flag: 'enable' | 'mandatory', on: boolean) => setForm((f) => f && setProfileFlag(f, field, flag, on));

  const changedBySection = useMemo(() => {
    const out = new Map<SectionId, number>();
    if (!form) return out;
    for (const s of SETTINGS_SECTIONS) out.set(s.id, sectionKeys(s).filter((k) => form.changed.has(k)).length);
    return out;
  }, [form]);
  const sectionsWithErrors = useMemo(
    () => new Set(sectionsWith((Object.keys(errors) as SettingKey[]).filter((k) => errors[k]))),
    [errors],
  );

  const selectTab = (id: string | null) => {
    if (!isSection(id)) return;
    setTab(id);
    const next = new URLSearchParams(params);
    next.set('tab', id);
    setParams(next, { replace: true });
  };

  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!form || saving) return;
    const found = settingsFieldErrors(form.values);
    // Only the values being changed can block a save: a stored value the server accepted stays.
    const blocking = blockingErrors(found, form.changed);
    setErrors(blocking);
    const bad = sectionsWith((Object.keys(blocking) as SettingKey[]).filter((k) => blocking[k]));
    if (bad.length) {
      if (!bad.includes(tab)) selectTab(bad[0]);
      formToast('error', t('Some settings need fixing before they can be saved.'));
      return;
    }
    const patch = settingsPatch(changedValues(form));
    if (!Object.keys(patch).length) {
      setForm(startTracking(form.values));
      return;
    }
    setSaving(true);
    try {
      const { data, message } = await apiRequest<Settings>({ url: '/settings', method: 'PUT', data: patch }, SETTINGS_MESSAGES.updateFailed);
      if (!liveRef.current) return;
      adopt(data);
      // One toast per save: the server's message says whether a mail server check was queued (it says "saved" too).
      if (message === SMTP_CHECK_QUEUED) {
        showToast('info', t(SMTP_CHECK_QUEUED));
        if (!data.smtp_valid) setSmtpCheck({ pendingSince: Date.now(), failure: null });
      } else if (message === SMTP_CHECK_NOT_STARTED) {
        showToast('warning', t(SMTP_CHECK_NOT_STARTED));
      } else {
        formToast('success', t(SETTINGS_MESSAGES.updated));
      }
      // The whole app follows at once: branding, theme colour, dark mode, menus.
      useSettingsStore.getState().replace(data);
      void useSettingsStore.getState().load(true);
    } catch (err) {
      formToast('error', t((err as Error).message || SETTINGS_MESSAGES.updateFailed));
    } finally {
      if (liveRef.current) setSaving(false);
    }
  };

  const discard = () => {
    if (!form) return;
    setForm(startTracking(form.initial));
    setErrors({});
  };

  if (load.status === 'loading') return <Spinner size="lg" />;
  if (load.status === 'error' || !form) {
    return (
      <div className="alert alert-danger" role="alert">
        {t(load.status === 'error' ? load.message : SETTINGS_MESSAGES.loadFailed)}
      </div>
    );
  }

  const smtpState: SmtpCheck = smtpValid ? 'verified' : pending ? 'checking' : smtpCheck.failure ? 'failed' : 'unverified';
  const changedCount = form.changed.size;
  const errorText = (key: SettingKey) => {
    const message = errors[key];
    if (!message) return null;
    const c = settingField(key)?.control;
    return t(message, c?.type === 'number' ? { min: c.min, max: c.max } : undefined);
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="settings-heading">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="settings-heading" className="h6 mb-0 me-auto">
          {t('Application settings')}
        </h2>
        <span className={`badge ${smtpValid ? 'text-bg-success' : 'text-bg-warning'}`}>
          <i className={`bi ${smtpValid ? 'bi-envelope-check' : 'bi-envelope-exclamation'} me-1`} aria-hidden="true" />
          {smtpValid ? t('Mail server verified') : t('Mail server not verified')}
        </span>
      </div>
      <form onSubmit={(e) => void save(e)} noValidate aria-labelledby="settings-heading">
        <Tab.Container activeKey={tab} onSelect={selectTab} id="settings-tabs">
          <div className="row g-0">
            <div className="col-lg-3 p-3 sw-settings-nav-col">
              <Nav variant="pills" className="flex-lg-column flex-nowrap sw-settings-nav" aria-label={t('Settings sections')}>
                {SETTINGS_SECTIONS.map((s) => {
                  const changed = changedBySection.get(s.id) ?? 0;
                  const broken = sectionsWithErrors.has(s.id);
                  return (
                    <Nav.Item key={s.id}>
                      <Nav.Link eventKey={s.id} data-testid={`settings-tab-${s.id}`}>
                        <i className={`bi ${s.icon}`} aria-hidden="true" />
                        <span>{t(s.label)}</span>
                        <span className="sw-tab-marks">
                          {broken && (
                            <>
                              <i className="bi bi-exclamation-circle-fill text-danger" aria-hidden="true" />
                              <span className="visually-hidden">{t('Needs fixing')}</span>
                            </>
                          )}
                          {changed > 0 && (
                            <span className="badge rounded-pill text-bg-warning">
                              {changed}
                              <span className="visually-hidden"> {t('Changed, not saved yet')}</span>
                            </span>
                          )}
                        </span>
                      </Nav.Link>
                    </Nav.Item>
                  );
                })}
              </Nav>
            </div>
            <div className="col-lg-9 p-3 p-lg-4">
              <Tab.Content>
                {SETTINGS_SECTIONS.map((s) => (
                  <Tab.Pane key={s.id} eventKey={s.id} mountOnEnter>
                    <h3 className="h5 mb-1">{t(s.label)}</h3>
                    {s.intro && <p className="text-body-secondary">{t(s.intro)}</p>}
                    {s.id === 'mail' && <SmtpStatus check={smtpState} reason={smtpCheck.failure && textOf(smtpCheck.failure).message} refreshing={refreshing} onRefresh={() => void refreshSmtp()} />}
                    {s.id === 'storage' && <StorageCheck values={form.values as unknown as Partial<Settings>} />}
                    {s.id === 'profile' && <ProfileFieldsGrid values={form.values} changed={form.changed} onFlag={setFlag} />}
                    {s.blocks.map((b, i) => (
                      <div key={b.heading ?? i} className="sw-settings-block mb-3">
                        {b.heading && <h3 className="fw-semibold mb-3">{t(b.heading)}</h3>}
                        <div className="row">
                          {b.fields.map((f) => (
                            <SettingControl
                              key={f.key}
                              field={f}
                              value={form.values[f.key]}
                              onChange={(v) => setValue(f.key, v)}
                              error={errorText(f.key)}
                              changed={form.changed.has(f.key)}
                            />
                          ))}
                        </div>
                      </div>
                    ))}
                  </Tab.Pane>
                ))}
              </Tab.Content>
            </div>
          </div>
        </Tab.Container>
        <div className="sw-settings-savebar d-flex flex-wrap align-items-center gap-2 px-3 py-2 rounded-bottom">
          <span className="me-auto small text-body-secondary" aria-live="polite" data-testid="settings-unsaved">
            {changedCount > 0 ? t('Unsaved changes: {n}', { n: changedCount }) : t('All changes saved')}
          </span>
          <button type="button" className="btn btn-outline-secondary" onClick={discard} disabled={!hasChanges || saving}>
            {t('Discard changes')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={!hasChanges || saving}>
            {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {t('Save changes')}
          </button>
        </div>
      </form>
      <ConfirmDialog
        show={blocker.state === 'blocked'}
        title={t('Leave without saving?')}
        body={t('Your changes to the settings are not saved yet. They will be lost if you leave this page.')}
        confirmLabel={t('Leave')}
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      />
    </section>
  );
}
