import { spawn, type ChildProcess } from 'node:child_process';
import { CEILING_PERCENTILES, type BrowseCeilings } from '../../lib/seeding/catalogue-prices.js';
import { firstDifference, type AnswerKind } from '../same-answers.js';
import {
  measureLoad,
  SERVICE_PORT,
  SERVICE_URL,
  startService,
  stopChild,
  table,
  waitForHttp,
  WARM_UP_SECONDS,
  type BenchContext,
  type BenchStore,
} from '../harness.js';

const FLOOR_PORT = SERVICE_PORT + 1;
const FLOOR_URL = `http://127.0.0.1:${FLOOR_PORT}`;

/** The straightforward floor (bench/floor.mjs: node:http, one pg pool, the obvious SQL), on the same database. */
async function startFloor(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bench/floor.mjs'], {
    env: { ...env, PORT: String(FLOOR_PORT), FLOOR_PG_FROM: process.cwd(), API_BASE_URL: SERVICE_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await waitForHttp(`${FLOOR_URL}/health`);
  return child;
}

/** A request both servers answer, compared item by item before their speed is. */
interface Scenario {
  name: string;
  path: string;
  kind: AnswerKind;
  /** The service's token; the floor reads without one. */
  token?: string;
  /** When given, each request takes one of these paths at random instead of `path` (which is among them). */
  paths?: string[];
}

/** The storefront's page size. */
const BROWSE_PAGE_SIZE = 24;
const BROWSE_PAGES = 50;
/** The percentiles of the catalogue's prices a browsing shopper's ceilings sit at (the 10th, 30th, ... 90th), where no structure's bound needs to be. */
const BROWSE_CEILING_PERCENTILES: number[] = [0.1, 0.3, 0.5, 0.7, 0.9];
/** Answers compared between the service and the floor before a browse run: a sample of its paths. */
const BROWSE_COMPARED = 12;

/** The ceilings at BROWSE_CEILING_PERCENTILES among `ceilings` (one per CEILING_PERCENTILES; none for a category without prices). */
function browsedCeilings(ceilings: number[]): number[] {
  return ceilings.filter((_, index) => BROWSE_CEILING_PERCENTILES.includes(CEILING_PERCENTILES[index]!));
}

/**
 * A shopper browsing: every category and none, pages 1 to BROWSE_PAGES, no price ceiling or one
 * at a percentile of the category's prices (of every price without one), at the storefront's page
 * size; distinct URLs that an answer cache rarely meets twice.
 */
function browsePaths(categoryNames: string[], ceilings: BrowseCeilings): string[] {
  const paths: string[] = [];
  for (const category of ['', ...categoryNames]) {
    const prices = category ? (ceilings.byCategory[category] ?? []) : ceilings.overall;
    for (let page = 1; page <= BROWSE_PAGES; page += 1) {
      for (const ceiling of [undefined, ...browsedCeilings(prices)]) {
        const query = new URLSearchParams({ limit: String(BROWSE_PAGE_SIZE), page: String(page) });
        if (category) query.set('category', category);
        if (ceiling !== undefined) query.set('priceMax', String(ceiling));
        paths.push(`/api/public/listings?${query}`);
      }
    }
  }
  return paths;
}

function scenariosOf(store: BenchStore): Scenario[] {
  const browsed = browsePaths(store.categoryNames, store.browseCeilings);
  return [
    { name: 'public list', path: '/api/public/listings', kind: 'list' },
    { name: 'public search (q + brand + price)', path: '/api/public/listings?q=pro&brand=apple&priceMin=200&priceMax=1500', kind: 'list' },
    { name: `public browse (${browsed.length.toLocaleString('en-US')} URLs, page size ${BROWSE_PAGE_SIZE})`, path: browsed[0]!, paths: browsed, kind: 'list' },
    { name: 'public detail', path: `/api/public/listings/${store.availableListingId}`, kind: 'detail' },
    { name: 'filter-options', path: '/api/public/filter-options?category=Phones', kind: 'filter-options' },
    { name: 'asset-stats', path: '/api/commissions/asset-stats', token: store.adminToken, kind: 'asset-stats' },
  ];
}

/** `count` of `paths`, spread evenly. */
function spread(paths: string[], count: number): string[] {
  return Array.from({ length: Math.min(count, paths.length) }, (_, index) => paths[Math.floor((index * paths.length) / Math.min(count, paths.length))]!);
}

async function dataOf(url: string, token?: string): Promise<unknown> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: unknown }).data;
}

/** Minimum ratios to the floor: the storefront's reads at or ahead of it, the kept totals well ahead. */
const LOAD_TARGETS: Record<AnswerKind, { rps: number; p99: number }> = {
  list: { rps: 1.0, p99: 1.2 },
  detail: { rps: 1.0, p99: 1.2 },
  'filter-options': { rps: 5, p99: Infinity },
  'asset-stats': { rps: 5, p99: Infinity },
};

/** Browsing distinct URLs, which an answer cache rarely meets: the service well ahead of the floor's one statement. */
const BROWSE_TARGET = { rps: 1.5, p99: 1.2 };

/** A row of the load table, and whether it met its target (rows for information always do). */
interface LoadRow {
  cells: Array<string | number>;
  met: boolean;
}

/**
 * Each scenario on the service (started with `env` added) and on the floor, side by side after a
 * warm-up: `judged` rows are held to their target, the others are for information.
 */
async function loadRows(context: BenchContext, scenarios: Scenario[], env: NodeJS.ProcessEnv, label: string, judged: boolean): Promise<LoadRow[]> {
  const service = await startService({ ...context.env, ...env });
  const floor = await startFloor(context.env);
  const run = (url: string, seconds: number, paths?: string[], token?: string) =>
    measureLoad({ url, token, seconds, connections: context.connections, paths });
  try {
    const rows: LoadRow[] = [];
    for (const scenario of scenarios) {
      const serviceUrl = `${SERVICE_URL}${scenario.path}`;
      const floorUrl = `${FLOOR_URL}${scenario.path}`;
      let difference: string | undefined;
      for (const compared of scenario.paths ? spread(scenario.paths, BROWSE_COMPARED) : [scenario.path]) {
        const found = firstDifference(scenario.kind, await dataOf(`${SERVICE_URL}${compared}`, scenario.token), await dataOf(`${FLOOR_URL}${compared}`));
        difference ??= found === undefined ? undefined : `${compared}: ${found}`;
      }
      await run(serviceUrl, WARM_UP_SECONDS, scenario.paths, scenario.token);
      await run(floorUrl, WARM_UP_SECONDS, scenario.paths);
      const ours = await run(serviceUrl, context.duration, scenario.paths, scenario.token);
      const base = await run(floorUrl, context.duration, scenario.paths);
      const rpsRatio = ours.rps / base.rps;
      const p99Ratio = ours.p99 / Math.max(base.p99, 1);
      const target = scenario.paths ? BROWSE_TARGET : LOAD_TARGETS[scenario.kind];
      const met = rpsRatio >= target.rps && p99Ratio <= target.p99 && difference === undefined;
      rows.push({
        cells: [
          `${scenario.name}${label}`,
          difference === undefined ? 'same' : `DIFFERENT (${difference})`,
          Math.round(ours.rps),
          Math.round(base.rps),
          rpsRatio.toFixed(2),
          ours.p99,
          base.p99,
          p99Ratio.toFixed(2),
          ours.errors,
          judged ? (met ? 'met' : 'MISSED') : 'info',
        ],
        met: met || !judged,
      });
    }
    return rows;
  } finally {
    await service.stop();
    await stopChild(floor);
  }
}

/** The storefront's reads and the kept totals under load, against the straightforward floor. */
export async function benchLoad(context: BenchContext): Promise<boolean> {
  const scenarios = scenariosOf(await context.store());
  console.log(`\n## Load: ${context.connections} connections, ${context.duration} s each, service vs the straightforward floor (bench/floor.mjs)\n`);
  const rows = [
    ...(await loadRows(context, scenarios, {}, '', true)),
    // The lists again with the instance's answer cache off, for what a request costs when it reaches
    // the database (a CDN miss on a cold instance): for information.
    ...(await loadRows(
      context,
      scenarios.filter((scenario) => scenario.kind === 'list'),
      { ANSWER_CACHE_MS: '0' },
      ', instance cache off',
      false,
    )),
  ];
  table(
    ['scenario', 'items', 'req/s', 'floor req/s', 'ratio', 'p99 ms', 'floor p99', 'p99 ratio', 'non-2xx', 'target'],
    rows.map((row) => row.cells),
  );
  console.log('\ntargets: list, search and detail ratio >= 1.0 with p99 ratio <= 1.2; browse ratio >= 1.5 with p99 ratio <= 1.2; filter-options and asset-stats ratio >= 5');
  return rows.every((row) => row.met);
}
