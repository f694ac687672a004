// `skein bundle`: a folder of logs as a static site — the viewer page, the
// logs, and the listing `skein view <dir>` would serve, precomputed — that any
// static host serves (object storage, GitHub Pages, a plain web server) and
// that opens like `skein view <dir>` with no server process of ours.
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SkeinError } from '../core/errors.js';
import { listLogs } from './log-list.js';
import { findViewerDir, VIEWER_CSP } from './view-server.js';

/** Options of {@link bundleSite}. */
export interface BundleOptions {
  /** The built viewer page's folder (`dist/viewer`). Default: found next to this module. */
  viewerDir?: string;
}

/** What {@link bundleSite} wrote. */
export interface BundleResult {
  /** Logs copied (files no format reads are left out). */
  readonly logs: number;
  /** Files in the folder that no format reads, by name. */
  readonly skipped: readonly string[];
}

/** A listing URL path: each segment of the name encoded, under `logs/`. */
function logUrl(name: string): string {
  return `logs/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Writes the static site of the logs in `dir` (those directly in it and in its
 * direct subfolders, as `skein view` lists them) to `out`: the viewer page as
 * `viewer.html` and its assets, the logs under `logs/`, the listing as
 * `list.json` (the `GET /api/list` document, with relative URLs), and an
 * `index.html` that opens `viewer.html?list=list.json`. Rejects with
 * `export_no_viewer` when the viewer page is not built.
 *
 * @example
 * import { bundleSite } from 'skein/server';
 * const { logs } = await bundleSite('logs/', 'site/');
 * // upload site/ to any static host; its index.html lists the logs
 */
export async function bundleSite(
  dir: string,
  out: string,
  options: BundleOptions = {},
): Promise<BundleResult> {
  const viewerDir = options.viewerDir ?? findViewerDir();
  if (viewerDir === null || !existsSync(join(viewerDir, 'index.html')))
    throw new SkeinError('export_no_viewer', join(viewerDir ?? 'dist/viewer', 'index.html'));
  const root = resolve(dir);
  const entries = await listLogs(root);
  await mkdir(out, { recursive: true });
  await cp(viewerDir, out, { recursive: true });
  // The page under another name: index.html only sends the browser to it.
  const page = readFileSync(join(viewerDir, 'index.html'), 'utf8');
  // A static host sends no headers of ours: the policy goes in the page.
  const csp = VIEWER_CSP.split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .join('; ');
  await writeFile(
    join(out, 'viewer.html'),
    page.replace(
      /<head>/i,
      `<head>\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`,
    ),
  );
  await writeFile(
    join(out, 'index.html'),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="0; url=viewer.html?list=list.json">
<title>skein: ${basename(root).replace(/[&<>"']/g, '')}</title>
</head>
<body><p><a href="viewer.html?list=list.json">Open the logs</a></p></body>
</html>
`,
  );
  const logs = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    if (entry.format === null) {
      skipped.push(entry.name);
      continue;
    }
    const target = join(out, 'logs', ...entry.name.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(root, ...entry.name.split('/')), target);
    logs.push({
      name: entry.name,
      url: logUrl(entry.name),
      format: entry.format,
      size: entry.size,
      mtime: entry.mtime.toISOString(),
    });
  }
  await writeFile(join(out, 'list.json'), `${JSON.stringify({ root: basename(root), logs })}\n`);
  return { logs: logs.length, skipped };
}
