import { describe, expect, it } from 'vitest';
import { projectCreateSchema, projectUpdateSchema, type ProjectDetail } from '@sitewalk/proto';
import { ruleMessages } from '../../components/edit-form/rules-test-support';
import { projectFormRules, projectFormValues, projectRequest } from './project-form';

const detail = {
  name: 'Tower A',
  description: '',
  client_name: 'ACME',
  street: '',
  city: 'Amman',
  postal_code: '',
  province: '',
  country: 'Jordan',
  latitude: 31.95,
  longitude: null,
  start_date: '2026-03-01',
  end_date: null,
  area: 1200.5,
  num_buildings: 2,
  num_floors: null,
  id_project_type: 3,
  categories: [
    { id: 7, name: 'Phase 1' },
    { id: 4, name: 'Client X' },
  ],
} as unknown as ProjectDetail;

describe('the project form', () => {
  it('shows a project’s fields as text, empty for what is not set', () => {
    expect(projectFormValues(detail)).toMatchObject({ latitude: '31.95', longitude: '', area: '1200.5', num_floors: '', id_project_type: '3', categories: [7, 4] });
    expect(projectFormValues(null)).toMatchObject({ name: '', categories: [], id_project_type: '' });
  });

  it('turns the fields back into what the API takes', () => {
    const body = projectRequest({ ...projectFormValues(detail), name: '  Tower B ', area: '950,5', num_floors: '', id_project_type: '' });
    expect(body).toMatchObject({ name: 'Tower B', area: 950.5, num_floors: null, latitude: 31.95, id_project_type: null, categories: [4, 7], end_date: null });
    expect(projectCreateSchema.safeParse(body).success).toBe(true);
  });

  it('sends only the fields it is given (the changed ones)', () => {
    const body = projectRequest({ city: ' Irbid ' });
    expect(body).toEqual({ city: 'Irbid' });
    expect(projectUpdateSchema.safeParse(body).success).toBe(true);
  });

  it('says what to fix before sending, in the server’s words', async () => {
    const values = { ...projectFormValues(detail), latitude: '95', area: '0', num_buildings: '2.5', num_floors: 'many', start_date: '2026-05-01', end_date: '2026-04-01' };
    expect(await ruleMessages(projectFormRules, values)).toMatchObject({
      latitude: 'Latitude must be between -90 and 90.',
      area: 'Area must be greater than zero.',
      num_buildings: 'Use a whole number of buildings.',
      num_floors: 'Enter a number.',
      end_date: 'The end date must not be before the start date.',
    });
    expect(await ruleMessages(projectFormRules, projectFormValues(detail))).toEqual({});
    expect(await ruleMessages(projectFormRules, { ...projectFormValues(detail), name: '  ' })).toEqual({ name: 'Project name is required' });
  });
});
