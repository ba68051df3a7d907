import fs from 'node:fs';
import path from 'node:path';

export interface FunctionRoute {
  /** Path under `api/` without extension, e.g. `listings/[id]`. */
  file: string;
  /** Absolute path of the module. */
  modulePath: string;
  /** URL pattern, e.g. `/api/listings/:id`. */
  pattern: string;
  segments: Array<{ literal: string } | { param: string }>;
}

const SOURCE_EXTENSIONS = ['.ts', '.js', '.mjs'];

function isFunctionFile(name: string): boolean {
  if (name.startsWith('_') || name.startsWith('.') || name.endsWith('.d.ts') || /\.test\.[jt]s$/.test(name)) return false;
  return SOURCE_EXTENSIONS.includes(path.extname(name));
}

function walk(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('_') || entry.name.startsWith('.')) return [];
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return walk(path.join(dir, entry.name), relative);
    return isFunctionFile(entry.name) ? [relative] : [];
  });
}

function toRoute(apiDir: string, relative: string): FunctionRoute {
  const withoutExtension = relative.slice(0, -path.extname(relative).length);
  const parts = withoutExtension.split('/');
  if (parts.at(-1) === 'index') parts.pop();
  const segments = parts.map((part) => {
    const dynamic = /^\[(\w+)\]$/.exec(part);
    return dynamic ? { param: dynamic[1]! } : { literal: part };
  });
  const pattern = `/api${segments.map((s) => ('param' in s ? `/:${s.param}` : `/${s.literal}`)).join('')}`;
  return { file: withoutExtension, modulePath: path.join(apiDir, relative), pattern, segments };
}

/** Static segments win over dynamic ones, as on the serverless platform. */
function specificity(route: FunctionRoute): string {
  return route.segments.map((s) => ('param' in s ? '1' : '0')).join('');
}

/** Every function under `api/`, routed as the platform routes files. */
export function discoverRoutes(apiDir: string): FunctionRoute[] {
  return walk(apiDir)
    .map((file) => toRoute(apiDir, file))
    .sort((a, b) => specificity(a).localeCompare(specificity(b)) || a.pattern.localeCompare(b.pattern));
}
