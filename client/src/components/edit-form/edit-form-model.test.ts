import { describe, expect, it } from 'vitest';
import { compareWith, setField, startTracking } from '../../lib/changed-fields';
import { z } from 'zod';
import { POST_DELETE_REDIRECT, allRules, outcomeMessage, planSave, requestRules, rulesWhen } from './edit-form-model';
import { ruleMessages } from './rules-test-support';

describe('the rules of an edit form are proto’s request schemas (SPEC §5)', () => {
  const schema = z
    .object({ name: z.string().trim().min(1, 'Project name is required'), area: z.number().positive('Area must be greater than zero.').nullable() })
    .strict();
  type Values = { name: string; area: string };
  const toBody = (v: Values) => ({ name: v.name, area: v.area.trim() === '' ? null : Number(v.area) });
  const rules = requestRules<Values>(toBody, schema);

  it('gives each field the server’s message, blank after trimming counting as no name', async () => {
    expect(await ruleMessages(rules, { name: '   ', area: '-1' })).toEqual({ name: 'Project name is required', area: 'Area must be greater than zero.' });
    expect(await ruleMessages(rules, { name: 'Tower', area: '' })).toEqual({});
  });

  it('says "Enter a number." for text that is no number', async () => {
    expect(await ruleMessages(rules, { name: 'Tower', area: 'big' })).toEqual({ area: 'Enter a number.' });
  });

  it('puts a message under the form’s own name of a field, and asks rule sets together or only when they apply', async () => {
    const confirm = requestRules<{ password: string; again: string; set: boolean }>(
      (v) => ({ password: v.password, confirm: v.again }),
      z.object({ password: z.string().min(8, 'Too short.'), confirm: z.string() }).refine((b) => b.password === b.confirm, { message: 'Differ.', path: ['confirm'] }),
      { confirm: 'again' },
    );
    expect(await ruleMessages(confirm, { password: 'long enough', again: 'other', set: true })).toEqual({ again: 'Differ.' });
    const named = requestRules<{ password: string; again: string; set: boolean }>((v) => ({ password: v.password }), z.object({ password: z.string().max(3, 'Too long.') }));
    const both = allRules(named, rulesWhen((v) => v.set, confirm));
    expect(await ruleMessages(both, { password: 'short', again: '', set: true })).toEqual({ password: 'Too long.', again: 'Differ.' });
    expect(await ruleMessages(both, { password: 'abc', again: '', set: false })).toEqual({});
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

  it('measures a form’s values against the loaded ones the same way', () => {
    expect(planSave(7, compareWith(loaded, { ...loaded, categories: [2, 3, 1] }))).toEqual({ kind: 'none' });
    expect(planSave(7, compareWith(loaded, { ...loaded, city: 'Zarqa', categories: [1] }))).toEqual({ kind: 'update', id: 7, changes: { city: 'Zarqa', categories: [1] } });
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
