// End to end: `skein view --otlp` started in-process, serving the viewer
// page as `npm run build` builds it; an agent instrumented with the
// OpenTelemetry JS SDK exports to it with the protobuf OTLP exporter, and
// Chromium opens the printed URL: the runs appear as they arrive, newest
// first with their counts, and the one opened grows live.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { runCli } from '../../src/server.js';
import { otelSdk, under } from '../helpers/otel-sdk.js';
import { until } from './helpers/live.js';

const WAIT = { timeout: 30_000, interval: 100 };

let viewerDir: string;
let browser: Browser;
let url: string;
let base: string;
let stop: () => Promise<number>;

beforeAll(async () => {
  viewerDir = mkdtempSync(join(tmpdir(), 'skein-viewer-otlp-'));
  await build({
    configFile: fileURLToPath(new URL('../../viewer/vite.config.ts', import.meta.url)),
    build: { outDir: viewerDir, emptyOutDir: true },
    logLevel: 'silent',
  });
  const abort = new AbortController();
  let out = '';
  let err = '';
  const done = runCli(['view', '--otlp', '--port', '0'], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    signal: abort.signal,
    viewerDir,
  });
  await until(() => out.includes('viewer at') || err !== '', 'skein view --otlp to print its URL');
  if (err !== '') throw new Error(err);
  url = /viewer at (\S+)/.exec(out)![1]!;
  base = /OTEL_EXPORTER_OTLP_ENDPOINT=(\S+)/.exec(out)![1]!;
  stop = () => {
    abort.abort();
    return done;
  };
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stop?.();
  rmSync(viewerDir, { recursive: true, force: true });
});

function exportSpans(exporter: OTLPTraceExporter, spans: ReadableSpan[]) {
  return new Promise<{ code: number }>((done) => exporter.export(spans, done));
}

describe('skein view --otlp', () => {
  it('lists runs as agents export them and follows the one opened live', async () => {
    expect(url).toMatch(/\?runs=\/api\/runs$/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.getByText('Waiting for spans').waitFor(WAIT);

    const sdk = otelSdk('e2e-agent');
    const exporter = new OTLPTraceExporter({ url: `${base}/v1/traces` });
    const root = sdk.tracer.startSpan('invoke_agent first');
    sdk.tracer
      .startSpan(
        'chat gpt-4o',
        {
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': 'gpt-4o',
            'gen_ai.output.messages': JSON.stringify([
              { role: 'assistant', parts: [{ type: 'text', content: 'first answer' }] },
            ]),
          },
        },
        under(root),
      )
      .end();
    root.end();
    expect((await exportSpans(exporter, sdk.spans())).code).toBe(0);

    const runs = page.getByRole('table', { name: 'Runs received' });
    await runs.getByRole('button', { name: 'invoke_agent first' }).click(WAIT);
    expect(new URL(page.url()).searchParams.get('live')).toMatch(/^\/api\/runs\/trace%3A/);
    await page.getByText('first answer').first().waitFor(WAIT);

    // More of the open run arrives: it shows without a reload.
    sdk.tracer
      .startSpan(
        'chat gpt-4o',
        {
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': 'gpt-4o',
            'gen_ai.output.messages': JSON.stringify([
              { role: 'assistant', parts: [{ type: 'text', content: 'a later answer' }] },
            ]),
          },
        },
        under(root),
      )
      .end();
    expect((await exportSpans(exporter, sdk.spans())).code).toBe(0);
    await page.getByText('a later answer').first().waitFor(WAIT);

    // A second run lands above the first, with its counts.
    const second = sdk.tracer.startSpan('invoke_agent second');
    second.end();
    expect((await exportSpans(exporter, sdk.spans())).code).toBe(0);
    await expect
      .poll(() => runs.locator('tbody th').allTextContents(), WAIT)
      .toEqual(['invoke_agent second', 'invoke_agent first']);
    const firstRow = runs.locator('tbody tr').nth(1);
    await expect.poll(() => firstRow.locator('td').nth(1).textContent(), WAIT).toBe('3');
    expect(errors).toEqual([]);
    await exporter.shutdown();
    await page.close();
  }, 120_000);
});
