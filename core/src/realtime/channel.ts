import { config } from '../config.js';

/** The Redis key under which socket.io's adapter (API processes) and emitter (any process) talk. */
export const socketChannel = () => `${config.redisPrefix}:socket.io`;

/** Every socket also joins the room of the session it signed in with, so one session can be ended alone. */
export const sessionRoom = (sessionId: number) => `session:${sessionId}`;
