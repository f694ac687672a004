// The bench page: registers every browser bench and exposes a tiny API that
// bench/browser/run-browser.ts drives through playwright-core.
import 'skein/styles.css';
import type { Metric } from '../harness.js';
import { cleanupPage, createBrowserContext, type BrowserBench } from './context.js';

const modules = import.meta.glob<{ default: BrowserBench }>('./**/*.bench.tsx', { eager: true });
const benches = Object.values(modules).map((m) => m.default);

declare global {
  interface Window {
    skeinBench: {
      list(): string[];
      run(name: string, quick: boolean): Promise<Metric[]>;
    };
  }
}

window.skeinBench = {
  list: () => benches.map((b) => b.name),
  async run(name, quick) {
    const bench = benches.find((b) => b.name === name);
    if (!bench) throw new Error(`no browser bench named ${name}`);
    const out: Metric[] = [];
    try {
      await bench.run(createBrowserContext(quick, out));
    } finally {
      cleanupPage();
    }
    return out;
  },
};
