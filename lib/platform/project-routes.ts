import { convertRewrites, getTransformedRoutes, mergeRoutes, type Route } from '@vercel/routing-utils';
import type { PlatformRoute } from './routes.js';

/** A `vercel.json` rewrite. */
export interface Rewrite {
  source: string;
  destination: string;
}

/** A function of the deployment, as the platform's file routing names it. */
export interface RoutedFunction {
  /** Path under `api/` without extension, e.g. `listings/[id]`. */
  file: string;
  /** URL pattern, e.g. `/api/listings/:id`. */
  pattern: string;
}

/** The function that answers every path nothing else serves, with the 404 envelope. */
const NOT_FOUND_FUNCTION = '/api/not-found';

/**
 * The routes the build writes into its output's `config.json`: the output's files first; then
 * each function with path parameters (`api/listings/[id].ts`) serves its pattern, the parameters
 * in the query as the platform passes them; then every other path is the not-found function, and
 * a path ending in `.ts` is retried without it. They are written as rewrites of the function's
 * own pattern, converted by the platform's own library.
 */
export function buildRoutes(functions: readonly RoutedFunction[]): PlatformRoute[] {
  const withParameters = functions.filter((fn) => fn.file.includes('['));
  const rewrites: Rewrite[] = [
    ...withParameters.map((fn) => ({ source: fn.pattern, destination: `/api/${fn.file}` })),
    { source: '/:path(.*)', destination: NOT_FOUND_FUNCTION },
  ];
  return [
    { handle: 'filesystem' },
    ...(convertRewrites(rewrites) as PlatformRoute[]),
    { src: '^/api(/.*)?$', status: 404 },
    { handle: 'miss' },
    { src: '^/api/(.+)(?:\\.(?:ts))$', dest: '/api/$1', check: true },
  ];
}

/**
 * The routes the platform serves: `vercel.json`'s rewrites merged into the build's routes the way
 * `vercel build` merges them (the platform's routing library does both), so the local server
 * routes every path as the deployment does.
 */
export function projectRoutes(rewrites: readonly Rewrite[], functions: readonly RoutedFunction[]): PlatformRoute[] {
  const user = getTransformedRoutes({ rewrites: [...rewrites] });
  if (user.error) throw new Error(`vercel.json: ${user.error.message}`);
  const build = { use: '@vercel/static-build', entrypoint: 'package.json', routes: buildRoutes(functions) as Route[] };
  return mergeRoutes({ userRoutes: user.routes, builds: [build] }) as PlatformRoute[];
}
