export { db, closeDb, migrateLatest, migrationSource, preparedQuery } from './knex.js';
export * from './models/index.js';
