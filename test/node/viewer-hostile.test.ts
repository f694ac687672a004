// The viewer's loader (viewer/load/loader.ts, the page's Web Worker) opening
// each hostile shape (src/core/generate/hostile.ts) as a dropped file: every
// message it posts survives structured cloning (what `postMessage` does, and
// recursively: a value 100,000 deep killed the worker), the events it posts
// parse, and the load ends in `done` (with the timeline) or an explained
// error. In `npm test` one format per shape; every format with `HOSTILE_SIZE=full`.
import { describe, expect, it } from 'vitest';
import { createLoader } from '../../viewer/load/loader.js';
import { batchEvents, type LoadMessage } from '../../viewer/load/protocol.js';
import {
  HOSTILE_FORMATS,
  HOSTILE_SHAPES,
  hostileCase,
  type HostileFormat,
} from '../../src/core/generate/hostile.js';
import type { FormatId } from '../../src/index.js';
import {
  HOSTILE_RUN_FULL,
  HOSTILE_SEED,
  HOSTILE_SIZES,
  hostilePairs,
  prototypeSnapshot,
  replayCommand,
} from '../core/helpers/hostile.js';

const FILE = 'test/node/viewer-hostile.test.ts';

function pairs(): [HostileFormat, (typeof HOSTILE_SHAPES)[number]][] {
  const all = hostilePairs(HOSTILE_FORMATS, HOSTILE_SHAPES);
  if (HOSTILE_RUN_FULL || process.env['HOSTILE']) return all;
  const preferred: FormatId[] = ['otlp', 'claude-code', 'skein', 'defect', 'agex', 'jupyter'];
  return HOSTILE_SHAPES.flatMap((shape) => {
    const format = preferred.find((f) => all.some(([g, s]) => g === f && s === shape));
    return format ? [[format, shape] as [HostileFormat, typeof shape]] : [];
  });
}

describe(`the viewer's loader on hostile files (seed ${HOSTILE_SEED})`, () => {
  it.each(pairs())(
    '%s / %s',
    async (format, shape) => {
      const c = hostileCase(format, shape, HOSTILE_SIZES, HOSTILE_SEED)!;
      const before = prototypeSnapshot();
      const messages: LoadMessage[] = [];
      const problems: string[] = [];
      const loader = createLoader((m) => {
        try {
          messages.push(structuredClone(m));
        } catch (e) {
          problems.push(`a ${m.type} message cannot be posted: ${String(e)}`);
        }
      });
      await loader.handle({
        type: 'open',
        source: { kind: 'file', file: new Blob([c.input]), name: c.filename },
      });
      let events = 0;
      for (const m of messages) if (m.type === 'events') events += batchEvents(m).length;
      const end = [...messages].reverse().find((m) => m.type === 'done' || m.type === 'error');
      if (end === undefined) problems.push(`no done or error (last: ${messages.at(-1)?.type})`);
      else if (end.type === 'done') {
        if (events < Math.min(c.expect.events, 1)) problems.push(`done with ${events} events`);
        if (end.timeline && messages.at(-1)?.type !== 'timeline')
          problems.push('no timeline after done');
      } else if (end.type === 'error' && end.error.code === 'unreadable')
        // What an untyped throw becomes (explain.ts): a crash, not an answer.
        problems.push(`an untyped failure: ${end.error.detail}`);
      if (prototypeSnapshot() !== before) problems.push('a prototype gained or lost a property');
      expect(problems, `${c.name}\nreplay: ${replayCommand(c, 'node', FILE)}`).toEqual([]);
    },
    600_000,
  );
});
