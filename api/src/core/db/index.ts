export { db, closeDb, migrateLatest, migrationSource } from './knex.js';
export * from './models/index.js';
