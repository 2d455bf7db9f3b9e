import type { Company, CompanySaveRequest } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import type { Db } from '../db/query-types.js';
import { companyOfUser, deleteCompanyRow, insertCompanyRow, updateCompanyRow, type CompanyRow } from '../repositories/companies.repository.js';

/**
 * The buyer's company (/mycompany, the Company entity of the generic edit
 * form): one per user, printed on every invoice made after it is saved.
 * Invoices keep the buyer as it was when they were made.
 */

const dto = (r: CompanyRow): Company => ({ ...r, updated_at: new Date(r.updated_at).toISOString() });

export async function getCompany(userId: number, k: Db = db()): Promise<Company | null> {
  const r = await companyOfUser(k, userId);
  return r ? dto(r) : null;
}

/** PUT /company: creates the user's company (a name is needed) or changes the fields sent. */
export async function saveCompany(userId: number, patch: CompanySaveRequest): Promise<Company> {
  const k = db();
  const existing = await getCompany(userId, k);
  if (existing) {
    await updateCompanyRow(k, userId, patch);
  } else {
    if (!patch.name) throw badRequest('Company name is required');
    await insertCompanyRow(k, userId, patch);
  }
  return (await getCompany(userId, k))!;
}

export async function deleteCompany(userId: number): Promise<{ id: number }> {
  const existing = await getCompany(userId);
  if (!existing) throw notFound('You have no company saved.');
  await deleteCompanyRow(db(), userId);
  return { id: existing.id };
}
