import type { Model, StaticHookArguments } from 'objection';
import { beginAuthWrite } from '../../services/session-invalidation.js';

const ENDS = Symbol('authWriteEnds');
type Ctx = { [ENDS]?: (() => void)[] };

/**
 * Static query hooks for the models a signed-in request's identity is read
 * from (User, Session): every update or delete through them tells all API
 * processes to forget the cached sessions of the users it touches
 * (core/services/session-invalidation.ts). `column` is the user id column of
 * the table; the rows are found in the write's own transaction, before it runs.
 */
export function authWriteHooks(table: string, column: string) {
  const before = async ({ asFindQuery, transaction, context }: StaticHookArguments<Model>): Promise<void> => {
    // (A by-id write of a row that is gone finds [undefined].)
    const rows = (await asFindQuery().select(`${table}.${column}`)) as unknown as (Record<string, number> | undefined)[];
    const end = await beginAuthWrite(
      rows.flatMap((r) => (r ? [r[column]] : [])),
      transaction,
    );
    if (end) ((context as Ctx)[ENDS] ??= []).push(end);
  };
  const after = ({ context }: StaticHookArguments<Model>): void => {
    for (const end of (context as Ctx)[ENDS]?.splice(0) ?? []) end();
  };
  return { before, after };
}
