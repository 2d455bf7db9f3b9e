import type { Company, CompanySaveRequest } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/** Every query of the buyers' companies (`companies`, one per user). The service holds the rules. */

/** A company as stored: the API's fields, the date as the driver gives it. */
export type CompanyRow = Omit<Company, 'updated_at'> & { updated_at: string | Date };

const COLUMNS = ['id', 'id_user', 'name', 'tax_id', 'street', 'city', 'postal_code', 'province', 'country', 'email', 'updated_at'];

export async function companyOfUser(k: Db, userId: number): Promise<CompanyRow | undefined> {
  return await k('companies').where({ id_user: userId }).first(COLUMNS);
}

/** Changes the fields given of the user's company. */
export async function updateCompanyRow(k: Db, userId: number, patch: CompanySaveRequest): Promise<void> {
  await k('companies').where({ id_user: userId }).update({ ...patch, updated_at: k.fn.now() });
}

/** Writes the user's company; one written meanwhile gets these fields instead. */
export async function insertCompanyRow(k: Db, userId: number, row: CompanySaveRequest): Promise<void> {
  await k('companies').insert({ ...row, id_user: userId }).onConflict('id_user').merge({ ...row, updated_at: k.fn.now() });
}

export async function deleteCompanyRow(k: Db, userId: number): Promise<void> {
  await k('companies').where({ id_user: userId }).delete();
}
