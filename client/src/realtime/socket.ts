import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@sitewalk/proto';

/**
 * The one Socket.IO connection of the app (same origin, path /socket.io),
 * authenticated with the session token at handshake. socket.io-client loads
 * only after sign-in, keeping it out of the sign-in screen's JavaScript.
 * Features subscribe with onServerEvent, before or after the connection exists.
 */

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type EventName = keyof ServerToClientEvents;
type AnyHandler = (...args: unknown[]) => void;

let socket: AppSocket | null = null;
let connecting: Promise<AppSocket> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
const handlers = new Map<EventName, Set<AnyHandler>>();
const connectHandlers = new Set<() => void>();

/** Subscribes to a server event; returns the unsubscribe. */
export function onServerEvent<E extends EventName>(event: E, handler: ServerToClientEvents[E]): () => void {
  const set = handlers.get(event) ?? new Set<AnyHandler>();
  handlers.set(event, set);
  set.add(handler as AnyHandler);
  (socket as unknown as { on(e: string, h: AnyHandler): void } | null)?.on(event, handler as AnyHandler);
  return () => {
    set.delete(handler as AnyHandler);
    (socket as unknown as { off(e: string, h: AnyHandler): void } | null)?.off(event, handler as AnyHandler);
  };
}

/** Runs `fn` on every (re)connection, e.g. to refetch what was missed meanwhile. */
export function onSocketConnect(fn: () => void): () => void {
  connectHandlers.add(fn);
  return () => connectHandlers.delete(fn);
}

/** The connected socket, if any (for features that emit, such as project:join). */
export const currentSocket = (): AppSocket | null => socket;

export function connectSocket(getToken: () => string | null): Promise<AppSocket> {
  if (socket) return Promise.resolve(socket);
  if (connecting) return connecting;
  connecting = import('socket.io-client').then(({ io }) => {
    const s: AppSocket = io({
      path: '/socket.io',
      // A function, so every reconnection presents the current (maybe refreshed) token.
      auth: (cb) => cb({ token: getToken() ?? '' }),
      transports: ['websocket', 'polling'],
    });
    const raw = s as unknown as { on(e: string, h: AnyHandler): void };
    for (const [event, set] of handlers) for (const h of set) raw.on(event, h);
    s.on('connect', () => {
      for (const fn of connectHandlers) fn();
    });
    let delay = 1000;
    s.on('connect_error', (err) => {
      // A refused handshake is not retried by socket.io itself: try again, slower each time.
      if (s.active || !getToken()) return;
      console.warn('Live updates are not connected:', err.message);
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        if (socket === s && getToken()) s.connect();
      }, delay);
      delay = Math.min(delay * 2, 60_000);
    });
    s.on('connect', () => {
      delay = 1000;
    });
    s.on('disconnect', (reason) => {
      // The server ends a socket when its session ends (expired, or replaced by a token
      // refresh); socket.io does not come back by itself then. With a current token a new
      // handshake picks up the live session; after a logout there is no token and it stays closed.
      if (reason !== 'io server disconnect') return;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = setTimeout(() => {
        if (socket === s && getToken()) s.connect();
      }, 1000);
    });
    socket = s;
    return s;
  });
  return connecting.finally(() => {
    connecting = null;
  });
}

export function disconnectSocket(): void {
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  socket?.disconnect();
  socket = null;
}
