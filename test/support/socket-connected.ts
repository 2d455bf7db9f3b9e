import type { Socket } from 'socket.io-client';

/** How long a test waits for a live connection or an acknowledgement before it fails with a message (a guard, not a measure). */
export const LIVE_WAIT_MS = 30_000;

/**
 * Resolves once a Socket.IO client is connected, at once when it already is:
 * a test that opens two sockets and waits for them one after the other must
 * not miss the second's 'connect', which on a busy machine can come while the
 * first is still awaited (that wait then never ended). Rejects with the
 * server's reason when the connection is refused, and after `timeoutMs` so a
 * connection that never comes fails with a message instead of hanging the test.
 */
export function connected(socket: Pick<Socket, 'connected' | 'once' | 'off'>, timeoutMs = LIVE_WAIT_MS): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      socket.off('connect', onConnect);
      socket.off('connect_error', onError);
    };
    const onConnect = () => {
      done();
      resolve();
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`The live connection did not open within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    socket.once('connect', onConnect);
    socket.once('connect_error', onError);
  });
}
