import type { ProfileField } from '@sitewalk/proto';
import { tk } from './i18n-keys';

/** The label (translation key) of each optional profile field. */
export const PROFILE_FIELD_LABELS: Record<ProfileField, string> = {
  first_name: tk('First name'),
  last_name: tk('Last name'),
  company: tk('Company'),
  tax_id: tk('Tax ID'),
  street: tk('Street'),
  city: tk('City'),
  postal_code: tk('Postal code'),
  province: tk('Province'),
  country: tk('Country'),
  tel: tk('Phone'),
};

/** autocomplete hints, so browsers can fill the form. */
export const PROFILE_FIELD_AUTOCOMPLETE: Record<ProfileField, string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  company: 'organization',
  tax_id: 'off',
  street: 'street-address',
  city: 'address-level2',
  postal_code: 'postal-code',
  province: 'address-level1',
  country: 'country-name',
  tel: 'tel',
};

/** Fields a form shows: those enabled by settings, and any the settings make mandatory. */
export function visibleProfileFields(fields: readonly ProfileField[], settings: Partial<Record<string, unknown>>): ProfileField[] {
  return fields.filter((f) => settings[`${f}_enable`] === true || settings[`${f}_mandatory`] === true);
}

export const isMandatory = (f: ProfileField, settings: Partial<Record<string, unknown>>) => settings[`${f}_mandatory`] === true;
