import fs from 'node:fs';
import path from 'node:path';
import { nodeFileTrace, resolve as resolveDependency } from '@vercel/nft';
import { build } from 'esbuild';
import { assertNoDefaultOnlyDynamicChunks, commonJsNamedExports } from './commonjs-named-exports.js';
import { filesResolvedAtRunTime, EXTERNAL_BY_CHOICE, NEVER_TRACED, packagesWithNativeCode, type ProjectModule } from './external-packages.js';
import { buildRoutes, type RoutedFunction } from './project-routes.js';
import { STATIC_FILES } from './static-files.js';

/** Every function's limits (seconds, MB). */
const FUNCTION_LIMITS = { maxDuration: 30, memory: 1024 };

/**
 * Functions that may run longer, by file: the CSV export streams a whole catalogue (a million
 * listings take minutes to read), in constant memory; 300 s is every plan's default.
 */
const LONGER_RUNNING: Readonly<Record<string, number>> = { 'listings/export': 300 };

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
  /** The project's own modules compiled into it (relative to the project), with what each imports. */
  projectModules: ProjectModule[];
}

/**
 * The function's own code in one module and the chunks it imports lazily, so a cold start reads a
 * few files instead of a few hundred (@vercel/node compiles module by module).
 */
async function bundleFunction(projectDir: string, route: FunctionSource, funcDir: string, kept: readonly string[]): Promise<Bundle> {
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
    external: kept.flatMap((name) => [name, `${name}/*`]),
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
    projectModules: Object.entries(result.metafile.inputs)
      .filter(([file]) => !file.startsWith('node_modules/') && fs.existsSync(path.join(projectDir, file)))
      .map(([file, input]) => ({ file, imports: input.imports.map((imported) => imported.original ?? imported.path) })),
  };
}

/** The run-time resolutions of each project module, found once for every function that compiles it in. */
type RunTimeResolutions = Map<string, Promise<string[]>>;

/** What every function of a build shares: the packages kept out of bundles, and what is traced once for all. */
interface BuildShared {
  runtime: string;
  kept: readonly string[];
  traceCache: object;
  resolutions: RunTimeResolutions;
}

/**
 * Copies the packages the bundle loads, as the platform traces them: every file of `node_modules`
 * its imports (static or dynamic) reach, and the files its modules resolve at run time, resolved
 * from the project where npm installed them, whatever folder the output is written to.
 */
async function copyTracedPackages(projectDir: string, bundle: Bundle, funcDir: string, shared: BuildShared): Promise<void> {
  const fromProject = path.join(projectDir, 'package.json');
  const resolved = await Promise.all(
    bundle.projectModules.map((module) => {
      let found = shared.resolutions.get(module.file);
      if (!found) {
        found = filesResolvedAtRunTime(projectDir, module);
        shared.resolutions.set(module.file, found);
      }
      return found;
    }),
  );
  const runTimeFiles = resolved.flat().flatMap((file) => {
    // Resolving the name again in the function needs the package's manifest too.
    const packageDir = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
    return packageDir ? [file, path.join(packageDir, 'package.json')] : [file];
  });
  const { fileList } = await nodeFileTrace([...bundle.files, ...runTimeFiles], {
    base: projectDir,
    ignore: NEVER_TRACED,
    cache: shared.traceCache,
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

async function writeFunction(projectDir: string, outputDir: string, route: FunctionSource, shared: BuildShared): Promise<void> {
  const funcDir = path.join(outputDir, 'functions', 'api', `${route.file}.func`);
  const bundle = await bundleFunction(projectDir, route, funcDir, shared.kept);
  await copyTracedPackages(projectDir, bundle, funcDir, shared);
  const config: FunctionConfigFile = {
    runtime: shared.runtime,
    handler: HANDLER,
    launcherType: 'Nodejs',
    // Every function exports the Web signature, which the Node helpers never touch.
    shouldAddHelpers: false,
    shouldAddSourcemapSupport: true,
    ...FUNCTION_LIMITS,
    maxDuration: LONGER_RUNNING[route.file] ?? FUNCTION_LIMITS.maxDuration,
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
 * `vercel.json`'s rewrites (project-routes.ts). `onWritten` hears of each function as it is done.
 */
export async function writeBuildOutput(
  projectDir: string,
  outputDir: string,
  functions: readonly FunctionSource[],
  onWritten: (route: FunctionSource, written: number) => void = () => undefined,
): Promise<void> {
  for (const owned of ['functions', 'static', 'config.json']) fs.rmSync(path.join(outputDir, owned), { recursive: true, force: true });
  fs.mkdirSync(path.join(outputDir, 'static'), { recursive: true });
  for (const [name, text] of Object.entries(STATIC_FILES)) fs.writeFileSync(path.join(outputDir, 'static', name), text);

  const shared: BuildShared = {
    runtime: nodeRuntime(projectDir),
    kept: [...Object.keys(EXTERNAL_BY_CHOICE), ...packagesWithNativeCode(projectDir)],
    // The functions share most packages and modules: each is analysed once, for all of them.
    traceCache: {},
    resolutions: new Map(),
  };
  let written = 0;
  await eachLimited(functions, 4, async (route) => {
    await writeFunction(projectDir, outputDir, route, shared);
    written += 1;
    onWritten(route, written);
  });

  fs.writeFileSync(path.join(outputDir, 'config.json'), `${JSON.stringify({ version: 3, routes: buildRoutes(functions) }, null, 2)}\n`);
}
