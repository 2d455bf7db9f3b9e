import { Model } from 'objection';
import type { Knex } from 'knex';
import { db } from '../knex.js';

/**
 * Base of every model. Queries bind to the process's knex instance on first
 * use, so no caller has to remember to bind. Relations are declared with
 * classes, not paths, to stay ESM-friendly.
 */
export class BaseModel extends Model {
  static override knex(knex?: Knex): Knex {
    if (knex) return super.knex(knex);
    return super.knex() ?? db();
  }
}
