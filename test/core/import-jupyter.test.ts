import { jupyterFormat } from '../../src/core/import/jupyter/jupyter.js';
import { readJsonLines } from '../../src/core/import/lines.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  detectFormat,
  importJupyter,
  isJupyter,
  ImportContext,
  type DisplayEvent,
  type ErrorEvent,
  type Event,
} from '../../src/index.js';
import { describeFixtures, fixturePath } from '../conformance/fixtures.js';
import { checkImport } from './helpers/import-check.js';

const own = (name: string) =>
  readFileSync(new URL(`../fixtures/jupyter/${name}`, import.meta.url), 'utf8');
const notebook = own('agent notebook.ipynb');
const iopub = own('iopub.jsonl');

const byKind = (events: readonly Event[], kind: string) => events.filter((e) => e.event === kind);
const jupyterMeta = (e: Event) => e.metadata?.['jupyter'] as Record<string, unknown> | undefined;

describe('Jupyter notebooks', () => {
  it('maps each cell to a span holding its source and outputs', async () => {
    const r = await checkImport(notebook, 'jupyter', { filename: 'agent notebook.ipynb' });
    const spans = byKind(r.events, 'span_begin');
    expect(spans.map((s) => (s as { name: string }).name)).toEqual([
      'Markdown',
      'In [1]',
      'In [2]',
      'In [3]',
      'raw',
      'In [ ]',
    ]);
    expect(byKind(r.events, 'span_end')).toHaveLength(6);
    expect(r.dump).toMatchSnapshot();
  });

  it('joins multiline strings, keeps bundles and per-MIME metadata, reads outputs without metadata', async () => {
    const { events } = importJupyter(notebook);
    const displays = byKind(events, 'display') as DisplayEvent[];
    const result = displays.find((d) => jupyterMeta(d)?.['output_type'] === 'execute_result')!;
    expect(result.outputs[0]!.data['text/plain']).toBe('   a  b\n0  1  2');
    expect(result.outputs[0]!.data['text/html']).toBe(
      '<table><tr><td>1</td></tr></table><script>alert(1)</script>',
    );
    const json = displays.find((d) => 'application/json' in d.outputs[0]!.data)!;
    expect(json.outputs[0]!.data['application/json']).toEqual({ rows: [1, 2] });
    expect(json.outputs[0]!.metadata).toEqual({ 'application/json': { expanded: true } });
    const png = displays.find((d) => 'image/png' in d.outputs[0]!.data)!;
    expect(png.outputs[0]!.metadata).toBeUndefined();
    const streams = displays.filter((d) => jupyterMeta(d)?.['stream']);
    expect(
      streams.map((d) => [jupyterMeta(d)?.['stream'], d.outputs[0]!.data['text/plain']]),
    ).toEqual([
      ['stdout', 'loading 3 files\ndone\n'],
      ['stderr', '\u001b[33mwarning: cache cold\u001b[0m\n'],
    ]);
  });

  it('turns error outputs into error events, with and without ANSI', () => {
    const [err] = byKind(importJupyter(notebook).events, 'error') as ErrorEvent[];
    expect(err!.error.message).toBe('ZeroDivisionError: division by zero');
    expect(err!.error.traceback).toBe(
      'ZeroDivisionError Traceback (most recent call last)\n----> 1 1/0\nZeroDivisionError: division by zero',
    );
    expect(err!.error.traceback_ansi).toContain('\u001b[0;31m');
  });

  it('keeps unknown output types as info events, with a diagnostic', () => {
    const r = importJupyter(notebook);
    const info = byKind(r.events, 'info');
    expect(info).toHaveLength(1);
    expect((info[0] as { data: unknown }).data).toEqual({
      output_type: 'widget_view',
      model_id: 'w1',
    });
    expect(r.diagnostics.map((d) => d.code)).toContain('jupyter_unknown_output');
  });

  it('reads an output type or key named like a prototype member as data', () => {
    const nb = JSON.parse(notebook) as { cells: { outputs?: Record<string, unknown>[] }[] };
    const outputs = nb.cells.find((c) => c.outputs?.length)!.outputs!;
    outputs.push(
      { output_type: '__proto__', text: 'a' },
      { output_type: 'constructor', text: 'b' },
      JSON.parse(
        '{"output_type":"stream","name":"stdout","text":"c","__proto__":{"x":1}}',
      ) as never,
    );
    const r = importJupyter(JSON.stringify(nb));
    const unknown = r.diagnostics.filter((d) => d.code === 'jupyter_unknown_output');
    expect(unknown.map((d) => d.message).join(' ')).toMatch(/__proto__[\s\S]*constructor/);
    const stream = r.events.find(
      (e) => (jupyterMeta(e)?.['extra'] as Record<string, unknown> | undefined)?.['__proto__'],
    );
    expect(
      Object.getOwnPropertyDescriptor(jupyterMeta(stream!)!['extra'], '__proto__')?.value,
    ).toEqual({
      x: 1,
    });
  });

  it('uses recorded execution times and invents the rest in order, flagged', () => {
    const r = importJupyter(notebook);
    const load = r.events.find(
      (e) => e.event === 'span_begin' && (e as { name: string }).name === 'In [1]',
    )!;
    expect(load.timestamp).toBe('2026-03-01T10:00:00.100Z');
    expect(load.metadata?.['skein_invented']).toBeUndefined();
    const times = r.events.map((e) => Date.parse(e.timestamp));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!);
    const invented = r.diagnostics.filter((d) => d.code === 'value_invented');
    expect(invented).toHaveLength(1);
    expect(
      r.events.some((e) =>
        (e.metadata?.['skein_invented'] as string[] | undefined)?.includes('timestamp'),
      ),
    ).toBe(true);
  });

  it('rejects notebooks older than nbformat 4 with a typed error', () => {
    expect(() =>
      importJupyter({ nbformat: 3, nbformat_minor: 0, cells: [], metadata: {} }),
    ).toThrow(
      expect.objectContaining({ code: 'jupyter_unsupported_nbformat', path: '$.nbformat' }),
    );
  });
});

describe('Jupyter iopub message logs', () => {
  it('pairs messages by parent_header into one span per execution', async () => {
    const r = await checkImport(iopub, 'jupyter', {
      allowDiagnostics: ['jupyter_request_unfinished'],
    });
    expect(byKind(r.events, 'span_begin').map((s) => (s as { name: string }).name)).toEqual([
      'In [1]',
      'In [2]',
    ]);
    expect(r.dump).toMatchSnapshot();
  });

  it('appends stream deltas, updates displays in place, honours clear_output(wait) without losing the cleared output', () => {
    const r = importJupyter(iopub);
    const displays = byKind(r.events, 'display') as DisplayEvent[];
    const text = (d: DisplayEvent) => d.outputs[0]?.data['text/plain'];
    const outputs = displays.filter((d) => jupyterMeta(d)?.['role'] !== 'source');
    expect(outputs.map(text)).toEqual(['0\n1\n2\n', 'progress 100%', '3', undefined, 'epoch 2\n']);
    const cleared = outputs[3]!;
    expect(cleared.outputs).toEqual([]);
    expect(jupyterMeta(cleared)?.['cleared']).toEqual([{ data: { 'text/plain': 'epoch 1\n' } }]);
    expect(byKind(r.events, 'error')).toHaveLength(1);
    expect(r.diagnostics.map((d) => d.code)).toContain('jupyter_request_unfinished');
  });

  it('streams: one line at a time gives, in latest(), the whole-file import', () => {
    const imp = jupyterFormat.incremental({});
    const stream = new EventStream();
    let pendingSeen = false;
    for (const { value, path } of readJsonLines(iopub, new ImportContext())) {
      imp.push(value, path);
      for (const e of imp.drain()) {
        if (e.pending) pendingSeen = true;
        stream.append(e);
      }
    }
    for (const e of imp.end()) stream.append(e);
    expect(pendingSeen).toBe(true);
    expect(stream.latest()).toEqual(importJupyter(iopub).events);
  });

  it('detects a log given as a JSON array of messages as well', () => {
    const array = JSON.stringify(
      iopub
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
    expect(isJupyter(array)).toBe(true);
    // Paths (and so derived uuids) differ: the JSONL has a blank line. The content does not.
    const strip = (events: readonly Event[]) => events.map((e) => ({ ...e, uuid: '' }));
    expect(strip(importJupyter(array).events)).toEqual(strip(importJupyter(iopub).events));
  });
});

describeFixtures('Jupyter: real notebooks (../shared/fixtures/jupyter)', () => {
  for (const name of [
    'nbformat-test4.5.ipynb',
    'nbformat-test4plus.ipynb',
    'nbformat-many_tracebacks.ipynb',
  ]) {
    it(`imports ${name}`, async () => {
      const text = readFileSync(fixturePath('jupyter', name), 'utf8');
      const r = await checkImport(text, 'jupyter', { filename: name });
      expect(r.events.length).toBeGreaterThan(0);
      expect(r.dump).toMatchSnapshot();
    });
  }

  it('does not take the nbformat schema for a notebook', () => {
    const schema = readFileSync(fixturePath('jupyter', 'nbformat.v4.5.schema.json'), 'utf8');
    expect(detectFormat(schema).format).toBeNull();
  });
});
