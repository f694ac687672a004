// The viewer's timeline built by the loader (issue 22): what the page rebuilds
// from the loader's `timeline` message, in slices, must be the timeline the
// swimlane would have built from the page's own events (its tree feed's).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildTimeline,
  EventStream,
  generateRun,
  spanEndTime,
  spanStartTime,
  timelineDump,
  TimelineDecoder,
  timelineWireOf,
  type Event,
  type Timeline,
} from '../../src/index.js';
import { inspectJsonLog } from '../../bench/inspect-log.js';
import { inThreadPort, openLog } from '../../viewer/load/client.js';
import { createLoader } from '../../viewer/load/loader.js';
import type { LoadMessage } from '../../viewer/load/protocol.js';

/** The events as the page gets them: JSON text, parsed, appended to a stream. */
function pageStream(events: readonly Event[]): EventStream {
  const stream = new EventStream();
  for (const e of JSON.parse(JSON.stringify(events)) as Event[]) stream.append(e);
  stream.close();
  return stream;
}

/** What the swimlane builds on the page without the loader's timeline. */
const pageTimeline = (stream: EventStream) => buildTimeline(buildEventTree(stream.latest()).events);

/** Decodes in the smallest slices: every step's deadline has passed. */
function decodeSliced(events: readonly Event[], stream: EventStream) {
  const decoder = new TimelineDecoder(timelineWireOf(events), stream.toArray());
  let steps = 1;
  let timeline: Timeline | null;
  while ((timeline = decoder.step(Number.NEGATIVE_INFINITY)) === null) steps++;
  return { timeline, steps };
}

describe('the timeline built by the loader', () => {
  it('rebuilds, in slices, the timeline the page would build (pending versions, branches, parallel agents)', () => {
    for (const seed of [1, 2, 3]) {
      const events = generateRun({ seed, events: 3_000, pendingRate: 0.3, parallelism: 4 });
      const stream = pageStream(events);
      const { timeline, steps } = decodeSliced(events, stream);
      const expected = pageTimeline(stream);
      expect(timelineDump(timeline)).toEqual(timelineDump(expected));
      // The page's own event objects, not copies.
      const first = timeline.root.content.find((i) => i.type === 'event');
      if (first?.type === 'event') expect(stream.toArray()).toContain(first.event);
      expect(timeline.init?.spanType).toBe(expected.init?.spanType);
      expect(timeline.scorers?.id).toBe(expected.scorers?.id);
      expect(spanStartTime(timeline.root)).toBe(spanStartTime(expected.root));
      expect(spanEndTime(timeline.root)).toBe(spanEndTime(expected.root));
      // At least one slice per 512 items, so a 300k-event run never holds the page.
      expect(steps).toBeGreaterThan(stream.length / 512);
    }
  });

  it('rebuilds the timeline of a real inspect log', () => {
    const path = '../shared/fixtures/inspect_ai/logs/2025-05-12T20-27-36-04-00_browser.json';
    if (!existsSync(path)) {
      console.log(`skipped: ${path} is absent`);
      return;
    }
    const log = JSON.parse(readFileSync(path, 'utf8')) as { samples: { events: Event[] }[] };
    // The raw events lack canonical uuids on some kinds; the generator's do not.
    const events = log.samples[0]!.events.filter((e) => typeof e.uuid === 'string');
    const stream = pageStream(events);
    expect(timelineDump(decodeSliced(events, stream).timeline)).toEqual(
      timelineDump(pageTimeline(stream)),
    );
  });

  it('is posted after done, and the page session holds it once rebuilt', async () => {
    const bytes = inspectJsonLog(
      generateRun({ seed: 4, events: 2_000, pendingRate: 0 }),
    ) as Uint8Array<ArrayBuffer>;
    const messages: LoadMessage[] = [];
    const loader = createLoader((m) => messages.push(m));
    await loader.handle({
      type: 'open',
      source: { kind: 'file', file: new Blob([bytes]), name: 'log.json' },
    });
    const kinds = messages.map((m) => m.type).filter((k) => k !== 'progress');
    expect(kinds.slice(-2)).toEqual(['done', 'timeline']);
    const done = messages.find((m) => m.type === 'done');
    expect(done?.type === 'done' && done.timeline).toBe(true);

    const session = openLog(
      { kind: 'file', file: new Blob([bytes]), name: 'log.json' },
      { createPort: inThreadPort },
    );
    const seen: unknown[] = [];
    const timeline = await new Promise<Timeline>((resolve, reject) => {
      const check = () => {
        const s = session.getSnapshot();
        if (seen[seen.length - 1] !== s.timeline) seen.push(s.timeline);
        if (s.phase === 'error') reject(new Error(s.error?.title));
        if (s.timeline !== null && s.timeline !== 'pending') resolve(s.timeline);
      };
      session.subscribe(check);
      check();
    });
    expect(seen).toContain('pending');
    expect(timelineDump(timeline)).toEqual(
      timelineDump(pageTimeline(session.getSnapshot().stream)),
    );
    session.dispose();
  });
});
