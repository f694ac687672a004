import { ImportContext } from '../src/core/import/guards.js';
import { readJsonLinesAsync } from '../src/core/import/lines.js';
import { defineBench } from './node.js';

/**
 * `core.import.stream-long-line.<size>`: one JSON line of `size` bytes (a tool
 * result with a big file in it) streamed through `readJsonLinesAsync` in
 * 64 KiB chunks, as `streamImport` and the viewer read a file, as a ratio to
 * `JSON.parse` of the line. The reader used to append every chunk to the line
 * so far and search all of it again: quadratic (a 40 MB line took 11 s).
 */
export default defineBench({
  name: 'core.import.stream-long-line',
  async run(ctx) {
    const size = ctx.size(40_000_000, 4_000_000);
    const line = JSON.stringify({ type: 'tool_result', text: 'y'.repeat(size) });
    const bytes = new TextEncoder().encode(`{"a":1}\n${line}\n{"b":2}\n`);
    const chunk = 64 * 1024;
    async function* chunks() {
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
    }
    const parse = await ctx.time(() => JSON.parse(line) as unknown, { repeat: 5 });
    const read = await ctx.time(
      async () => {
        let n = 0;
        for await (const _ of readJsonLinesAsync(chunks(), new ImportContext({}))) n++;
        if (n !== 3) throw new Error(`expected 3 records, got ${n}`);
      },
      { repeat: 5 },
    );
    const label = `${Math.round(size / 1e6)}mb`;
    const baseline = {
      name: `core.import.stream-long-line.${label}.json-parse`,
      value: parse.median,
      unit: 'ms' as const,
      n: size,
    };
    ctx.record(baseline);
    ctx.record(
      {
        name: `core.import.stream-long-line.${label}`,
        value: read.median,
        unit: 'ms',
        n: size,
        target: '≈ a few × JSON.parse (linear in the line)',
      },
      baseline,
    );
  },
});
