// `npm run migrate`: creates the database if missing and applies pending migrations.
import { loadConfig } from '../src/config';
import { prepareDatabase } from './runtime/database';
import { fail, log } from './common';

prepareDatabase(loadConfig().databaseUrl, log).then(() => process.exit(0), fail);
