import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { kB, measureApp } from '../scripts/bundle-size.mjs';
import { skeinAliases } from '../scripts/skein-aliases.mjs';
import type { Metric } from './harness.js';
import { defineBench } from './node.js';

const root = fileURLToPath(new URL('./bundle-app/', import.meta.url));

/**
 * `bundle.<app>.initial` (issue 16, "Pay for what you use"): what a tiny app
 * that mounts one bare skein component adds to the gzip size of its initial
 * JavaScript (the entry chunk and its static imports), over the same app
 * without skein (`bundle.blank.initial`: React and a root). Built with Vite in
 * production mode from the sources (bench/bundle-app/*.tsx import `skein/react`
 * by name, as users do). `bundle.<app>.total` adds the chunks loaded on demand
 * (markdown, the HTML sanitizer); it is not a target, it shows what moved out.
 * `bundle.swimlane.own` (issue 18, ≤ 15 kB): the swimlane's own code
 * (`src/core/swimlane/`, `src/react/swimlane/`), split into a chunk of its
 * own in a second build of the same app, without the core it shares with
 * the other views (timeline, events, list engine, selection store).
 * Sizes do not vary between runs, so `--quick` measures the same thing.
 */
export default defineBench({
  name: 'bundle',
  async run(ctx) {
    const build = (name: string) =>
      measureApp({ root, entry: `${root}${name}.tsx`, alias: skeinAliases, plugins: [react()] });
    const blank = await build('blank');
    const base: Metric = { name: 'bundle.blank.initial', value: kB(blank.initial), unit: 'kB' };
    ctx.record(base);
    for (const [name, target] of [
      ['transcript', '≤ 45 kB'],
      ['display', '≤ 45 kB'],
      // The swimlane with the core it needs (timeline, layout, list engine);
      // issue 18 asks ≤ 15 kB for the swimlane's own code.
      ['swimlane', 'reported'],
    ] as const) {
      const size = await build(name);
      ctx.record({
        name: `bundle.${name}.initial`,
        value: kB(size.initial - blank.initial),
        unit: 'kB',
        target,
      });
      ctx.record({ name: `bundle.${name}.total`, value: kB(size.total - blank.total), unit: 'kB' });
    }
    const own = await measureApp({
      root,
      entry: `${root}swimlane.tsx`,
      alias: skeinAliases,
      plugins: [react()],
      groups: [{ name: 'swimlane-own', test: /[\\/]src[\\/](core|react)[\\/]swimlane[\\/]/ }],
    });
    const ownBytes = own.named['swimlane-own'];
    if (ownBytes === undefined) throw new Error('bundle.swimlane.own: no swimlane chunk was split');
    ctx.record({
      name: 'bundle.swimlane.own',
      value: kB(ownBytes),
      unit: 'kB',
      target: '≤ 15 kB',
    });
  },
});
