import type { PlatformRoute } from './routes.js';

/** A `vercel.json` rewrite. */
export interface Rewrite {
  source: string;
  destination: string;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A rewrite as the platform writes it into its routes: `:name` matches one segment, `:name*` any
 * number of them (none too) and `:name(pattern)` what the pattern matches; the destination gets
 * each parameter it names, and those it does not name are added to its query.
 */
export function rewriteRoute({ source, destination }: Rewrite): PlatformRoute {
  const names: string[] = [];
  const pattern = source
    .split('/')
    .slice(1)
    .map((segment) => {
      const param = /^:(\w+)(\*|\((.+)\))?$/.exec(segment);
      if (!param) return `/${escapeRegex(segment)}`;
      names.push(param[1]!);
      if (param[3]) return `(?:/(${param[3]}))`;
      return param[2] ? '(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?' : '(?:/([^/]+?))';
    })
    .join('');
  let dest = destination;
  const unused: string[] = [];
  names.forEach((name, index) => {
    const placeholder = new RegExp(`:${name}(?![\\w(])\\*?`, 'g');
    if (placeholder.test(dest)) dest = dest.replace(placeholder, `$${index + 1}`);
    else unused.push(`${name}=$${index + 1}`);
  });
  if (unused.length > 0) dest += `${dest.includes('?') ? '&' : '?'}${unused.join('&')}`;
  return { src: `^${pattern}$`, dest, check: true };
}

/**
 * The routes the build writes into its output's `config.json`: the output's files first, then any
 * other `/api` path is a 404 (after the rewrites), and a path ending in `.ts` is retried without it.
 */
export const BUILD_ROUTES: readonly PlatformRoute[] = [
  { handle: 'filesystem' },
  { src: '^/api(/.*)?$', status: 404 },
  { handle: 'miss' },
  { src: '^/api/(.+)(?:\\.(?:ts))$', dest: '/api/$1', check: true },
];

/**
 * The routes the platform serves: the build's, with `vercel.json`'s rewrites in order at the start
 * of the filesystem phase, where `vercel build` merges them into the routes a build writes.
 */
export function projectRoutes(rewrites: readonly Rewrite[]): PlatformRoute[] {
  const [filesystem, ...rest] = BUILD_ROUTES;
  return [filesystem!, ...rewrites.map(rewriteRoute), ...rest];
}
