import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config, MIN_JWT_SECRET_BYTES } from '../config.js';
import { ApiError } from '../http/api-error.js';
import { log } from '../log.js';

let secret: Uint8Array | undefined;

/**
 * `JWT_SECRET` is required in production, at least 32 bytes. Locally a random secret is generated once and kept in
 * `DATA_DIR`, so tokens survive restarts without any setup.
 */
export function jwtSecret(): Uint8Array {
  if (secret) return secret;
  const cfg = config();
  if (cfg.production && Buffer.byteLength(cfg.jwtSecret ?? '', 'utf8') < MIN_JWT_SECRET_BYTES) {
    log.error('JWT_SECRET is missing or shorter than 32 bytes: tokens are neither issued nor accepted');
    throw new ApiError(503, 'Service unavailable: JWT_SECRET is not set to at least 32 bytes');
  }
  if (cfg.jwtSecret) {
    secret = new TextEncoder().encode(cfg.jwtSecret);
    return secret;
  }
  const file = path.join(cfg.dataDir, 'jwt-secret');
  fs.mkdirSync(cfg.dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    log.warn('JWT_SECRET is not set: generated a local secret', { file });
  }
  secret = new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
  return secret;
}
