/**
 * The platform's routing, as its build output (`.vercel/output/config.json`, Build Output API v3)
 * describes it: an ordered list of routes split into phases by `handle` markers. The local server
 * and the build-output server both route with this, so they answer every path alike.
 */
export type PlatformRoute =
  | { handle: 'filesystem' | 'miss' | 'error' | 'rewrite' | 'hit' | 'resource' }
  | {
      src: string;
      dest?: string;
      status?: number;
      check?: boolean;
      /** Applies the route (its headers, destination and status) and goes on to the next one. */
      continue?: boolean;
      headers?: Record<string, string>;
      /** The request methods the route applies to; every method when absent. */
      methods?: string[];
      /** `src` is matched ignoring case unless this is true, as the platform matches it. */
      caseSensitive?: boolean;
    };

type SourceRoute = Exclude<PlatformRoute, { handle: string }>;

export type RouteTarget =
  /**
   * A function or static file, by its path in the output (no leading slash), with the query it
   * gets and the headers the routes on the way added to its answer.
   */
  | { kind: 'file'; name: string; search: URLSearchParams; headers: Record<string, string> }
  /** Nothing serves the path: the platform's own error page with this status. */
  | { kind: 'status'; status: number }
  /** A redirect route (the trailing-slash rule). */
  | { kind: 'redirect'; status: number; location: string };

/** Answers the output's file (function or static) serving a path, if one does. */
export type FileLookup = (pathname: string) => string | undefined;

interface Phases {
  main: SourceRoute[];
  filesystem: SourceRoute[];
  miss: SourceRoute[];
  error: SourceRoute[];
}

function splitPhases(routes: readonly PlatformRoute[]): Phases {
  const phases: Phases = { main: [], filesystem: [], miss: [], error: [] };
  let current: SourceRoute[] = phases.main;
  for (const route of routes) {
    if ('handle' in route) {
      current = route.handle === 'filesystem' ? phases.filesystem : route.handle === 'miss' ? phases.miss : route.handle === 'error' ? phases.error : [];
      continue;
    }
    current.push(route);
  }
  return phases;
}

function substitute(dest: string, match: RegExpExecArray): string {
  return dest.replace(/\$(\d+)/g, (_, index: string) => match[Number(index)] ?? '');
}

/** Applies a route's `dest` to the current path and query: the destination's query is added to the request's. */
function rewrite(dest: string, match: RegExpExecArray, search: URLSearchParams): { pathname: string; search: URLSearchParams } {
  const target = new URL(substitute(dest, match), 'http://platform.invalid');
  const merged = new URLSearchParams(search);
  for (const [name, value] of target.searchParams) merged.set(name, value);
  return { pathname: decodeURIComponent(target.pathname), search: merged };
}

/** Where a request stands as the routes of a phase are applied to it. */
interface Routed {
  pathname: string;
  search: URLSearchParams;
  headers: Record<string, string>;
}

function matchOf(route: SourceRoute, pathname: string, method: string): RegExpExecArray | null {
  if (route.methods && !route.methods.some((allowed) => allowed.toUpperCase() === method)) return null;
  return new RegExp(route.src, route.caseSensitive ? '' : 'i').exec(pathname);
}

/** Adds a matched route's headers to what the answer will carry; a later route's header replaces an earlier one's. */
function withHeaders(current: Routed, route: SourceRoute, match: RegExpExecArray): Routed {
  if (!route.headers) return current;
  const added = Object.fromEntries(Object.entries(route.headers).map(([name, value]) => [name.toLowerCase(), substitute(value, match)]));
  return { ...current, headers: { ...current.headers, ...added } };
}

/**
 * The first route of a phase that matches and does not `continue`, after applying those that match
 * and do: each of them adds its headers and rewrites the path for the routes after it.
 */
function firstMatch(routes: readonly SourceRoute[], start: Routed, method: string): { route?: SourceRoute; match?: RegExpExecArray; routed: Routed } {
  let routed = start;
  for (const route of routes) {
    const match = matchOf(route, routed.pathname, method);
    if (!match) continue;
    routed = withHeaders(routed, route, match);
    if (!route.continue) return { route, match, routed };
    if (route.dest) routed = { ...routed, ...rewrite(route.dest, match, routed.search) };
  }
  return { routed };
}

/**
 * Routes one request path: routes before `filesystem`, then the output's files, then the routes of
 * the filesystem phase in order (a `check` route must land on a file, else the `miss` routes get a
 * turn), and a path nothing serves ends with a status.
 */
export function resolvePlatformRoute(
  routes: readonly PlatformRoute[],
  lookup: FileLookup,
  pathname: string,
  search: URLSearchParams,
  method = 'GET',
): RouteTarget {
  const phases = splitPhases(routes);
  const asked = method.toUpperCase();
  const file = (routed: Routed): RouteTarget | undefined => {
    const name = lookup(routed.pathname);
    return name === undefined ? undefined : { kind: 'file', name, search: routed.search, headers: routed.headers };
  };

  const main = firstMatch(phases.main, { pathname, search, headers: {} }, asked);
  let current = main.routed;
  const location = main.route?.headers?.Location;
  if (main.route && main.match && location) {
    const query = search.toString();
    return { kind: 'redirect', status: main.route.status ?? 308, location: `${substitute(location, main.match)}${query ? `?${query}` : ''}` };
  }
  if (main.route?.status && !main.route.dest) return { kind: 'status', status: main.route.status };
  if (main.route?.dest && main.match) current = { ...current, ...rewrite(main.route.dest, main.match, current.search) };

  const direct = file(current);
  if (direct) return direct;

  const hit = firstMatch(phases.filesystem, current, asked);
  if (!hit.route || !hit.match) return { kind: 'status', status: 404 };
  if (!hit.route.dest) return { kind: 'status', status: hit.route.status ?? 404 };
  current = { ...hit.routed, ...rewrite(hit.route.dest, hit.match, hit.routed.search) };
  const target = file(current);
  if (target) return target;
  if (!hit.route.check) return { kind: 'status', status: 404 };

  const miss = firstMatch(phases.miss, current, asked);
  if (miss.route?.dest && miss.match) {
    const found = file({ ...miss.routed, ...rewrite(miss.route.dest, miss.match, miss.routed.search) });
    if (found) return found;
  }
  return { kind: 'status', status: 404 };
}

/**
 * The output's file lookup for a set of function and static file names: a path is served by the
 * file of that name or, for a folder, its `index`; a trailing slash is ignored.
 */
export function fileLookup(names: ReadonlySet<string>): FileLookup {
  return (pathname) => {
    const name = pathname.replace(/^\/+|\/+$/g, '');
    if (names.has(name)) return name;
    const index = name ? `${name}/index` : 'index';
    return names.has(index) ? index : undefined;
  };
}
