import type { Company, CompanySaveRequest } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import type { Db } from '../db/query-types.js';

/**
 * The buyer's company (/mycompany, the Company entity of the generic edit
 * form): one per user, printed on every invoice made after it is saved.
 * Invoices keep the buyer as it was when they were made.
 */

const COLUMNS = ['id', 'id_user', 'name', 'tax_id', 'street', 'city', 'postal_code', 'province', 'country', 'email', 'updated_at'];

const dto = (r: Company & { updated_at: string | Date }): Company => ({ ...r, updated_at: new Date(r.updated_at).toISOString() });

export async function getCompany(userId: number, k: Db = db()): Promise<Company | null> {
  const r = await k('companies').where({ id_user: userId }).first(COLUMNS);
  return r ? dto(r) : null;
}

/** PUT /company: creates the user's company (a name is needed) or changes the fields sent. */
export async function saveCompany(userId: number, patch: CompanySaveRequest): Promise<Company> {
  const k = db();
  const existing = await getCompany(userId, k);
  if (existing) {
    await k('companies').where({ id_user: userId }).update({ ...patch, updated_at: k.fn.now() });
  } else {
    if (!patch.name) throw badRequest('Company name is required');
    await k('companies').insert({ ...patch, id_user: userId }).onConflict('id_user').merge({ ...patch, updated_at: k.fn.now() });
  }
  return (await getCompany(userId, k))!;
}

export async function deleteCompany(userId: number): Promise<{ id: number }> {
  const existing = await getCompany(userId);
  if (!existing) throw notFound('You have no company saved.');
  await db()('companies').where({ id_user: userId }).delete();
  return { id: existing.id };
}
