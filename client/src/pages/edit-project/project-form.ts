import type { ProjectDetail, ProjectUpdateRequest } from '@sitewalk/proto';
import type { FieldErrors } from '../../components/edit-form/edit-form-model';
import { tk } from '../../lib/i18n-keys';

/**
 * The project edit form's values as the inputs hold them (text), and their
 * conversion to the API's fields. Pure, unit-tested.
 */

export interface ProjectFormValues {
  name: string;
  description: string;
  client_name: string;
  street: string;
  city: string;
  postal_code: string;
  province: string;
  country: string;
  latitude: string;
  longitude: string;
  start_date: string;
  end_date: string;
  area: string;
  num_buildings: string;
  num_floors: string;
  /** '' for no type. */
  id_project_type: string;
  /** Category ids; their order does not matter. */
  categories: number[];
}

const TEXT_FIELDS = ['name', 'description', 'client_name', 'street', 'city', 'postal_code', 'province', 'country'] as const;
const NUMBER_FIELDS = ['latitude', 'longitude', 'area', 'num_buildings', 'num_floors'] as const;
const DATE_FIELDS = ['start_date', 'end_date'] as const;

const numText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function projectFormValues(p: ProjectDetail | null): ProjectFormValues {
  return {
    name: p?.name ?? '',
    description: p?.description ?? '',
    client_name: p?.client_name ?? '',
    street: p?.street ?? '',
    city: p?.city ?? '',
    postal_code: p?.postal_code ?? '',
    province: p?.province ?? '',
    country: p?.country ?? '',
    latitude: numText(p?.latitude),
    longitude: numText(p?.longitude),
    start_date: p?.start_date ?? '',
    end_date: p?.end_date ?? '',
    area: numText(p?.area),
    num_buildings: numText(p?.num_buildings),
    num_floors: numText(p?.num_floors),
    id_project_type: p?.id_project_type ? String(p.id_project_type) : '',
    categories: p?.categories.map((c) => c.id) ?? [],
  };
}

/** A number typed by a person: '' is "none", a comma works as the decimal mark. */
const parseNumber = (s: string): number | null => {
  const t = s.trim().replace(',', '.');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : Number.NaN;
};

/** The API body for some (or all) of the form's fields. */
export function projectRequest(values: Partial<ProjectFormValues>): ProjectUpdateRequest {
  const out: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) if (values[f] !== undefined) out[f] = values[f]!.trim();
  for (const f of NUMBER_FIELDS) if (values[f] !== undefined) out[f] = parseNumber(values[f]!);
  for (const f of DATE_FIELDS) if (values[f] !== undefined) out[f] = values[f]!.trim() || null;
  if (values.id_project_type !== undefined) out.id_project_type = values.id_project_type ? Number(values.id_project_type) : null;
  if (values.categories !== undefined) out.categories = [...values.categories].sort((a, b) => a - b);
  return out as ProjectUpdateRequest;
}

const NOT_A_NUMBER = tk('Enter a number.');

/** Checks the server would make, told before sending (messages are the server's). */
export function projectFieldErrors(v: ProjectFormValues): FieldErrors<ProjectFormValues> {
  const e: FieldErrors<ProjectFormValues> = {};
  if (v.name.trim().length > 200) e.name = tk('Project name must be at most 200 characters.');
  const range = (field: 'latitude' | 'longitude', limit: number, message: string) => {
    const n = parseNumber(v[field]);
    if (n === null) return;
    e[field] = Number.isNaN(n) ? NOT_A_NUMBER : Math.abs(n) > limit ? message : null;
  };
  range('latitude', 90, tk('Latitude must be between -90 and 90.'));
  range('longitude', 180, tk('Longitude must be between -180 and 180.'));
  const area = parseNumber(v.area);
  if (area !== null) e.area = Number.isNaN(area) ? NOT_A_NUMBER : area <= 0 ? tk('Area must be greater than zero.') : null;
  const whole = (field: 'num_buildings' | 'num_floors', message: string) => {
    const n = parseNumber(v[field]);
    if (n === null) return;
    e[field] = Number.isNaN(n) ? NOT_A_NUMBER : !Number.isInteger(n) || n < 0 ? message : null;
  };
  whole('num_buildings', tk('Use a whole number of buildings.'));
  whole('num_floors', tk('Use a whole number of floors.'));
  if (v.start_date && v.end_date && v.end_date < v.start_date) e.end_date = tk('The end date must not be before the start date.');
  return e;
}
