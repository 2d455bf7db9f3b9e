import { describe, expect, it } from 'vitest';
import { setField, startTracking } from '../../lib/changed-fields';
import { POST_DELETE_REDIRECT, clearFieldError, hasErrors, nameError, outcomeMessage, planSave, validateForm } from './edit-form-model';

describe('the name rule of the generic edit form (SPEC §5)', () => {
  it('asks for a name of a project, sheet, visit or company, blank after trimming counting as none', () => {
    expect(nameError('Project', '   ')).toBe('Project name is required');
    expect(nameError('Sheet', '')).toBe('Sheet name is required');
    expect(nameError('Visit', undefined)).toBe('Visit name is required');
    expect(nameError('Company', '\t')).toBe('Company name is required');
    expect(nameError('Project', ' Tower A ')).toBeNull();
  });

  it('does not require a name of a plan or a user', () => {
    expect(nameError('Plan', '')).toBeNull();
    expect(nameError('User', '')).toBeNull();
  });

  it('merges the name rule with the form’s own checks', () => {
    const errors = validateForm('Project', { name: '', area: '-1' }, (v) => ({ area: v.area.startsWith('-') ? 'Area must be greater than zero.' : null }));
    expect(errors).toEqual({ name: 'Project name is required', area: 'Area must be greater than zero.' });
    expect(hasErrors(errors)).toBe(true);
    expect(hasErrors(validateForm('Project', { name: 'Tower' }))).toBe(false);
  });

  it('clears the error of the field that changed, and only that one', () => {
    const errors = { name: 'Project name is required', area: 'Enter a number.' };
    expect(clearFieldError(errors, 'name')).toEqual({ name: null, area: 'Enter a number.' });
    expect(clearFieldError(errors, 'city' as keyof typeof errors)).toBe(errors);
  });
});

describe('what a save sends (SPEC §4)', () => {
  const loaded = { name: 'Tower', city: 'Amman', categories: [1, 2, 3] };

  it('creates with every value when there is no id', () => {
    const state = setField(startTracking({ name: '', city: '', categories: [] as number[] }), 'name', 'New tower');
    expect(planSave(null, state)).toEqual({ kind: 'create', values: { name: 'New tower', city: '', categories: [] } });
  });

  it('sends only the changed fields of an existing record', () => {
    const state = setField(startTracking(loaded), 'city', 'Irbid');
    expect(planSave(7, state)).toEqual({ kind: 'update', id: 7, changes: { city: 'Irbid' } });
  });

  it('sends nothing when a value was changed and changed back, or an array only reordered', () => {
    let state = setField(startTracking(loaded), 'city', 'Irbid');
    state = setField(state, 'city', 'Amman');
    state = setField(state, 'categories', [3, 1, 2]);
    expect(planSave(7, state)).toEqual({ kind: 'none' });
  });

  it('sends an array whose members changed', () => {
    const state = setField(startTracking(loaded), 'categories', [3, 1]);
    expect(planSave(7, state)).toEqual({ kind: 'update', id: 7, changes: { categories: [3, 1] } });
  });
});

describe('toasts and redirects (SPEC §8, §2)', () => {
  it('says what happened in the words of the spec', () => {
    expect(outcomeMessage('Project', 'created')).toBe('Project created successfully!');
    expect(outcomeMessage('Sheet', 'updated')).toBe('Sheet updated successfully!');
    expect(outcomeMessage('Project', 'deleted')).toBe('Project deleted successfully!');
    expect(outcomeMessage('Project', 'loadFailed')).toBe('Error loading Project data');
  });

  it('puts the server’s message first on a failure, the spec’s default otherwise', () => {
    expect(outcomeMessage('Project', 'createFailed', 'You have reached the number of projects of your plan.')).toBe(
      'You have reached the number of projects of your plan.',
    );
    expect(outcomeMessage('Project', 'createFailed', '')).toBe('Failed to create Project');
    expect(outcomeMessage('Sheet', 'updateFailed', null)).toBe('Failed to update Sheet');
    expect(outcomeMessage('Sheet', 'deleteFailed')).toBe('Failed to delete Sheet');
  });

  it('leads a deleted project or sheet to /projects', () => {
    expect(POST_DELETE_REDIRECT.Project).toBe('/projects');
    expect(POST_DELETE_REDIRECT.Sheet).toBe('/projects');
    expect(POST_DELETE_REDIRECT.Company).toBe('/mycompany');
    expect(POST_DELETE_REDIRECT.Visit).toBe('/visits');
    expect(POST_DELETE_REDIRECT.User).toBe('/users');
    expect(POST_DELETE_REDIRECT.Plan).toBe('/plans');
  });
});
