import { describe, expect, it } from 'vitest';
import { passwordSchema, usernameSchema } from '@sitewalk/proto';
import { checkEmail, checkPassword, checkSamePassword, checkUsername } from './form-rules';
import { schemaError } from './schema-errors';

describe("proto's rules on the client", () => {
  it("gives the server's own first message, or null", () => {
    expect(schemaError(usernameSchema, 'ab')).toBe('Username must be at least 3 characters.');
    expect(schemaError(usernameSchema, 'hala saleh')).toBe('Username may use letters, digits, dot, dash and underscore only.');
    expect(schemaError(passwordSchema, 'a long password')).toBeNull();
  });

  it('keeps the form checks the sign-up and profile forms ask, now from proto', () => {
    expect(checkEmail(' ')).toBe('Email is required');
    expect(checkEmail('hala@')).toBe('Invalid email format');
    expect(checkEmail(' Hala@Example.test ')).toBeNull();
    expect(checkUsername('  ab ')).toBe('Username must be at least 3 characters.');
    expect(checkPassword('x'.repeat(201))).toBe('Password must be at most 200 characters.');
    expect(checkSamePassword('a', 'b')).toBe('The passwords do not match.');
  });
});
