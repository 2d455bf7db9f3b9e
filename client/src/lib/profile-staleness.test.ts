import { describe, expect, it } from 'vitest';
import { writeChangesProfile } from './profile-staleness';

describe('writeChangesProfile', () => {
  it('marks the profile stale after writes that change its counts, plan or members', () => {
    expect(writeChangesProfile('post', '/projects')).toBe(true);
    expect(writeChangesProfile('DELETE', '/projects/12')).toBe(true);
    expect(writeChangesProfile('post', '/projects/12/pdf-sheet')).toBe(true);
    expect(writeChangesProfile('POST', '/maps')).toBe(true);
    expect(writeChangesProfile('POST', '/visits')).toBe(true);
    expect(writeChangesProfile('PUT', '/annotations/3')).toBe(true);
    expect(writeChangesProfile('POST', '/join-requests/accept')).toBe(true);
    expect(writeChangesProfile('POST', '/users/invitations/accept/4')).toBe(true);
    expect(writeChangesProfile('POST', '/plans/2/subscriptions')).toBe(true);
    expect(writeChangesProfile('PUT', '/plan-subscriptions/9?x=1')).toBe(true);
    expect(writeChangesProfile('POST', '/api/projects')).toBe(true);
  });

  it('leaves it alone for reads, lookups and writes elsewhere', () => {
    expect(writeChangesProfile('GET', '/projects')).toBe(false);
    expect(writeChangesProfile(undefined, '/maps/2')).toBe(false);
    expect(writeChangesProfile('POST', '/project-tiers/find-tier')).toBe(false);
    expect(writeChangesProfile('POST', '/notifications/mark-read')).toBe(false);
    expect(writeChangesProfile('PUT', '/settings')).toBe(false);
    expect(writeChangesProfile('POST', '/login')).toBe(false);
    expect(writeChangesProfile('POST', '/projectsx')).toBe(false);
  });
});
