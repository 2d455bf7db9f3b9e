/** What the e2e global setup hands to the test files through vitest's provide/inject. */
export interface E2eAdmin {
  id: number;
  username: string;
  email: string;
  password: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The running SiteWalk (API, Socket.IO and client on one port), e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** The SMTP sink's mailbox: GET lists received mails as JSON, DELETE clears them. */
    mailboxUrl: string;
    /** The super administrator seeded for the run. */
    admin: E2eAdmin;
    /** Empty when the workers run; otherwise why they could not start. */
    workersProblem: string;
    /** The Autodesk Platform Services stand-in the server talks to; steered under /__standin/. */
    adskStandInUrl: string;
    /** The PayPal stand-in the server talks to (REST API and the buyer's approval page). */
    paypalStandInUrl: string;
    /** The Google, Facebook and X sign-in stand-in (under /google, /facebook, /twitter); people are added with POST /__standin/people. */
    socialStandInUrl: string;
  }
}
