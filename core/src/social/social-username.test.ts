import { describe, expect, it } from 'vitest';
import { socialUsername } from './social-username.js';

const free = async () => false;

describe('socialUsername', () => {
  it('takes the handle, else the e-mail’s local part, in the characters usernames allow', async () => {
    expect(await socialUsername(['ada_l', 'ada@example.test'], free)).toBe('ada_l');
    expect(await socialUsername([null, 'José.Pérez+site@example.test'.split('@')[0]], free)).toBe('Jose.Perezsite');
    expect(await socialUsername(['.-ab-.', 'كريم'], free)).toBe('member');
  });

  it('adds a number until the name is free', async () => {
    const used = new Set(['ada', 'ada2']);
    expect(await socialUsername(['ada'], async (c) => used.has(c))).toBe('ada3');
  });

  it('never exceeds the 50 characters a username may have', async () => {
    const name = await socialUsername(['x'.repeat(80)], async (c) => c.length === 40);
    expect(name.length).toBeLessThanOrEqual(50);
    expect(name).toMatch(/^x{40}2$/);
  });
});
