import type { ProfileField } from '@sitewalk/proto';

/** The label (translation key) of each optional profile field. */
export const PROFILE_FIELD_LABELS: Record<ProfileField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  tax_id: 'Tax ID',
  street: 'Street',
  city: 'City',
  postal_code: 'Postal code',
  province: 'Province',
  country: 'Country',
  tel: 'Phone',
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
