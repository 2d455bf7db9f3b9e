import type { StandInPerson } from './social-stand-in.js';

/** The client credentials the sign-in stand-ins accept in tests and the browser flow (nothing real). */
export const SOCIAL_CLIENTS = {
  google: { id: 'sitewalk-test.apps.googleusercontent.example', secret: 'sitewalk-test-google-secret-5d1e' },
  facebook: { id: '100200300400', secret: 'sitewalk-test-facebook-secret-77ab' },
  twitter: { id: 'c2l0ZXdhbGstdGVzdA', secret: 'sitewalk-test-x-secret-31c9' },
};

/** People who can sign in at the stand-ins from the start (tests add their own). */
export const SOCIAL_PEOPLE: StandInPerson[] = [
  { provider: 'google', subject: '104200000000000000001', email: 'grace.google@example.test', email_verified: true, first_name: 'Grace', last_name: 'Hopper' },
];
