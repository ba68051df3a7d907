import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { nodeFileTrace } from '@vercel/nft';
import ts from 'typescript';

/**
 * What a function's bundle leaves out, to load from its own `node_modules`: the packages the
 * bundler cannot compile in (`packagesWithNativeCode`) and the package files a module resolves by
 * path at run time (`filesResolvedAtRunTime`), both found by the build, and these packages, kept
 * out by choice, each with the reason. Everything else (drizzle-orm, valibot, jose, busboy, …) is
 * compiled into the function.
 */
export const EXTERNAL_BY_CHOICE: Readonly<Record<string, string>> = {
  pg: "the database driver, loaded as the bench's cold-import yardstick (a bare `import('pg')`) is",
  '@neondatabase/serverless': "Neon's driver, loaded only where the database is Neon",
  ws: "the WebSocket Neon's driver connects with",
  cloudinary: 'a large client that only the functions storing images load',
  grammy: 'a large client that only the functions posting to the channel load',
  '@grammyjs/auto-retry': "the bot client's retries, loaded with it",
  resend: 'the mail client, which only the functions sending mail load',
  '@vercel/otel': 'imported only when telemetry is on',
  '@opentelemetry/api': 'imported only when telemetry is on; CommonJS, whose names a bundled chunk would not export',
  '@electric-sql/pglite': 'the embedded database, which no deployed function carries (NEVER_TRACED)',
};

/** Deployed functions have no embedded database (DATABASE_URL is required on the platform). */
export const NEVER_TRACED = ['node_modules/@electric-sql/**'];

interface Manifest {
  gypfile?: boolean;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Where `name` is installed for a package in `from`: the nearest `node_modules` up the tree that holds it. */
function installedFolder(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === path.dirname(dir)) return undefined;
  }
}

function holdsAddon(dir: string): boolean {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .some((entry) => entry.name !== 'node_modules' && (entry.isDirectory() ? holdsAddon(path.join(dir, entry.name)) : entry.name.endsWith('.node')));
}

/** Native code, as npm sees it: a `binding.gyp` (built on install), an install script, or a compiled `.node` addon. */
function hasNativeCode(dir: string, manifest: Manifest): boolean {
  return Boolean(manifest.gypfile || manifest.scripts?.install || manifest.scripts?.preinstall) || fs.existsSync(path.join(dir, 'binding.gyp')) || holdsAddon(dir);
}

/**
 * The installed packages of the project's dependencies that a bundle cannot hold: those with
 * native code, and those that depend on one, since they load it by a path they compute (sharp
 * loads `@img/sharp-<platform>/sharp.node`).
 */
export function packagesWithNativeCode(projectDir: string): string[] {
  const packages = new Map<string, { name: string; native: boolean; dependencies: string[] }>();
  const visit = (name: string, from: string): string | undefined => {
    const dir = installedFolder(name, from);
    if (!dir || packages.has(dir)) return dir;
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
    const entry = { name, native: hasNativeCode(dir, manifest), dependencies: [] as string[] };
    packages.set(dir, entry);
    const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
    entry.dependencies = names.flatMap((dependency) => visit(dependency, dir) ?? []);
    return dir;
  };
  const project = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as Manifest;
  for (const name of Object.keys(project.dependencies ?? {})) visit(name, projectDir);

  // Up from each package with native code, through every package that depends on it.
  const external = new Set([...packages.keys()].filter((dir) => packages.get(dir)!.native));
  for (const dir of external) {
    for (const [dependent, entry] of packages) if (entry.dependencies.includes(dir)) external.add(dependent);
  }
  return [...new Set([...external].map((dir) => packages.get(dir)!.name))].sort();
}

/** A module of the project compiled into a bundle (its path relative to the project), with what it imports. */
export interface ProjectModule {
  file: string;
  imports: string[];
}

/**
 * The files a project module resolves by path at run time (`require.resolve('pkg/file')` on the
 * `require` of `createRequire(import.meta.url)`), which no import names and so no trace of the
 * bundle finds: @vercel/nft follows such calls in the module's own source (`mixedModules`: a
 * `require` in an ES module), compiled by TypeScript, which keeps the name `require` that esbuild
 * renames. What the module imports is not followed here: it is traced from the bundle.
 */
export async function filesResolvedAtRunTime(projectDir: string, module: ProjectModule): Promise<string[]> {
  const reached: string[] = [];
  const source = path.join(projectDir, module.file);
  const { warnings } = await nodeFileTrace([source], {
    base: projectDir,
    mixedModules: true,
    readFile: async (file) => {
      if (file !== source) return fs.existsSync(file) ? fs.promises.readFile(file) : null;
      const code = await fs.promises.readFile(file, 'utf8');
      return ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    },
    resolve: async (id) => {
      reached.push(id);
      return [];
    },
  });
  // A module the tracer cannot read would hide what it resolves.
  const [warning] = warnings;
  if (warning) throw new Error(`${module.file}: ${warning.message}`);
  const { resolve } = createRequire(source);
  return reached.filter((id) => !isBuiltin(id) && !module.imports.includes(id)).map((id) => resolve(id));
}
