import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { adminQuery, DATABASE_PREFIX, makeTempDir, testPostgresUrl, uniqueName, withDatabase } from './databases.js';

/** A migrated database of a command's own, which must not share the test server's embedded folder, and its upload folder. */
export async function commandDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const uploads = makeTempDir('command-uploads');
  if (testPostgresUrl) {
    const database = uniqueName(`${DATABASE_PREFIX}${inject('runId')}_`);
    await adminQuery(`CREATE DATABASE "${database}" TEMPLATE "${inject('templateDatabase')}"`);
    return {
      env: { DATABASE_URL: withDatabase(testPostgresUrl, database), DATABASE_DRIVER: 'pg', UPLOAD_DIR: uploads },
      drop: async () => {
        await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        fs.rmSync(uploads, { recursive: true, force: true });
      },
    };
  }
  const dataDir = makeTempDir('command-data');
  fs.cpSync(inject('templateDataDir'), dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, 'server.lock'), { force: true });
  return {
    env: { DATA_DIR: dataDir, UPLOAD_DIR: uploads },
    drop: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(uploads, { recursive: true, force: true });
    },
  };
}
