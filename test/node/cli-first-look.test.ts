// What a new user meets first in `skein` on real logs: `info` reads the
// tokens and duration a sample records when its summary lacks them,
// `--sample` for a sample that is not there lists those that are, `replay`
// shows each model call's answer, and `ascii` keeps a timeline in a narrow
// terminal by shortening long lane labels.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/server.js';
import { buildZip } from '../core/helpers/zip-builder.js';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

function write(name: string, data: Uint8Array | string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'skein-cli-look-')), name);
  writeFileSync(file, data);
  return file;
}

const at = (ms: number) => new Date(Date.UTC(2025, 1, 11, 20, 18, 4) + ms).toISOString();

/** A sample's events as inspect_ai writes them: a model call whose `completion` is empty. */
function sampleEvents(id: number) {
  return [
    {
      event: 'sample_init',
      uuid: `s${id}-0`,
      timestamp: at(0),
      sample: { input: 'Is the sky blue?', id },
      state: {},
    },
    {
      event: 'model',
      uuid: `s${id}-1`,
      timestamp: at(2),
      completed: at(320),
      model: 'openai/gpt-4o-mini',
      input: [],
      tools: [],
      tool_choice: 'none',
      config: {},
      output: {
        model: 'gpt-4o-mini',
        choices: [{ message: { role: 'assistant', content: `Yes (${id})` }, stop_reason: 'stop' }],
        usage: { input_tokens: 60, output_tokens: 8, total_tokens: 68 },
      },
    },
    {
      event: 'score',
      uuid: `s${id}-2`,
      timestamp: at(323),
      score: { value: 'C' },
    },
  ];
}

/**
 * An `.eval` in the layout of inspect_ai logs of early 2025: summaries with
 * id, epoch, input, target and scores only, the usage and times in each sample.
 */
function oldEval(ids: number[]): string {
  const header = {
    version: 2,
    status: 'success',
    eval: { task: 'popularity', model: 'openai/gpt-4o-mini', created: at(0) },
    plan: { name: 'plan', steps: [] },
    // Whole seconds, as those logs write them.
    stats: { started_at: '2025-02-11T15:18:04-05:00', completed_at: '2025-02-11T15:18:04-05:00' },
  };
  const summaries = ids.map((id) => ({
    id,
    epoch: 1,
    input: 'Is the sky blue?',
    target: '',
    scores: { match: { value: 'C' } },
  }));
  return write(
    'old.eval',
    buildZip([
      { name: 'header.json', data: JSON.stringify(header), method: 8 },
      { name: 'summaries.json', data: JSON.stringify(summaries), method: 8 },
      ...ids.map((id) => ({
        name: `samples/${id}_epoch_1.json`,
        data: JSON.stringify({
          id,
          epoch: 1,
          input: 'Is the sky blue?',
          target: '',
          messages: [],
          events: sampleEvents(id),
          model_usage: {
            'openai/gpt-4o-mini': { input_tokens: 60, output_tokens: 8, total_tokens: 68 },
          },
        }),
        method: 8,
      })),
    ]),
  );
}

describe('skein info', () => {
  it('reads tokens and duration from the sample when its summary lacks them', async () => {
    const r = await cli('info', oldEval([1, 2]));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\n1 +1 +C +68 +323 ms +ok\n2 +1 +C +68 +323 ms +ok\n$/);
    const json = await cli('info', oldEval([1]), '--json');
    const parsed = JSON.parse(json.out) as { samples: { tokens: number; durationMs: number }[] };
    expect(parsed.samples[0]).toMatchObject({ tokens: 68, durationMs: 323 });
  });
});

describe('--sample for a sample that is not there', () => {
  it('lists the samples that are', async () => {
    const r = await cli('replay', oldEval([3, 1, 2]), '--sample', '99');
    expect(r.code).toBe(3);
    expect(r.err).toContain('No sample with id "99" and epoch 1');
    expect(r.err).toContain('The log has 3 samples: 1, 2, 3.');
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  });
  it('lists the first 20 of hundreds, and says how many more', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    const r = await cli('tree', oldEval(ids), '--sample', '0');
    expect(r.code).toBe(3);
    expect(r.err).toContain(
      `The log has 300 samples: ${ids.slice(0, 20).join(', ')}, … and 280 more`,
    );
    expect(r.err).toContain("'skein info");
    expect(r.err.length).toBeLessThan(600);
  });
});

describe('skein replay', () => {
  it("prints a model call's answer when its completion is empty", async () => {
    const r = await cli('replay', oldEval([1]));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/model openai\/gpt-4o-mini "Yes \(1\)"\n/);
  });
});

describe('skein ascii --width', () => {
  /** A run whose sub-agents have long names (OpenHands-style `general-purpose-research-agent`). */
  function longLabels(): string {
    const lines: unknown[] = [];
    const agents = ['general-purpose-research-agent', 'code-explorer-with-a-long-name', 'short'];
    agents.forEach((name, i) => {
      lines.push({
        event: 'span_begin',
        uuid: `b${i}`,
        timestamp: at(i * 1000),
        id: `a${i}`,
        name,
        type: 'agent',
      });
      lines.push({
        event: 'info',
        uuid: `i${i}`,
        timestamp: at(i * 1000 + 400),
        span_id: `a${i}`,
        data: 'working',
      });
      lines.push({
        event: 'span_end',
        uuid: `e${i}`,
        timestamp: at(i * 1000 + 900),
        id: `a${i}`,
      });
    });
    return write('long.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
  }

  it('shortens long lane labels so the bars keep half the room', async () => {
    const r = await cli('ascii', longLabels(), '--width', '40');
    expect(r.code).toBe(0);
    const rows = r.out.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect([...row]).toHaveLength(38);
      const bar = /│(.*)│/u.exec(row)![1]!;
      // 40 − 6 (tokens) − 4 (separators) = 30 for label and bar: the bar gets 15.
      expect([...bar].length).toBeGreaterThanOrEqual(15);
    }
    expect(r.out).toContain('…');
    expect(r.out).toMatch(/ {2}short +│/);
    // Wide enough for the labels: inspect's layout, no label cut.
    const wide = await cli('ascii', longLabels(), '--width', '120');
    expect(wide.out).not.toContain('…');
    expect(wide.out).toContain('general-purpose-research-agent');
  });
});
