/** One JSON object per line on stdout/stderr: the format log drains on serverless hosts index. */
type Level = 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** `LOG_LEVEL`: debug (also every SQL statement), info (default), warn, error or silent. */
function threshold(): number {
  const level = process.env.LOG_LEVEL as Level | 'silent' | undefined;
  return RANK[level ?? 'info'] ?? RANK.info;
}

export function logs(level: Level): boolean {
  return RANK[level] >= threshold();
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (!logs(level)) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields }, errorReplacer);
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/** An error with what says why: a database error's code and constraint, and the error it wraps. */
function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const { code, constraint, detail } = value as { code?: unknown; constraint?: unknown; detail?: unknown };
    return { name: value.name, message: value.message, code, constraint, detail, stack: value.stack, cause: value.cause };
  }
  return value;
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
