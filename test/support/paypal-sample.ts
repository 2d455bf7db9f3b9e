/** The credentials the PayPal stand-in accepts in tests and the browser flow (nothing real). */
export const PAYPAL_CLIENT = 'sitewalk-test-client';
export const PAYPAL_SECRET = 'sitewalk-test-paypal-secret-9f3a';
export const PAYPAL_WEBHOOK_ID = 'WH-ID-STANDIN-1';
