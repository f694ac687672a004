/**
 * The context browser benchmarks run with, inside the Vite-built bench page.
 * It measures what a user feels: time to paint, `requestAnimationFrame`
 * intervals (dropped frames), long tasks (> 50 ms) and JS heap.
 */
import {
  quantile,
  sizeLabel,
  timeRepeated,
  withBaseline,
  type Metric,
  type Timing,
} from '../harness.js';

export interface FrameStats {
  /** Intervals between consecutive animation frames, ms. */
  intervals: number[];
  p50: number;
  p95: number;
  max: number;
  /** Long tasks observed during the measurement. */
  longTasks: number;
  longestTask: number;
}

export interface BrowserBenchContext {
  readonly quick: boolean;
  size(full: number, quick: number): number;
  label(n: number): string;
  time(fn: () => unknown, options?: { repeat?: number; warmup?: number }): Promise<Timing>;
  /** A fresh, attached container of the given size (removed after the bench). */
  container(width?: number, height?: number): HTMLElement;
  /** Resolves after the next frame has been painted. */
  nextPaint(): Promise<void>;
  /** Runs `during` while recording frame intervals and long tasks. */
  frames(during: () => Promise<void>): Promise<FrameStats>;
  /** The idle frame interval baseline (recorded once as `browser.frame`). */
  frameBaseline(): Promise<Metric>;
  /** `performance.memory.usedJSHeapSize` in MB after a GC when available. */
  heapMB(): number | undefined;
  record(metric: Metric, baseline?: Metric): void;
}

export interface BrowserBench {
  name: string;
  run(ctx: BrowserBenchContext): Promise<void>;
}

/**
 * Declares a browser benchmark (a `*.bench.tsx` file under bench/browser).
 *
 * @example
 * export default defineBrowserBench({ name: 'browser.blank-page', async run(ctx) { … } });
 */
export function defineBrowserBench(bench: BrowserBench): BrowserBench {
  return bench;
}

const raf = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/**
 * After the next paint: a rAF callback runs before paint, so wait for it and
 * then for a macrotask, which runs after the frame is presented.
 */
async function nextPaint(): Promise<void> {
  await raf();
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Busy for a few milliseconds under a name a CPU profile shows, so a tool can
 * line the profile's clock up with `performance.now()` (SKEIN_BENCH_PROFILE:
 * run-browser.ts writes each bench's long tasks beside its profile).
 */
function skeinProfileMark(): number {
  const at = performance.now();
  while (performance.now() - at < 3) {
    // spin
  }
  return at;
}

/** Per `frames` call: its mark and long tasks (start and duration), for profile tools. */
interface LongTaskLog {
  skeinFrameRuns?: { mark: number; tasks: { start: number; duration: number }[] }[];
}

async function frames(during: () => Promise<void>): Promise<FrameStats> {
  const intervals: number[] = [];
  const tasks: number[] = [];
  const log: { start: number; duration: number }[] = [];
  ((window as LongTaskLog).skeinFrameRuns ??= []).push({ mark: skeinProfileMark(), tasks: log });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      tasks.push(entry.duration);
      log.push({ start: entry.startTime, duration: entry.duration });
    }
  });
  try {
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    // longtask is Chromium-only; elsewhere the count stays 0.
  }
  let running = true;
  let last = await raf();
  const loop = (t: number) => {
    intervals.push(t - last);
    last = t;
    if (running) requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  try {
    await during();
    await raf();
  } finally {
    running = false;
  }
  await raf();
  observer.disconnect();
  return {
    intervals,
    p50: quantile(intervals, 0.5),
    p95: quantile(intervals, 0.95),
    max: Math.max(0, ...intervals),
    longTasks: tasks.length,
    longestTask: Math.max(0, ...tasks),
  };
}

interface PerformanceWithMemory extends Performance {
  memory?: { usedJSHeapSize: number };
}

export function createBrowserContext(quick: boolean, out: Metric[]): BrowserBenchContext {
  const containers: HTMLElement[] = [];
  let frameMetric: Metric | undefined;
  return {
    quick,
    size: (full, small) => (quick ? small : full),
    label: sizeLabel,
    time: (fn, options) => timeRepeated(fn, options),
    container(width = 1000, height = 800) {
      const el = document.createElement('div');
      el.style.cssText = `width:${width}px;height:${height}px;position:relative;overflow:hidden`;
      document.body.append(el);
      containers.push(el);
      return el;
    },
    nextPaint,
    frames,
    async frameBaseline() {
      if (frameMetric) return frameMetric;
      const stats = await frames(async () => {
        for (let i = 0; i < 60; i++) await raf();
      });
      frameMetric = {
        name: 'browser.frame',
        value: stats.p50,
        unit: 'ms',
        n: stats.intervals.length,
      };
      out.push(frameMetric);
      return frameMetric;
    },
    heapMB() {
      (globalThis as { gc?: () => void }).gc?.();
      const memory = (performance as PerformanceWithMemory).memory;
      return memory ? memory.usedJSHeapSize / 2 ** 20 : undefined;
    },
    record(metric, baseline) {
      out.push(withBaseline(metric, baseline));
    },
  };
}

/** Removes what a bench left in the page. */
export function cleanupPage(): void {
  document.body.replaceChildren();
}
