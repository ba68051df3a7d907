/**
 * The platform's routing, as its build output (`.vercel/output/config.json`, Build Output API v3)
 * describes it: an ordered list of routes split into phases by `handle` markers. The local server
 * and the build-output server both route with this, so they answer every path alike.
 */
export type PlatformRoute =
  | { handle: 'filesystem' | 'miss' | 'error' | 'rewrite' | 'hit' | 'resource' }
  | { src: string; dest?: string; status?: number; check?: boolean; continue?: boolean; headers?: Record<string, string> };

type SourceRoute = Exclude<PlatformRoute, { handle: string }>;

export type RouteTarget =
  /** A function or static file, by its path in the output (no leading slash), with the query it gets. */
  | { kind: 'file'; name: string; search: URLSearchParams }
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

function firstMatch(routes: readonly SourceRoute[], pathname: string): { route: SourceRoute; match: RegExpExecArray } | undefined {
  for (const route of routes) {
    const match = new RegExp(route.src).exec(pathname);
    if (match) return { route, match };
  }
  return undefined;
}

/**
 * Routes one request path: routes before `filesystem`, then the output's files, then the routes of
 * the filesystem phase in order (a `check` route must land on a file, else the `miss` routes get a
 * turn), and a path nothing serves ends with a status.
 */
export function resolvePlatformRoute(routes: readonly PlatformRoute[], lookup: FileLookup, pathname: string, search: URLSearchParams): RouteTarget {
  const phases = splitPhases(routes);
  let current = { pathname, search };
  const served = (candidate: string) => lookup(candidate);

  const main = firstMatch(phases.main, current.pathname);
  const location = main?.route.headers?.Location;
  if (main && location) {
    const query = search.toString();
    return { kind: 'redirect', status: main.route.status ?? 308, location: `${substitute(location, main.match)}${query ? `?${query}` : ''}` };
  }
  if (main?.route.status && !main.route.dest) return { kind: 'status', status: main.route.status };
  if (main?.route.dest) current = rewrite(main.route.dest, main.match, current.search);

  const direct = served(current.pathname);
  if (direct) return { kind: 'file', name: direct, search: current.search };

  const hit = firstMatch(phases.filesystem, current.pathname);
  if (!hit) return { kind: 'status', status: 404 };
  if (!hit.route.dest) return { kind: 'status', status: hit.route.status ?? 404 };
  current = rewrite(hit.route.dest, hit.match, current.search);
  const target = served(current.pathname);
  if (target) return { kind: 'file', name: target, search: current.search };
  if (!hit.route.check) return { kind: 'status', status: 404 };

  const miss = firstMatch(phases.miss, current.pathname);
  if (miss?.route.dest) {
    const retried = rewrite(miss.route.dest, miss.match, current.search);
    const found = served(retried.pathname);
    if (found) return { kind: 'file', name: found, search: retried.search };
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
