/**
 * The short-lived memory of resolved sessions of one API process (bearer
 * token hash → the session and user rows), so an authenticated request need
 * not ask PostgreSQL who it is every time. Framework-free: the Redis side
 * (core/services/session-invalidation.ts) feeds it the messages and the state
 * of its subscription.
 *
 * Safety rules, each of which the tests hold it to:
 * - Nothing is kept or served while the process does not hear every change
 *   (`live` false: its Redis subscription is down); going down forgets all,
 *   since a message may have been missed.
 * - A write to a user or their sessions announces itself twice, "begin"
 *   before the statement runs and "end" once its transaction is over. From
 *   "begin" on, the user's entries are gone and none is kept again until
 *   "end" (or, if "end" never comes, until `blockMs` passed), so no process
 *   can keep an answer read before the commit.
 * - A lookup keeps its answer only if nothing happened meanwhile: it takes a
 *   ticket (the generation) before asking the database and `store` refuses
 *   the answer when any message or change of state came in between.
 * - An entry lives `ttlMs` at most, and never past its session's expiry.
 * - Lookups of one token under way at once are one lookup (`share`), but only
 *   within one generation: a request that comes after a write never gets an
 *   answer read before it.
 */
export interface CachedRows {
  /** The session row, as pg typed it. */
  session: Record<string, unknown>;
  /** The user row, as pg typed it. */
  user: Record<string, unknown>;
}

export interface AuthWriteMessage {
  op: 'begin' | 'end';
  /** One write: its "end" closes its "begin". */
  id: string;
  users: number[];
}

interface Entry extends CachedRows {
  userId: number;
  /** When the entry is no longer used: the sooner of the TTL and the session's expiry (ms since epoch). */
  until: number;
}

export interface SessionCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** How long a "begin" without its "end" keeps its users out of the cache. */
  blockMs: number;
}

export class SessionCache {
  #entries = new Map<string, Entry>();
  /** Writes begun and not yet ended: id → users and until when they hold. */
  #pending = new Map<string, { users: number[]; until: number }>();
  #live = false;
  #generation = 0;
  /** Lookups under way: token hash → the generation they began in and their answer. */
  #lookups = new Map<string, { ticket: number; answer: Promise<unknown> }>();

  constructor(readonly options: SessionCacheOptions) {}

  get live(): boolean {
    return this.#live;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The ticket a lookup takes before asking the database (see store). */
  get generation(): number {
    return this.#generation;
  }

  /** Whether this process hears every change (its subscription is up); when not, it forgets all and keeps nothing. */
  setLive(live: boolean): void {
    if (live === this.#live) return;
    this.#live = live;
    this.#forgetAll();
  }

  /** The rows of a live session under this token hash, or undefined. */
  get(tokenHash: string, now: number): CachedRows | undefined {
    const e = this.#entries.get(tokenHash);
    if (!e) return undefined;
    if (e.until <= now || !this.#live) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return e;
  }

  /**
   * The answer of `load` for this token hash, shared by every caller who asks
   * while a lookup begun in the same generation is under way. Without it, when
   * a busy token's entry expires every request in flight asks the database at
   * once, and that burst queues the whole pool behind it. `load` gets the
   * ticket to hand to `store`.
   */
  share<T>(tokenHash: string, load: (ticket: number) => Promise<T>): Promise<T> {
    const ticket = this.#generation;
    // Deaf to other processes' writes, it cannot tell whether an answer under way is still good.
    if (!this.#live) return load(ticket);
    const running = this.#lookups.get(tokenHash);
    if (running && running.ticket === ticket) return running.answer as Promise<T>;
    const answer: Promise<T> = load(ticket).finally(() => {
      if (this.#lookups.get(tokenHash)?.answer === answer) this.#lookups.delete(tokenHash);
    });
    this.#lookups.set(tokenHash, { ticket, answer });
    return answer;
  }

  /**
   * Keeps a lookup's answer, unless something happened since `ticket` was
   * taken, the user is being written to, or the cache is not live. Returns
   * whether it was kept.
   */
  store(tokenHash: string, rows: CachedRows, userId: number, sessionExpires: number, ticket: number, now: number): boolean {
    if (!this.#live || ticket !== this.#generation || this.#blocked(userId, now)) return false;
    const until = Math.min(now + this.options.ttlMs, sessionExpires);
    if (until <= now) return false;
    if (this.#entries.size >= this.options.maxEntries) {
      // Oldest first (a Map keeps insertion order).
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(tokenHash, { ...rows, userId, until });
    return true;
  }

  /** Applies a write's announcement (from this process or, through Redis, from another). */
  apply(msg: AuthWriteMessage, now: number): void {
    this.#generation++;
    if (msg.op === 'begin') this.#pending.set(msg.id, { users: msg.users, until: now + this.options.blockMs });
    else this.#pending.delete(msg.id);
    const users = new Set(msg.users);
    for (const [hash, e] of this.#entries) if (users.has(e.userId)) this.#entries.delete(hash);
  }

  #blocked(userId: number, now: number): boolean {
    for (const [id, p] of this.#pending) {
      if (p.until <= now) this.#pending.delete(id);
      else if (p.users.includes(userId)) return true;
    }
    return false;
  }

  #forgetAll(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
