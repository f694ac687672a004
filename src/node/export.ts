// `skein export`: one self-contained HTML file that shows a run anywhere — from
// `file://`, an email attachment, a chat upload — with no server and no
// network. The viewer is inlined as one classic script and one stylesheet
// (dist/viewer-export/, built by viewer/vite.export.config.ts: module scripts
// and chunk fetches fail from `file://`), the log is embedded gzip-compressed
// and base64-encoded in a non-executable `<script>`, and the page's
// Content-Security-Policy allows its own inline script (by hash) and nothing
// that reaches the network.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SkeinError } from '../core/errors.js';
import { importAny, type FormatId } from '../core/import/index.js';
import { isZip } from '../core/import/zip.js';
import { VERSION } from '../core/version.js';
import { redactLog } from './redact.js';

/** Options of {@link exportRunHtml}. */
export interface ExportOptions {
  /** The log's file name: helps format detection, and names the run when there is no title. */
  filename?: string;
  /** The page's title and the name shown for the run. Default: the file name. */
  title?: string;
  /**
   * One sample of a multi-sample log (inspect_ai), by id: the page then holds
   * that sample's canonical events only (skein JSON Lines). Default: the
   * whole log, every sample, as it is.
   */
  sample?: string | number;
  /** The sample's epoch (with `sample`). Default 1. */
  epoch?: number;
  /**
   * Replaced with `[redacted]` in every string value and key before the log
   * is embedded (regular expressions; a string is one's source). See
   * {@link redactLog}.
   */
  redact?: readonly (RegExp | string)[];
  /** Largest file written, bytes; a bigger one throws `export_too_big`. Default 50 MiB. */
  maxBytes?: number;
  /** The built single-file viewer's folder (`viewer.js`, `viewer.css`). Default: found next to this module. */
  viewerDir?: string;
}

/** What {@link exportRunHtml} made. */
export interface ExportResult {
  /** The page. */
  readonly html: string;
  /** The format of the log it was made from. */
  readonly format: FormatId;
  /** Events of the run the page opens on (the first sample's, for a multi-sample log). */
  readonly events: number;
  /** Samples in the page (1 for a log of one run). */
  readonly samples: number;
  /** Matches replaced by `redact`. */
  readonly redactions: number;
  /** Bytes of the embedded run (compressed, before base64). */
  readonly runBytes: number;
}

/** The default `maxBytes`: past it, mail and chat uploads refuse the file and a page holds it slowly. */
export const EXPORT_MAX_BYTES = 50 * 2 ** 20;

/**
 * The folder of the single-file viewer (`dist/viewer-export`), or `null` when
 * it is not built.
 *
 * @example
 * import { findExportViewerDir } from 'skein/server';
 * const dir = findExportViewerDir(); // '/…/node_modules/skein/dist/viewer-export' or null
 */
export function findExportViewerDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/server.js → dist/viewer-export; dist/chunks/x.js; src/node/x.ts → dist/viewer-export.
  for (const dir of [
    join(here, 'viewer-export'),
    join(here, '..', 'viewer-export'),
    join(here, '..', '..', 'dist', 'viewer-export'),
  ]) {
    if (existsSync(join(dir, 'viewer.js'))) return dir;
  }
  return null;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Script text that cannot end its element early: `</script` and `<!--` (which
 * changes how the parser looks for the end) are written with an escape that
 * means the same inside a string, template or regular expression, the only
 * places a bundle holds them.
 */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** The page's policy: its one script by hash, inline styles, data: and blob: images; no network. */
function contentSecurityPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'media-src data: blob:',
    'font-src data:',
    "connect-src 'none'",
    "worker-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The base name of a path (`/` or `\`). */
function baseName(path: string): string {
  return path.split(/[\\/]/).at(-1) || path;
}

/**
 * Makes the self-contained HTML page of a log (`skein export`): the viewer,
 * the run and a policy that keeps it off the network, in one file that opens
 * from `file://` on its transcript, with deep links (`#sample=…&event=…`).
 * Rejects with the importer's `ImportError` for a log skein cannot read, and
 * with a `SkeinError` `export_too_big` when the page would pass `maxBytes`
 * (a folder of logs shares better as a static site), `export_no_viewer` when
 * the single-file viewer is not built, `cli_one_run` for `sample` on a log of
 * one run.
 *
 * @example
 * import { exportRunHtml, readLogFile } from 'skein/server';
 * import { writeFile } from 'node:fs/promises';
 * const log = await readLogFile('logs/run.eval');
 * const { html } = await exportRunHtml(log, {
 *   filename: 'run.eval',
 *   redact: [/sk-[A-Za-z0-9]{20,}/],
 * });
 * await writeFile('run.html', html);
 */
export async function exportRunHtml(
  log: Uint8Array,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const viewerDir = options.viewerDir ?? findExportViewerDir();
  if (viewerDir === null || !existsSync(join(viewerDir, 'viewer.js')))
    throw new SkeinError('export_no_viewer', join(viewerDir ?? 'dist/viewer-export', 'viewer.js'));
  const filename = options.filename ?? 'run';
  const maxBytes = options.maxBytes ?? EXPORT_MAX_BYTES;

  // Reading it here proves the page will open it, and says what it holds.
  const sampled = options.sample !== undefined || options.epoch !== undefined;
  const imported = await importAny(log, {
    filename,
    ...(options.sample !== undefined ? { sample: options.sample } : {}),
    ...(options.epoch !== undefined ? { epoch: options.epoch } : {}),
  });
  if (sampled && imported.samples === undefined)
    throw new SkeinError('cli_one_run', filename, imported.format);

  let payload = log;
  let name = options.title ?? baseName(filename);
  if (sampled) {
    // One sample: its canonical events, which every skein reader opens.
    const lines = imported.events.map((e) => JSON.stringify(e)).join('\n');
    payload = new TextEncoder().encode(lines === '' ? '' : `${lines}\n`);
    if (options.title === undefined)
      name = `${name} · sample ${String(options.sample ?? imported.samples?.[0]?.id ?? '')}${options.epoch && options.epoch !== 1 ? ` epoch ${options.epoch}` : ''}`;
  }
  const redacted = redactLog(payload, options.redact ?? []);
  payload = redacted.bytes;

  // A zip (`.eval`) is compressed already.
  const zipped = isZip(payload);
  const run = zipped ? payload : new Uint8Array(gzipSync(payload, { level: 6 }));
  const header = JSON.stringify({
    name,
    encoding: zipped ? 'none' : 'gzip',
    size: payload.byteLength,
  }).replace(/</g, '\\u003c');

  const js = inlineScript(readFileSync(join(viewerDir, 'viewer.js'), 'utf8'));
  const css = readFileSync(join(viewerDir, 'viewer.css'), 'utf8').replace(/<\/(style)/gi, '<\\/$1');
  const licencesFile = join(viewerDir, 'THIRD-PARTY-LICENSES.md');
  const licences = existsSync(licencesFile)
    ? readFileSync(licencesFile, 'utf8').replace(/--/g, '- -')
    : '';
  const hash = `sha256-${createHash('sha256').update(js).digest('base64')}`;
  const base64 = Buffer.from(run.buffer, run.byteOffset, run.byteLength).toString('base64');

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(hash)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="skein ${VERSION}">
<title>${escapeHtml(name)}</title>
<style>${css}</style>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="skein-export">${header}</script>
<script type="application/octet-stream" id="skein-run">${base64}</script>
<script>${js}</script>
${licences ? `<!--\n${licences}\n-->\n` : ''}</body>
</html>
`;
  const size = Buffer.byteLength(html);
  if (size > maxBytes) throw new SkeinError('export_too_big', filename, size, maxBytes);
  return {
    html,
    format: imported.format,
    events: imported.events.length,
    samples: sampled ? 1 : (imported.samples?.length ?? 1),
    redactions: redacted.count,
    runBytes: run.length,
  };
}

/**
 * The run a page written by {@link exportRunHtml} carries: its name and the
 * log's bytes as they were embedded (after redaction), which every skein
 * reader opens (`importAny`). Throws `export_not_a_page` for other HTML.
 *
 * @example
 * import { importAny } from 'skein';
 * import { readExportedRun } from 'skein/server';
 * import { readFile } from 'node:fs/promises';
 * const { bytes } = readExportedRun(await readFile('run.html', 'utf8'));
 * const { events } = await importAny(bytes);
 */
export function readExportedRun(html: string): { name: string; bytes: Uint8Array } {
  const header = /<script type="application\/json" id="skein-export">([^<]*)<\/script>/.exec(html);
  const data = /<script type="application\/octet-stream" id="skein-run">([^<]*)<\/script>/.exec(
    html,
  );
  if (!header || !data) throw new SkeinError('export_not_a_page');
  const meta = JSON.parse(header[1]!) as { name: string; encoding: 'gzip' | 'none' };
  const raw = Buffer.from(data[1]!, 'base64');
  const bytes = meta.encoding === 'gzip' ? gunzipSync(raw) : raw;
  return { name: meta.name, bytes: new Uint8Array(bytes) };
}
