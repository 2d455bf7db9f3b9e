import { projectCreateSchema, type ProjectDetail, type ProjectUpdateRequest } from '@sitewalk/proto';
import { requestRules } from '../../components/edit-form/edit-form-model';

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

/**
 * The form's rules: proto's projectCreateSchema on the body the form would
 * send (every field, also when editing), so the server's rule and message
 * are the only ones.
 */
export const projectFormRules = requestRules<ProjectFormValues>(projectRequest, projectCreateSchema);
