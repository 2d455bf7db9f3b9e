export { db, closeDb, migrateLatest, migrationSource, pingDatabase, preparedQuery } from './knex.js';
export { iso, type Db } from './query-types.js';
export * from './models/index.js';
