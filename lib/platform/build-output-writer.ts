import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { nodeFileTrace, resolve as resolveDependency } from '@vercel/nft';
import { build } from 'esbuild';
import { assertNoDefaultOnlyDynamicChunks, commonJsNamedExports } from './commonjs-named-exports.js';
import { buildRoutes, type RoutedFunction } from './project-routes.js';
import { STATIC_FILES } from './static-files.js';

/**
 * Packages a function loads from its own `node_modules` instead of from its bundle: those with
 * native code (sharp), files read or paths resolved at run time (swagger-ui-dist's assets,
 * bcryptjs for the password worker), large clients only a few functions load (the image host,
 * the bot client, the mail client), the database drivers (`pg`, the cold-import yardstick, and
 * Neon's with its WebSocket), OpenTelemetry (imported only when telemetry is on, and its API is
 * CommonJS, whose names a bundled chunk would not export) and the embedded database, which no
 * function carries at all. Everything else (drizzle-orm, valibot, jose, busboy, …) is compiled into the function.
 */
const PACKAGES_KEPT = [
  'pg',
  '@neondatabase/serverless',
  'ws',
  'sharp',
  'cloudinary',
  'grammy',
  '@grammyjs/auto-retry',
  'resend',
  'swagger-ui-dist',
  'bcryptjs',
  '@vercel/otel',
  '@opentelemetry/api',
  '@electric-sql/pglite',
];

/** Deployed functions have no embedded database (DATABASE_URL is required on the platform). */
const NEVER_TRACED = ['node_modules/@electric-sql/**'];

/**
 * What a module resolves by path at run time, which no import names and so no trace finds: the
 * function of every module listed here also carries these files (and what they import).
 */
const RESOLVED_AT_RUN_TIME: Record<string, string[]> = {
  // The password worker thread loads bcryptjs from the path resolved on the main thread.
  'lib/auth/bcrypt-worker.ts': ['bcryptjs'],
  // The reference page serves the viewer's files from the package.
  'lib/docs/reference-page.ts': ['swagger-ui-dist/swagger-ui.css', 'swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui-dist/favicon-32x32.png'],
};

/** Every function's limits (seconds, MB). */
const FUNCTION_LIMITS = { maxDuration: 30, memory: 1024 };

/** What the platform's Node launcher reads from a function's `.vc-config.json`. */
interface FunctionConfigFile {
  runtime: string;
  handler: string;
  launcherType: 'Nodejs';
  shouldAddHelpers: boolean;
  shouldAddSourcemapSupport: boolean;
  maxDuration: number;
  memory: number;
}

const HANDLER = 'index.mjs';

/**
 * Bundled ES modules still meet CommonJS packages (busboy) that `require` Node's own modules; the
 * bundle gives them a `require` of its own.
 */
const REQUIRE_SHIM = "import { createRequire as __functionRequire } from 'node:module'; const require = __functionRequire(import.meta.url);";

/**
 * The platform's Node runtime named by `engines.node` (`24.x` is `nodejs24.x`), which is also the
 * major the platform itself reads from package.json; the code keeps to what Node 20 offers, so it
 * runs locally on Node 20 too (npm then warns about the engine, which the README explains).
 */
function nodeRuntime(projectDir: string): string {
  const { engines } = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const major = /^(\d+)/.exec(engines?.node ?? '')?.[1];
  if (!major) throw new Error('package.json engines.node must name the Node major version the platform runs (e.g. "24.x")');
  return `nodejs${major}.x`;
}

/** An `api/` file the build makes a function of. */
export interface FunctionSource extends RoutedFunction {
  /** Absolute path of the module. */
  modulePath: string;
}

interface Bundle {
  /** The bundle's files (the handler and its chunks). */
  files: string[];
  /** The project's modules compiled into it, relative to the project. */
  modules: string[];
}

/**
 * The function's own code in one module and the chunks it imports lazily, so a cold start reads a
 * few files instead of a few hundred (@vercel/node compiles module by module).
 */
async function bundleFunction(projectDir: string, route: FunctionSource, funcDir: string): Promise<Bundle> {
  const result = await build({
    absWorkingDir: projectDir,
    entryPoints: { index: route.modulePath },
    outdir: funcDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    external: PACKAGES_KEPT.flatMap((name) => [name, `${name}/*`]),
    banner: { js: REQUIRE_SHIM },
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'error',
    plugins: [commonJsNamedExports(projectDir)],
  });
  assertNoDefaultOnlyDynamicChunks(route.file, result.metafile, projectDir);
  return {
    files: Object.keys(result.metafile.outputs)
      .filter((file) => file.endsWith('.mjs'))
      .map((file) => path.resolve(projectDir, file)),
    modules: Object.keys(result.metafile.inputs),
  };
}

/**
 * Copies the packages the bundle loads, as the platform traces them: every file of `node_modules`
 * its imports (static or dynamic) reach, and the files its modules resolve at run time, resolved
 * from the project where npm installed them, whatever folder the output is written to.
 */
async function copyTracedPackages(projectDir: string, bundle: Bundle, funcDir: string, traceCache: object): Promise<void> {
  const fromProject = path.join(projectDir, 'package.json');
  const resolveFromProject = createRequire(fromProject).resolve;
  const runTimeFiles = bundle.modules
    .flatMap((module) => RESOLVED_AT_RUN_TIME[module] ?? [])
    .flatMap((specifier) => {
      const file = resolveFromProject(specifier);
      // Resolving the name again in the function needs the package's manifest too.
      const packageDir = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
      return packageDir ? [file, path.join(packageDir, 'package.json')] : [file];
    });
  const { fileList } = await nodeFileTrace([...bundle.files, ...runTimeFiles], {
    base: projectDir,
    ignore: NEVER_TRACED,
    cache: traceCache,
    resolve: (id, parent, job, cjsResolve) => {
      const bare = !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('node:');
      return resolveDependency(id, bare && bundle.files.includes(parent) ? fromProject : parent, job, cjsResolve);
    },
  });
  for (const file of fileList) {
    if (!file.startsWith('node_modules/')) continue;
    const target = path.join(funcDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(projectDir, file), target);
  }
}

async function writeFunction(projectDir: string, outputDir: string, route: FunctionSource, runtime: string, traceCache: object): Promise<void> {
  const funcDir = path.join(outputDir, 'functions', 'api', `${route.file}.func`);
  const bundle = await bundleFunction(projectDir, route, funcDir);
  await copyTracedPackages(projectDir, bundle, funcDir, traceCache);
  const config: FunctionConfigFile = {
    runtime,
    handler: HANDLER,
    launcherType: 'Nodejs',
    // Every function exports the Web signature, which the Node helpers never touch.
    shouldAddHelpers: false,
    shouldAddSourcemapSupport: true,
    ...FUNCTION_LIMITS,
  };
  fs.writeFileSync(path.join(funcDir, '.vc-config.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

/**
 * Writes the deployment as Build Output API v3 into `outputDir` (`.vercel/output`, which
 * `vercel build` then keeps as it is): one bundled function per `api/` file, the static files,
 * and `config.json` with the routes of the functions, which `vercel build` merges with
 * `vercel.json`'s rewrites (project-routes.ts).
 */
export async function writeBuildOutput(projectDir: string, outputDir: string, functions: readonly FunctionSource[]): Promise<void> {
  for (const owned of ['functions', 'static', 'config.json']) fs.rmSync(path.join(outputDir, owned), { recursive: true, force: true });
  fs.mkdirSync(path.join(outputDir, 'static'), { recursive: true });
  for (const [name, text] of Object.entries(STATIC_FILES)) fs.writeFileSync(path.join(outputDir, 'static', name), text);

  const runtime = nodeRuntime(projectDir);
  // The functions share most packages: each is analysed once, for all of them.
  const traceCache = {};
  await eachLimited(functions, 4, (route) => writeFunction(projectDir, outputDir, route, runtime, traceCache));

  fs.writeFileSync(path.join(outputDir, 'config.json'), `${JSON.stringify({ version: 3, routes: buildRoutes(functions) }, null, 2)}\n`);
}
