import { pino } from 'pino';
import { config } from './config.js';

/** Structured JSON logs; one logger, children carry the request id. */
export const logger = pino({
  level: config.logLevel,
  base: { service: process.env.SITEWALK_SERVICE ?? 'api' },
  redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', '*.password', '*.token'],
});
export type Logger = typeof logger;
