import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config, MIN_JWT_SECRET_BYTES } from './config.js';
import { log } from './log.js';

let secret: Uint8Array | undefined;

/** In production without a `JWT_SECRET` of at least 32 bytes, no token is issued or accepted: the service is unavailable, not broken. */
export class ServerSecretMissing extends Error {
  constructor() {
    super('Service unavailable: JWT_SECRET is not set to at least 32 bytes');
    this.name = 'ServerSecretMissing';
  }
}

/**
 * `JWT_SECRET` is required in production, at least 32 bytes. Locally a random secret is generated once and kept in
 * `DATA_DIR`, so tokens survive restarts without any setup.
 */
export function jwtSecret(): Uint8Array {
  if (secret) return secret;
  const cfg = config();
  if (cfg.production && Buffer.byteLength(cfg.jwtSecret ?? '', 'utf8') < MIN_JWT_SECRET_BYTES) {
    log.error('JWT_SECRET is missing or shorter than 32 bytes: tokens are neither issued nor accepted');
    throw new ServerSecretMissing();
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

/** What a key derived from the secret is for: each use has its own label, so no key can stand in for another. */
export type ServerKeyLabel = 'device tokens' | 'reset codes' | 'idempotency fingerprints' | 'first administrator setup links';

const derivedKeys = new Map<ServerKeyLabel, Buffer>();

/**
 * A key derived from `JWT_SECRET` under its own label (HMAC-SHA256 of the label). Digests made with
 * it live in the database, the secret never does: a copy of the database alone cannot test guesses
 * against them.
 */
export function serverKey(label: ServerKeyLabel): Buffer {
  let key = derivedKeys.get(label);
  if (!key) {
    key = crypto.createHmac('sha256', jwtSecret()).update(label).digest();
    derivedKeys.set(label, key);
  }
  return key;
}

/** The keyed digest (HMAC-SHA256, hex) of `text` under the label's key. */
export function keyedDigest(label: ServerKeyLabel, text: string | Buffer): string {
  return crypto.createHmac('sha256', serverKey(label)).update(text).digest('hex');
}
