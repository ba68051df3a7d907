import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { SETTINGS } from '../config.js';
import { settingResembled } from './setting-names.js';

/**
 * Reads `.env` from the folder a command runs in (the project root under npm) into the process
 * environment. A variable already set in the environment keeps its value: Node's own loader never
 * overrides one. Imported first by every command, before anything reads its configuration.
 *
 * A misspelt key would be ignored in silence (`DATABSE_URL` quietly leaves the embedded database
 * in use), so a key that is no setting but close to one is named with the setting it resembles.
 */
export function loadProjectEnv(folder: string = process.cwd()): void {
  const file = path.join(folder, '.env');
  if (!fs.existsSync(file)) return;
  process.loadEnvFile(file);
  for (const key of Object.keys(parseEnv(fs.readFileSync(file, 'utf8')))) {
    const meant = settingResembled(key, SETTINGS);
    if (meant) process.stderr.write(`.env: ${key}: did you mean ${meant}? (nothing reads ${key})\n`);
  }
}

loadProjectEnv();
