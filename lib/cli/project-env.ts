import fs from 'node:fs';
import path from 'node:path';

/**
 * Reads `.env` from the folder a command runs in (the project root under npm) into the process
 * environment. A variable already set in the environment keeps its value: Node's own loader never
 * overrides one. Imported first by every command, before anything reads its configuration.
 */
export function loadProjectEnv(folder: string = process.cwd()): void {
  const file = path.join(folder, '.env');
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

loadProjectEnv();
