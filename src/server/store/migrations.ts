/**
 * Schema migrations keyed on `PRAGMA user_version`. Each migration runs in its own transaction
 * together with the version bump, so a store is always at exactly one version. Never edit a
 * migration that has shipped; add the next one.
 */
import type Database from 'better-sqlite3';
import { pragma } from './native-handles.js';
import { SCHEMA_V1 } from './schema-v1.js';
import { SCHEMA_V2 } from './schema-v2.js';
import { SCHEMA_V3 } from './schema-v3.js';
import { SCHEMA_V4 } from './schema-v4.js';
import { SCHEMA_V5 } from './schema-v5.js';
import { SCHEMA_V6 } from './schema-v6.js';
import { SCHEMA_V7 } from './schema-v7.js';
import { SCHEMA_V8 } from './schema-v8.js';
import { SCHEMA_V9 } from './schema-v9.js';

interface Migration {
  readonly version: number;
  readonly up: (db: Database.Database) => void;
}

const MIGRATIONS: readonly Migration[] = [
  { version: 1, up: (db) => db.exec(SCHEMA_V1) },
  { version: 2, up: (db) => db.exec(SCHEMA_V2) },
  { version: 3, up: (db) => db.exec(SCHEMA_V3) },
  { version: 4, up: (db) => db.exec(SCHEMA_V4) },
  { version: 5, up: (db) => db.exec(SCHEMA_V5) },
  { version: 6, up: (db) => db.exec(SCHEMA_V6) },
  { version: 7, up: (db) => db.exec(SCHEMA_V7) },
  { version: 8, up: (db) => db.exec(SCHEMA_V8) },
  { version: 9, up: (db) => db.exec(SCHEMA_V9) },
];

/** The schema version this build writes: the last migration's. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export class StoreVersionError extends Error {
  constructor(found: number) {
    super(`The sandbox store has schema version ${found}, newer than this kactl understands (${SCHEMA_VERSION}); upgrade kactl or use another data file.`);
    this.name = 'StoreVersionError';
  }
}

export function migrate(db: Database.Database): void {
  const current = pragma(db, 'user_version') as number;
  if (current > SCHEMA_VERSION) throw new StoreVersionError(current);
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      migration.up(db);
      pragma(db, `user_version = ${migration.version}`);
    }).immediate();
  }
}
