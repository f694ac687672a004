// createTimeScale: time space ↔ view space, compressed idle gaps, ticks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTimeScale, formatRelativeTime } from '../../src/core/swimlane/time-scale.js';
import type { TimeSegment } from '../../src/core/swimlane/layout.js';

const T0 = Date.UTC(2026, 5, 10, 18, 0, 0);
const MIN = 60_000;

/** 0–10 min active, 10–70 min idle, 70–80 min active. */
const gapped: TimeSegment[] = [
  { timeStart: T0, timeEnd: T0 + 10 * MIN, idle: false },
  { timeStart: T0 + 10 * MIN, timeEnd: T0 + 70 * MIN, idle: true },
  { timeStart: T0 + 70 * MIN, timeEnd: T0 + 80 * MIN, idle: false },
];

describe('createTimeScale', () => {
  it('maps a plain domain linearly', () => {
    const scale = createTimeScale({ domain: [T0, T0 + 1000], range: [100, 600] });
    expect(scale(T0)).toBe(100);
    expect(scale(T0 + 500)).toBe(350);
    expect(scale(T0 + 1000)).toBe(600);
    expect(scale.invert(350)).toBe(T0 + 500);
  });

  it('extrapolates outside the domain, both ways', () => {
    const scale = createTimeScale({ domain: [T0, T0 + 1000], range: [0, 100] });
    expect(scale(T0 - 100)).toBeCloseTo(-10);
    expect(scale(T0 + 1100)).toBeCloseTo(110);
    expect(scale.invert(-10)).toBeCloseTo(T0 - 100);
    expect(scale.invert(110)).toBeCloseTo(T0 + 1100);
  });

  it('gives active segments the range in proportion to their duration', () => {
    const scale = createTimeScale({ segments: gapped, range: [0, 210], idleWidth: 10 });
    expect(scale(T0 + 10 * MIN)).toBe(100);
    expect(scale(T0 + 40 * MIN)).toBe(105); // halfway through the gap
    expect(scale(T0 + 70 * MIN)).toBe(110);
    expect(scale(T0 + 80 * MIN)).toBe(210);
  });

  it('collapses gaps to nothing by default', () => {
    const scale = createTimeScale({ segments: gapped, range: [0, 200] });
    expect(scale(T0 + 10 * MIN)).toBe(100);
    expect(scale(T0 + 40 * MIN)).toBe(100);
    expect(scale(T0 + 70 * MIN)).toBe(100);
    expect(scale.invert(100)).toBe(T0 + 10 * MIN); // the active side wins at the edge
  });

  it('never lets gaps take more than half the range', () => {
    const scale = createTimeScale({ segments: gapped, range: [0, 100], idleWidth: 500 });
    const gap = scale.pieces[1]!;
    expect(gap.viewEnd - gap.viewStart).toBe(50);
    expect(scale(T0 + 80 * MIN)).toBe(100);
  });

  it('round-trips: invert(scale(t)) ≈ t', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 80 * MIN }),
        fc.integer({ min: 0, max: 20 }),
        fc.boolean(),
        (offset, idleWidth, reversed) => {
          const range: [number, number] = reversed ? [800, 0] : [0, 800];
          const scale = createTimeScale({ segments: gapped, range, idleWidth });
          const t = T0 + offset;
          const inGap = offset > 10 * MIN && offset < 70 * MIN;
          if (inGap && idleWidth === 0) return; // a zero-width gap cannot be inverted
          expect(Math.abs(scale.invert(scale(t)) - t)).toBeLessThan(1);
        },
      ),
    );
  });

  it('is monotonic', () => {
    const scale = createTimeScale({ segments: gapped, range: [0, 800], idleWidth: 8 });
    let last = -Infinity;
    for (let t = T0 - MIN; t <= T0 + 81 * MIN; t += 17_000) {
      const x = scale(t);
      expect(x).toBeGreaterThanOrEqual(last);
      last = x;
    }
  });

  it('rejects non-finite ranges and domains', () => {
    expect(() => createTimeScale({ domain: [T0, T0 + 1], range: [0, Number.NaN] })).toThrow(
      expect.objectContaining({ code: 'invalid_option', path: '$.range' }),
    );
    expect(() => createTimeScale({ domain: [T0, Infinity], range: [0, 1] })).toThrow(/domain/);
  });

  it('maps a zero-length domain to the range start', () => {
    const scale = createTimeScale({ domain: [T0, T0], range: [10, 90] });
    expect(scale(T0)).toBe(10);
    expect(scale.invert(50)).toBe(T0);
    expect(scale.ticks(5).map((t) => t.label)).toEqual(['0s']);
  });
});

describe('ticks', () => {
  it('picks nice steps and labels relative time', () => {
    const scale = createTimeScale({ domain: [T0, T0 + 2 * MIN], range: [0, 600] });
    const ticks = scale.ticks(4);
    expect(ticks.map((t) => t.label)).toEqual(['0s', '30s', '1m', '1m 30s', '2m']);
    expect(ticks.map((t) => t.viewX)).toEqual([0, 150, 300, 450, 600]);
    expect(ticks[1]!.offsetMs).toBe(30_000);
  });

  it('counts active time for the step and marks where activity resumes', () => {
    const scale = createTimeScale({ segments: gapped, range: [0, 800], idleWidth: 10 });
    const labels = scale.ticks(4).map((t) => t.label);
    // 20 active minutes / 4 → 5 min steps; the gap ends at 1h 10m.
    expect(labels).toEqual(['0s', '5m', '10m', '1h 10m', '1h 15m', '1h 20m']);
  });

  it('uses sub-second steps for short runs', () => {
    const scale = createTimeScale({ domain: [T0, T0 + 2000], range: [0, 100] });
    expect(scale.ticks(4).map((t) => t.label)).toEqual(['0s', '500ms', '1s', '1.5s', '2s']);
  });

  it('keeps ticks strictly increasing in time and view', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 30 }),
        (count, idleWidth) => {
          const ticks = createTimeScale({ segments: gapped, range: [0, 900], idleWidth }).ticks(
            count,
          );
          for (let i = 1; i < ticks.length; i++) {
            expect(ticks[i]!.time).toBeGreaterThan(ticks[i - 1]!.time);
            expect(ticks[i]!.viewX).toBeGreaterThanOrEqual(ticks[i - 1]!.viewX);
          }
        },
      ),
    );
  });
});

describe('formatRelativeTime', () => {
  it.each([
    [0, '0s'],
    [30_000, '30s'],
    [60_000, '1m'],
    [90_000, '1m 30s'],
    [3_900_000, '1h 5m'],
    [3_600_000, '1h'],
    [97_200_000, '1d 3h'],
    [-30_000, '-30s'],
  ])('%i ms → %s', (ms, label) => {
    expect(formatRelativeTime(ms)).toBe(label);
  });

  it('prints decimals of a second for sub-second steps', () => {
    expect(formatRelativeTime(1500, 500)).toBe('1.5s');
    expect(formatRelativeTime(250, 50)).toBe('250ms');
    expect(formatRelativeTime(1230, 10)).toBe('1.23s');
  });
});
