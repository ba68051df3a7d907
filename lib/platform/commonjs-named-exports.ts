import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Metafile, Plugin } from 'esbuild';

/**
 * With code splitting, esbuild puts a CommonJS package reached through `import('pkg')` in a chunk
 * of its own whose only export is `default` (`export default require_pkg()`), so
 * `const { name } = await import('pkg')` finds `undefined` under plain Node, which is how the
 * platform loads a function. This module keeps those names, and the build refuses an output that
 * still has such a chunk.
 */

const NAMESPACE = 'commonjs-named-exports';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Node's rule for the format of a file: its extension, else the nearest package.json's `type`. */
function isCommonJs(file: string): boolean {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { type?: string }).type !== 'module';
  }
  return true;
}

/**
 * Sends each `import()` of a bundled CommonJS package through a small ES module that imports the
 * package statically (which esbuild converts with its names intact) and exports each name the
 * package's `module.exports` holds, read by loading it once at build time.
 */
export function commonJsNamedExports(projectDir: string): Plugin {
  const requireFromProject = createRequire(path.join(projectDir, 'package.json'));
  return {
    name: NAMESPACE,
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const resolved = await build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir });
        if (resolved.errors.length > 0 || resolved.external || !isCommonJs(resolved.path)) return undefined;
        return { path: args.path, namespace: NAMESPACE, pluginData: { file: resolved.path, resolveDir: args.resolveDir } };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const { file, resolveDir } = args.pluginData as { file: string; resolveDir: string };
        const names = Object.keys(requireFromProject(file) as object).filter((name) => name !== 'default' && IDENTIFIER.test(name));
        const specifier = JSON.stringify(args.path);
        return {
          resolveDir,
          loader: 'js',
          contents: `import * as commonJs from ${specifier};\nexport const { ${names.join(', ')} } = commonJs;\nexport default commonJs.default;\n`,
        };
      });
    },
  };
}

/**
 * Refuses a function whose output still holds a CommonJS package as a default-only chunk that a
 * dynamic `import()` reaches: under plain Node every named import of it would be `undefined`.
 */
export function assertNoDefaultOnlyDynamicChunks(functionName: string, metafile: Metafile, projectDir: string): void {
  const dynamicTargets = new Set(
    Object.values(metafile.outputs).flatMap((output) => output.imports.filter((item) => item.kind === 'dynamic-import').map((item) => item.path)),
  );
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!dynamicTargets.has(file) || output.exports.length !== 1 || output.exports[0] !== 'default') continue;
    const code = fs.readFileSync(path.resolve(projectDir, file), 'utf8');
    if (/export default require_[\w$]+\(\);/.test(code)) {
      throw new Error(`api/${functionName}: ${path.basename(file)} is a CommonJS package reached by import() whose named exports are lost under plain Node`);
    }
  }
}
