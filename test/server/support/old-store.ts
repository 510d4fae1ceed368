/**
 * A store file as an older kactl left it, for migration tests: a fresh file with the schema
 * of version 2 and `user_version = 2`, open through a raw connection for the rows a test puts
 * in. Close it before `openStore` migrates the file.
 */
import Database from 'better-sqlite3';
import { retain } from '../../../src/server/store/native-handles.js';
import path from 'node:path';
import { SCHEMA_V1 } from '../../../src/server/store/schema-v1.js';
import { SCHEMA_V2 } from '../../../src/server/store/schema-v2.js';
import { tempDir } from '../../helpers/temp-dir.js';

export function versionTwoStore(): { file: string; raw: Database.Database } {
  const file = path.join(tempDir(), 'v2.db');
  const raw = retain(new Database(file));
  raw.exec(SCHEMA_V1);
  raw.exec(SCHEMA_V2);
  raw.pragma('user_version = 2');
  return { file, raw };
}
