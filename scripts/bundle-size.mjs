// What an app pays for skein: build a tiny app with Vite (production, minified,
// as `vite build` does), or with esbuild, and sum the gzip size of its chunks. "Initial" is the
// entry chunk plus every chunk it imports statically — what the browser must
// load before the page runs; "total" adds the chunks loaded on demand
// (dynamic `import()`, e.g. the markdown renderer). Used by the bundle bench
// (bench/bundle.bench.ts) and the packed-tarball test (test/package/).
import { relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * @typedef {object} BundleSize
 * @property {number} initial gzip bytes of the entry chunk and its static imports
 * @property {number} total gzip bytes of every JS chunk
 * @property {number} chunks number of JS chunks
 * @property {string[]} lazy file names of the chunks not in the initial set
 * @property {Record<string, number>} named gzip bytes of the chunks of each `groups` name (see {@link measureApp})
 */

/**
 * Sizes of a Rollup/Rolldown output (`build({ build: { write: false } })`).
 *
 * @param {{ output: Array<{ type: string, fileName: string, isEntry?: boolean, imports?: string[], code?: string }> }} result
 * @returns {BundleSize}
 */
export function bundleSize(result) {
  const chunks = new Map();
  for (const item of result.output) {
    if (item.type === 'chunk') chunks.set(item.fileName, item);
  }
  const initial = new Set();
  const visit = (name) => {
    if (initial.has(name) || !chunks.has(name)) return;
    initial.add(name);
    for (const dep of chunks.get(name).imports ?? []) visit(dep);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
  const gz = (chunk) => gzipSync(chunk.code, { level: 9 }).length;
  let initialBytes = 0;
  let totalBytes = 0;
  const named = {};
  for (const chunk of chunks.values()) {
    const size = gz(chunk);
    totalBytes += size;
    if (initial.has(chunk.fileName)) initialBytes += size;
    if (chunk.name) named[chunk.name] = (named[chunk.name] ?? 0) + size;
  }
  return {
    initial: initialBytes,
    total: totalBytes,
    chunks: chunks.size,
    lazy: [...chunks.keys()].filter((name) => !initial.has(name)),
    named,
  };
}

/**
 * Builds an app with Vite in production mode and returns its sizes: `entry`
 * (a .tsx file) as the only input, or the app's index.html when omitted.
 * Written to `outDir` when given (to serve it), else kept in memory.
 * `groups` (`[{ name, test }]`) puts the modules whose id matches `test`
 * into a chunk of their own, without their dependencies, so `named[name]` is
 * the gzip size of just that code, minified as in the app (e.g. a
 * component's own modules apart from the core it shares).
 *
 * @param {{ root: string, entry?: string, outDir?: string, alias?: unknown, plugins?: unknown[], groups?: Array<{ name: string, test: RegExp }> }} options
 * @returns {Promise<BundleSize>}
 */
export async function measureApp({ root, entry, outDir, alias, plugins = [], groups }) {
  const { build } = await import('vite');
  // Production React whatever NODE_ENV says: Vitest sets it to `test`, and
  // Vite and the React plugin would then build React's development code and
  // JSX (jsxDEV).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let result;
  try {
    result = await build({
      configFile: false,
      root,
      mode: 'production',
      logLevel: 'silent',
      plugins,
      resolve: alias ? { alias } : {},
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        write: outDir !== undefined,
        ...(outDir !== undefined ? { outDir, emptyOutDir: true } : {}),
        target: 'es2022',
        minify: true,
        modulePreload: false,
        rolldownOptions: {
          ...(entry ? { input: entry } : {}),
          ...(groups
            ? { output: { codeSplitting: { groups, includeDependenciesRecursively: false } } }
            : {}),
        },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return bundleSize(Array.isArray(result) ? result[0] : result);
}

/**
 * The same measure with esbuild, the other bundler apps commonly use (alone,
 * or inside tsup, Bun's and others' builds): `entry` bundled for the browser
 * (minified, code split at dynamic `import()`, production React), in memory.
 * Stylesheets imported from JS are left out (only JS is counted).
 *
 * @param {{ root: string, entry: string }} options
 * @returns {Promise<BundleSize>}
 */
export async function measureAppEsbuild({ root, entry }) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'empty' },
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = new Map(result.outputFiles.map((f) => [f.path, f.text]));
  const entryPoint = relative(root, resolve(root, entry)).split(sep).join('/');
  const outputs = result.metafile.outputs;
  const byName = new Map(Object.keys(outputs).map((name) => [name, outputs[name]]));
  const absolute = (name) => resolve(root, name);
  return bundleSize({
    output: [...byName].flatMap(([name, out]) =>
      name.endsWith('.js')
        ? [
            {
              type: 'chunk',
              fileName: name,
              // (A chunk split off at a dynamic `import()` names its module
              // as its entry point too: only the app's entry starts the page.)
              isEntry: out.entryPoint === entryPoint,
              imports: out.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
              code: code.get(absolute(name)) ?? '',
            },
          ]
        : [],
    ),
  });
}

/** Bytes as kB with two decimals. */
export const kB = (bytes) => Math.round((bytes / 1024) * 100) / 100;
