import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const LOCK_FILE = 'server.lock';
const DATABASE_FOLDER = 'pglite';

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two processes writing one PGlite folder silently lose writes, so the folder is
 * guarded by a lock file naming the owning process; a lock whose process is gone is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && processIsAlive(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop that process first, or set DATA_DIR to another folder.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}

/**
 * PGlite links the extensions' libraries as it starts, all at once, and the dynamic linker fails
 * whichever finishes while the other's symbols are still unresolved. The failed copy stays half
 * linked: when that is pg_trgm, its similarity functions later call a null function pointer, and
 * the engine, left with a dangling error context, spins forever on its next error report. Which
 * library fails depends on timing, so it struck now and then, mostly under load. Turning off the
 * start-up linking leaves each library to be linked when Postgres first opens it, one at a time,
 * as its own libraries (plpgsql) already are.
 */
const linkLibrariesOnFirstUse: Extension = {
  name: 'link-libraries-on-first-use',
  setup: async (_pg, emscriptenOptions) => ({ emscriptenOpts: { ...emscriptenOptions, noWasmDecoding: true } }),
};

/**
 * Opens the embedded database of `dataDir` (creating it when there is none), with the extensions
 * the migrations create, without taking the folder's lock: for callers that hold it or own the folder.
 */
export function createEmbeddedClient(dataDir: string): Promise<PGlite> {
  return PGlite.create(path.join(dataDir, DATABASE_FOLDER), { extensions: { linkLibrariesOnFirstUse, btree_gin, pg_trgm } });
}

export async function openEmbeddedDatabase(dataDir: string): Promise<{ client: PGlite; release: () => void }> {
  const release = lockDataDir(dataDir);
  try {
    const client = await createEmbeddedClient(dataDir);
    return { client, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** Whether `dataDir` holds an embedded database (opening a folder that holds none would create one). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, DATABASE_FOLDER));
}
