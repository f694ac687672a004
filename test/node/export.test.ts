// `skein export`: the single-file page. In Node: the embedded run reads back
// as the same events as the log (whole, one sample, redacted), and the errors
// say what to do. In Chromium, offline, from file://: rows appear, a deep
// link opens its sample and event, find works, hostile agent output stays
// inert, and no request leaves the page.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { importAny, SkeinError } from '../../src/index.js';
import { exportRunHtml, readExportedRun, redactLog, runCli } from '../../src/server.js';

const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
const WAIT = { timeout: 30_000, interval: 100 };
const SECRET = 'sk-live-0123456789abcdefABCDEF';

/** A skein log whose agent output tries everything a page must not do. */
function hostileLog(): string {
  const at = (s: number) => `2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z`;
  const events: Record<string, unknown>[] = [
    {
      event: 'span_begin',
      uuid: 'h-0',
      timestamp: at(0),
      id: 'agent',
      name: 'agent',
      type: 'agent',
    },
  ];
  const payloads = [
    '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>',
    '![pixel](https://evil.example/pixel.png) [click](javascript:window.__pwned=3)',
    `</script><script>window.__pwned=5</script> key ${SECRET}`,
    '<iframe src="https://evil.example/frame"></iframe><link rel=stylesheet href=https://evil.example/x.css>',
  ];
  payloads.forEach((text, i) =>
    events.push({
      event: 'message',
      uuid: `h-${i + 1}`,
      timestamp: at(i + 1),
      span_id: 'agent',
      message_id: `m${i}`,
      role: 'assistant',
      content: [{ type: 'text', text }],
    }),
  );
  events.push({
    event: 'display',
    uuid: 'h-9',
    timestamp: at(9),
    span_id: 'agent',
    outputs: [
      {
        data: {
          'text/html': '<img src="https://evil.example/html.png"><script>parent.__pwned=4</script>',
          'image/svg+xml':
            '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/svg.png"/><script>parent.__pwned=6</script></svg>',
          'text/plain': 'a display',
        },
      },
    ],
  });
  for (let i = 10; i < 60; i++)
    events.push({
      event: 'info',
      uuid: `h-${i}`,
      timestamp: at(i),
      span_id: 'agent',
      source: 'agent',
      data: `step ${i} needle-${i}`,
    });
  events.push({
    event: 'span_end',
    uuid: 'h-99',
    timestamp: at(59),
    id: 'agent',
    span_id: 'agent',
  });
  return `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
}

let viewerDir: string;
let work: string;

beforeAll(async () => {
  viewerDir = mkdtempSync(join(tmpdir(), 'skein-export-viewer-'));
  await build({
    configFile: fileURLToPath(new URL('../../viewer/vite.export.config.ts', import.meta.url)),
    build: { outDir: viewerDir, emptyOutDir: true },
    logLevel: 'silent',
  });
  work = mkdtempSync(join(tmpdir(), 'skein-export-'));
}, 240_000);

afterAll(() => {
  rmSync(viewerDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const enc = (s: string) => new TextEncoder().encode(s);
const json = (events: readonly unknown[]) => JSON.parse(JSON.stringify(events)) as unknown;

describe('exportRunHtml', () => {
  it('embeds the log so that it reads back as the same events (a line format, an .eval)', async () => {
    for (const name of ['acp/session.jsonl', 'inspect/zstd-zip64.eval']) {
      const log = new Uint8Array(readFileSync(fixture(name)));
      const result = await exportRunHtml(log, { filename: name, viewerDir });
      const back = readExportedRun(result.html);
      expect(back.name).toBe(name.split('/')[1]);
      const before = await importAny(log, { filename: name });
      const after = await importAny(back.bytes, { filename: name });
      expect(json(after.events)).toEqual(json(before.events));
      expect(after.samples).toEqual(before.samples);
      expect(result.events).toBe(before.events.length);
    }
  });

  it('one sample: that sample’s canonical events, named after it', async () => {
    const log = new Uint8Array(readFileSync(fixture('inspect/zstd-zip64.eval')));
    const result = await exportRunHtml(log, { filename: 'run.eval', sample: 'two', viewerDir });
    const back = readExportedRun(result.html);
    expect(back.name).toBe('run.eval · sample two');
    const sample = await importAny(log, { filename: 'run.eval', sample: 'two' });
    expect(json((await importAny(back.bytes)).events)).toEqual(json(sample.events));
    expect(result.samples).toBe(1);
    await expect(exportRunHtml(enc(hostileLog()), { sample: 1, viewerDir })).rejects.toMatchObject({
      code: 'cli_one_run',
    });
  });

  it('redacts string values and keys of JSON Lines, a JSON document and an .eval’s members', async () => {
    const page = await exportRunHtml(enc(hostileLog()), {
      filename: 'h.jsonl',
      redact: [/sk-live-[A-Za-z0-9]+/],
      viewerDir,
    });
    expect(page.redactions).toBe(1);
    const text = new TextDecoder().decode(readExportedRun(page.html).bytes);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('key [redacted]');
    expect(page.html).not.toContain(SECRET);

    // A pattern that meets JSON escapes and keys; a __proto__ key stays data.
    const doc = enc('{"a":"x\\"tok-1\\"y","tok-2":[{"__proto__":"tok-3"}]}');
    const red = redactLog(doc, ['tok-\\d']);
    expect(red.count).toBe(3);
    expect(JSON.parse(new TextDecoder().decode(red.bytes))).toEqual({
      a: 'x"[redacted]"y',
      '[redacted]': [JSON.parse('{"__proto__":"[redacted]"}')],
    });

    // An .eval: every JSON member, and it still imports.
    const log = new Uint8Array(readFileSync(fixture('inspect/zstd-zip64.eval')));
    const evalRed = redactLog(log, [/mock\/model/]);
    expect(evalRed.count).toBeGreaterThan(1);
    const imported = await importAny(evalRed.bytes, { filename: 'run.eval' });
    expect(JSON.stringify(imported.events)).not.toContain('mock/model');
    expect(JSON.stringify(imported.events)).toContain('[redacted]');
  });

  it('a page too big says so and points to bundle and --sample; no viewer built says how to build it', async () => {
    const log = enc(hostileLog());
    const error = await exportRunHtml(log, { maxBytes: 100_000, viewerDir }).catch((e) => e);
    expect(error).toBeInstanceOf(SkeinError);
    expect(error.code).toBe('export_too_big');
    expect(error.message).toMatch(/skein bundle/);
    expect(error.message).toMatch(/--sample/);
    await expect(exportRunHtml(log, { viewerDir: work })).rejects.toMatchObject({
      code: 'export_no_viewer',
    });
  });
});

describe('skein export', () => {
  const cli = async (args: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      exportViewerDir: viewerDir,
    });
    return { code, out, err };
  };

  it('writes the page and says what is in it; usage errors exit 1', async () => {
    const log = join(work, 'h.jsonl');
    writeFileSync(log, hostileLog());
    const out = join(work, 'h.html');
    const ok = await cli(['export', log, '-o', out, '--redact', '/SK-LIVE-\\w+/i', '--title', 'T']);
    expect(ok.code).toBe(0);
    expect(ok.err).toMatch(/wrote .*h\.html \([\d.]+ [kM]B; 57 events, 1 redactions\)/);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<title>T</title>');
    expect(html).not.toContain(SECRET);

    expect((await cli(['export', log])).code).toBe(1);
    const bad = await cli(['export', log, '-o', out, '--redact', '(']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--redact takes a regular expression');
    expect((await cli(['export', log, '-o', out, '--sample', '1'])).code).toBe(1);
    const big = await cli(['export', log, '-o', out, '--max-size', '1']);
    expect(big.code).toBe(2);
    expect(big.err).toContain('more than one file should hold (1.0 MiB)');
  });
});

describe('the exported page in Chromium, offline, from file://', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens `url` offline; counts every request that left but the page's own file, and page errors. */
  async function open(url: string) {
    const context = await browser.newContext({
      offline: true,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    const file = url.split('#')[0];
    // A request the policy refused never left (Chromium reports an image's, then its failure, `csp`).
    page.on('request', (r) => {
      if (r.url().split('#')[0] !== file) requests.push(r.url());
    });
    page.on('requestfailed', (r) => {
      const at = requests.indexOf(r.url());
      if (r.failure()?.errorText === 'csp' && at >= 0) requests.splice(at, 1);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    // What the page's policy refused, recorded from the start of the page.
    await page.addInitScript(() => {
      const w = window as unknown as { __blocked: string[] };
      w.__blocked = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__blocked.push(e.blockedURI));
    });
    await page.goto(url);
    return { page, requests, errors, close: () => context.close() };
  }
  const article = (page: Page, uuid: string) => page.locator(`article[data-event-id="${uuid}"]`);

  it('shows the run, finds text, and hostile output stays inert with no request made', async () => {
    const file = join(work, 'hostile.html');
    const { html } = await exportRunHtml(enc(hostileLog()), {
      filename: 'hostile.jsonl',
      title: '</title><script>window.__pwned=7</script>',
      viewerDir,
    });
    writeFileSync(file, html);
    const { page, requests, errors, close } = await open(pathToFileURL(file).href);
    await article(page, 'h-1').waitFor(WAIT);
    expect(await page.title()).toBe('</title><script>window.__pwned=7</script>');
    expect(await page.getByTestId('run-header').textContent()).toContain('</title><script>');

    // Find: the transcript's find bar searches every event, not only the drawn rows.
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('searchbox', { name: 'Find in transcript' }).fill('needle-5');
    await expect
      .poll(() => page.locator('.skein-transcript__find-count').textContent(), WAIT)
      .toMatch(/\b10 matches/);

    // Scroll every row through the window, so each renderer has run.
    await page.getByRole('button', { name: 'Close find' }).click();
    await page.keyboard.press('End');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('script:not([id])').count()).toBe(1);
    expect(requests).toEqual([]);
    // Even code that ran in the page could reach nothing: the policy refuses
    // a fetch, an image, a frame and a stylesheet (and the counter sees none).
    const tried = await page.evaluate(async () => {
      const fetched = await fetch('https://evil.example/f').then(
        () => 'fetched',
        () => 'refused',
      );
      const img = new Image();
      img.src = 'https://evil.example/i.png';
      const frame = document.createElement('iframe');
      frame.src = 'https://evil.example/frame';
      document.body.append(frame);
      await new Promise((r) => setTimeout(r, 300));
      return { fetched, blocked: (window as unknown as { __blocked: string[] }).__blocked };
    });
    expect(tried.fetched).toBe('refused');
    expect(tried.blocked).toEqual(
      expect.arrayContaining([
        'https://evil.example/f',
        'https://evil.example/i.png',
        'https://evil.example', // a frame's report names the origin only
      ]),
    );
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);

  it('a deep link opens its sample and event', async () => {
    const file = join(work, 'run.html');
    const log = new Uint8Array(readFileSync(fixture('inspect/zstd-zip64.eval')));
    writeFileSync(file, (await exportRunHtml(log, { filename: 'run.eval', viewerDir })).html);
    const { page, requests, errors, close } = await open(
      `${pathToFileURL(file).href}#sample=two&event=two-1-e3`,
    );
    await expect
      .poll(() => article(page, 'two-1-e3').getAttribute('data-selected'), WAIT)
      .not.toBeNull();
    expect(
      await page
        .getByRole('table', { name: 'Samples' })
        .getByRole('button', { name: 'two', exact: true })
        .getAttribute('aria-current'),
    ).toBe('true');
    // Selecting another event rewrites the fragment of the file:// URL.
    await article(page, 'two-1-e2').click();
    await expect.poll(() => page.url(), WAIT).toContain('event=two-1-e2');
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
});
