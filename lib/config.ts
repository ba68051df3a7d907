import path from 'node:path';

export type DatabaseDriver = 'pglite' | 'pg' | 'neon';
export type StorageProvider = 'local' | 'cloudinary';

export interface Config {
  port: number;
  production: boolean;
  onVercel: boolean;
  /** Proxies in front of the service that append to X-Forwarded-For (`TRUST_PROXY`); 0 trusts none. */
  trustedProxyHops: number;
  databaseUrl: string | undefined;
  databaseUrlUnpooled: string | undefined;
  databaseDriver: DatabaseDriver;
  dataDir: string;
  /** How long to wait for a database connection (`DATABASE_CONNECT_TIMEOUT_MS`, default 3 s). */
  databaseConnectTimeoutMs: number;
  /**
   * How long an instance keeps a CDN-cacheable public answer to give again (`ANSWER_CACHE_MS`,
   * default 1 s; 0 under test, where every read must see the writes made straight to the database).
   */
  answerCacheMs: number;
  /** The longest a statement may run (`DATABASE_STATEMENT_TIMEOUT_MS`, default 10 s). */
  databaseStatementTimeoutMs: number;
  jwtSecret: string | undefined;
  jwtExpiresIn: string;
  bcryptRounds: number;
  admin: { email: string; password: string; name: string; phone: string } | undefined;
  allowedOrigins: string[];
  apiBaseUrl: string;
  storefrontUrl: string | undefined;
  uploadDir: string;
  storageProvider: StorageProvider;
  imageHostFolder: string;
  messengerApiRoot: string;
  messengerBotToken: string | undefined;
  messengerChannelId: string | undefined;
  /** The secret registered with the Bot API for webhook calls, required on them; unset: derived from the bot token. */
  messengerWebhookSecret: string | undefined;
  /** Upper bound of one Bot API call. */
  messengerTimeoutMs: number;
  resendApiKey: string | undefined;
  mailFrom: string;
  /** The bearer secret Vercel Cron sends to the sweeper; any other caller is refused. */
  cronSecret: string | undefined;
  /** `LEGACY_CLIENT_FIELDS=1`: answers carry the original service's field names beside the spec's, for the original admin panel and storefront. */
  legacyClientFields: boolean;
  /** Whether the image host's credentials are set (`CLOUDINARY_URL`, or its three separate variables). */
  imageHostCredentials: boolean;
  /** How long the audit trail keeps an entry (`AUDIT_RETENTION_DAYS`, default 365). */
  auditRetentionDays: number;
  /** How long a deleted listing stays in the trash before the sweeper removes it for good (`TRASH_RETENTION_DAYS`, default 30). */
  trashRetentionDays: number;
}

/**
 * Every environment variable the service reads: its own settings, the platform's, and those its
 * libraries read for it (PostgreSQL's `PG*` defaults, the mail SDK's base URL). A `.env` key close
 * to one of these but not one of them is a typo, and is named at start (lib/cli/project-env.ts).
 */
export const SETTINGS: readonly string[] = [
  'PORT',
  'NODE_ENV',
  'VERCEL',
  'VERCEL_ENV',
  'TRUST_PROXY',
  'DATABASE_URL',
  'DATABASE_URL_UNPOOLED',
  'DATABASE_DRIVER',
  'NEON_WS_PROXY',
  'DATA_DIR',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'ANSWER_CACHE_MS',
  'MIGRATE_PREVIEWS',
  'JWT_SECRET',
  'JWT_EXPIRES_IN',
  'BCRYPT_ROUNDS',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'ADMIN_NAME',
  'ADMIN_PHONE',
  'ALLOWED_ORIGINS',
  'API_BASE_URL',
  'STOREFRONT_URL',
  'UPLOAD_DIR',
  'STORAGE_PROVIDER',
  'CLOUDINARY_URL',
  'CLOUDINARY_CLOUD_NAME',
  'CLOUDINARY_API_KEY',
  'CLOUDINARY_API_SECRET',
  'IMAGE_HOST_FOLDER',
  'MESSENGER_API_ROOT',
  'MESSENGER_BOT_TOKEN',
  'MESSENGER_CHANNEL_ID',
  'MESSENGER_WEBHOOK_SECRET',
  'MESSENGER_TIMEOUT_MS',
  'RESEND_API_KEY',
  'RESEND_BASE_URL',
  'MAIL_FROM',
  'CRON_SECRET',
  'LEGACY_CLIENT_FIELDS',
  'AUDIT_RETENTION_DAYS',
  'TRASH_RETENTION_DAYS',
  'LOG_LEVEL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'PGHOST',
  'PGPORT',
  'PGUSER',
  'PGPASSWORD',
  'PGDATABASE',
  'PGSSLMODE',
];

const LOCAL_ORIGINS = [3000, 3001, 5173, 4173, 8080].flatMap((port) => [
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
]);

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function chooseDriver(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): DatabaseDriver {
  const explicit = nonEmpty(env.DATABASE_DRIVER);
  if (explicit === 'neon' || explicit === 'pg' || explicit === 'pglite') return explicit;
  if (!databaseUrl) return 'pglite';
  return /\.neon\.tech(:\d+)?\//.test(databaseUrl) ? 'neon' : 'pg';
}

/** A duration setting in milliseconds, `least` (50 ms unless said) to 60 s; anything else falls back to the default. */
function readMilliseconds(value: string | undefined, fallback: number, least = 50): number {
  const milliseconds = Number(value ?? fallback);
  if (!Number.isInteger(milliseconds) || milliseconds < least || milliseconds > 60_000) return fallback;
  return milliseconds;
}

function readProxyHops(env: NodeJS.ProcessEnv): number {
  const hops = Number(env.TRUST_PROXY ?? 0);
  return Number.isInteger(hops) && hops > 0 && hops < 10 ? hops : 0;
}

/** Whole days from 1 to 100 years; anything else falls back to the default. */
function readRetentionDays(value: string | undefined, fallback: number): number {
  const days = Number(value ?? fallback);
  return Number.isInteger(days) && days >= 1 && days <= 36_500 ? days : fallback;
}

function readBcryptRounds(env: NodeJS.ProcessEnv): number {
  const rounds = Number(env.BCRYPT_ROUNDS ?? 12);
  if (!Number.isInteger(rounds) || rounds < 4 || rounds > 15) return 12;
  return rounds;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 5000) || 5000;
  const onVercel = Boolean(env.VERCEL);
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  const adminEmail = nonEmpty(env.ADMIN_EMAIL);
  const adminPassword = nonEmpty(env.ADMIN_PASSWORD);
  const storage = nonEmpty(env.STORAGE_PROVIDER);
  return {
    port,
    production: env.NODE_ENV === 'production' || onVercel,
    onVercel,
    trustedProxyHops: readProxyHops(env),
    databaseUrl,
    databaseUrlUnpooled: nonEmpty(env.DATABASE_URL_UNPOOLED),
    databaseDriver: chooseDriver(env, databaseUrl),
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? '.data'),
    databaseConnectTimeoutMs: readMilliseconds(env.DATABASE_CONNECT_TIMEOUT_MS, 3_000),
    databaseStatementTimeoutMs: readMilliseconds(env.DATABASE_STATEMENT_TIMEOUT_MS, 10_000),
    answerCacheMs: readMilliseconds(env.ANSWER_CACHE_MS, env.NODE_ENV === 'test' ? 0 : 1_000, 0),
    jwtSecret: nonEmpty(env.JWT_SECRET),
    jwtExpiresIn: nonEmpty(env.JWT_EXPIRES_IN) ?? '7d',
    bcryptRounds: readBcryptRounds(env),
    admin:
      adminEmail && adminPassword
        ? {
            email: adminEmail.toLowerCase(),
            password: adminPassword,
            name: nonEmpty(env.ADMIN_NAME) ?? 'Administrator',
            phone: nonEmpty(env.ADMIN_PHONE) ?? '',
          }
        : undefined,
    allowedOrigins: nonEmpty(env.ALLOWED_ORIGINS)
      ?.split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter(Boolean) ?? LOCAL_ORIGINS,
    apiBaseUrl: (nonEmpty(env.API_BASE_URL) ?? `http://localhost:${port}`).replace(/\/$/, ''),
    storefrontUrl: nonEmpty(env.STOREFRONT_URL)?.replace(/\/$/, ''),
    uploadDir: path.resolve(nonEmpty(env.UPLOAD_DIR) ?? 'uploads'),
    storageProvider: storage === 'local' || storage === 'cloudinary' ? storage : onVercel ? 'cloudinary' : 'local',
    imageHostFolder: nonEmpty(env.IMAGE_HOST_FOLDER) ?? 'brostechnology/listings',
    messengerApiRoot: (nonEmpty(env.MESSENGER_API_ROOT) ?? 'https://api.telegram.org').replace(/\/$/, ''),
    messengerBotToken: nonEmpty(env.MESSENGER_BOT_TOKEN),
    messengerChannelId: nonEmpty(env.MESSENGER_CHANNEL_ID),
    messengerWebhookSecret: nonEmpty(env.MESSENGER_WEBHOOK_SECRET),
    messengerTimeoutMs: readMilliseconds(env.MESSENGER_TIMEOUT_MS, 10_000),
    resendApiKey: nonEmpty(env.RESEND_API_KEY),
    mailFrom: nonEmpty(env.MAIL_FROM) ?? 'Marketplace <no-reply@example.com>',
    cronSecret: nonEmpty(env.CRON_SECRET),
    legacyClientFields: env.LEGACY_CLIENT_FIELDS === '1',
    imageHostCredentials: Boolean(
      nonEmpty(env.CLOUDINARY_URL) || (nonEmpty(env.CLOUDINARY_CLOUD_NAME) && nonEmpty(env.CLOUDINARY_API_KEY) && nonEmpty(env.CLOUDINARY_API_SECRET)),
    ),
    auditRetentionDays: readRetentionDays(nonEmpty(env.AUDIT_RETENTION_DAYS), 365),
    trashRetentionDays: readRetentionDays(nonEmpty(env.TRASH_RETENTION_DAYS), 30),
  };
}

/** HS256 wants a key at least as long as its hash: a shorter one stops a production start. */
export const MIN_JWT_SECRET_BYTES = 32;

export interface MissingSetting {
  setting: string;
  message: string;
}

/**
 * What a production deployment lacks, by setting. On serverless hosting nothing falls back to a
 * local stand-in (an embedded database, a generated secret, local disk), so each is required there.
 */
export function missingSettings(cfg: Config): MissingSetting[] {
  const missing: MissingSetting[] = [];
  if (cfg.production && (!cfg.jwtSecret || Buffer.byteLength(cfg.jwtSecret, 'utf8') < MIN_JWT_SECRET_BYTES)) {
    missing.push({ setting: 'JWT_SECRET', message: `must be set to at least ${MIN_JWT_SECRET_BYTES} bytes in production` });
  }
  if (cfg.onVercel && !cfg.databaseUrl) {
    missing.push({ setting: 'DATABASE_URL', message: 'must be set on serverless hosting: the embedded database cannot run there' });
  }
  if (cfg.onVercel && !cfg.cronSecret) {
    missing.push({ setting: 'CRON_SECRET', message: 'must be set: the scheduled sweeper that brings back channel posts answers only it' });
  }
  if (cfg.onVercel && cfg.storageProvider === 'cloudinary' && !cfg.imageHostCredentials) {
    missing.push({ setting: 'CLOUDINARY_URL', message: 'must be set (or CLOUDINARY_CLOUD_NAME, CLOUDINARY_API_KEY and CLOUDINARY_API_SECRET): images are kept on the image host here' });
  }
  return missing;
}

export function describeMissing(missing: readonly MissingSetting[]): string {
  return missing.map((item) => `${item.setting} ${item.message}`).join('; ');
}

let cached: Config | undefined;

/** The process configuration, read from the environment on first use. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
