import { useTranslation } from 'react-i18next';
import type { ProfileField, SettingKey } from '@sitewalk/proto';
import { PROFILE_FIELD_LABELS } from '../../lib/profile-field-labels';
import { PROFILE_FIELD_ROWS, profileFlagKeys, type SettingsFormValues } from '../../lib/settings-form';

interface Props {
  values: SettingsFormValues;
  changed: ReadonlySet<SettingKey>;
  onFlag(field: ProfileField, flag: 'enable' | 'mandatory', on: boolean): void;
}

/** SPEC §3 "Profile fields": for each field, whether people see it and whether they must fill it in. */
export function ProfileFieldsGrid({ values, changed, onFlag }: Props) {
  const { t } = useTranslation();
  const cell = (field: ProfileField, flag: 'enable' | 'mandatory') => {
    const key = profileFlagKeys(field)[flag];
    const name = t(PROFILE_FIELD_LABELS[field]);
    return (
      <td className="text-center">
        <div className="form-check form-switch d-inline-block m-0">
          <input
            type="checkbox"
            role="switch"
            className="form-check-input"
            data-setting={key}
            checked={values[key] === true}
            onChange={(e) => onFlag(field, flag, e.target.checked)}
            aria-describedby={changed.has(key) ? `${key}-changed` : undefined}
            aria-label={flag === 'enable' ? t('Show {field} in profiles', { field: name }) : t('{field} is mandatory', { field: name })}
          />
        </div>
        {changed.has(key) && (
          <span id={`${key}-changed`} className="visually-hidden">
            {t('Changed, not saved yet')}
          </span>
        )}
      </td>
    );
  };
  return (
    <div className="table-responsive">
      <table className="table align-middle mb-2 sw-profile-fields">
        <thead>
          <tr>
            <th scope="col">{t('Field')}</th>
            <th scope="col" className="text-center">
              {t('Shown')}
            </th>
            <th scope="col" className="text-center">
              {t('Mandatory')}
            </th>
          </tr>
        </thead>
        <tbody>
          {PROFILE_FIELD_ROWS.map((f) => {
            const keys = profileFlagKeys(f);
            const dirty = changed.has(keys.enable) || changed.has(keys.mandatory);
            return (
              <tr key={f}>
                <th scope="row" className="fw-normal">
                  {t(PROFILE_FIELD_LABELS[f])}
                  {dirty && (
                    <span className="sw-setting-changed ms-2" title={t('Changed, not saved yet')} aria-hidden="true">
                      <i className="bi bi-circle-fill" />
                    </span>
                  )}
                </th>
                {cell(f, 'enable')}
                {cell(f, 'mandatory')}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="form-text mb-0">{t('A mandatory field is always shown. People who lack a mandatory field are asked to fill it in before anything else.')}</p>
    </div>
  );
}
