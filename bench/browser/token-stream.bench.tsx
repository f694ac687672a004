import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { fromAgUi } from 'skein';
import { Transcript } from 'skein/react';
import { defineBrowserBench } from './context.js';

/** Tokens per second, as a fast model streams them. */
const RATE = 1_000;

/**
 * `browser.adapter.token-stream` (issue 33): a `<Transcript>` fed one
 * message token by token through the AG-UI live adapter, as `useAgUiStream`
 * feeds it (one append per animation frame): 1,000 tokens/s for 30 s (5 s
 * with `--quick`), each token its own task, as a socket delivers them.
 * Recorded: the p95 frame interval and the longest task while streaming
 * (targets < 20 ms and ≤ 50 ms), the tokens/s sustained, and the message's
 * final length.
 */
export default defineBrowserBench({
  name: 'browser.adapter.token-stream',
  async run(ctx) {
    const frame = await ctx.frameBaseline();
    const seconds = ctx.quick ? 5 : 30;
    const tokens = RATE * seconds;
    const adapter = fromAgUi({ schedule: (flush) => requestAnimationFrame(() => flush()) });
    const push = adapter.push;
    push({ type: 'RUN_STARTED', threadId: 't', runId: 'r' });
    push({ type: 'TEXT_MESSAGE_START', messageId: 'q', role: 'user' });
    push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'q', delta: 'Write a long essay.' });
    push({ type: 'TEXT_MESSAGE_END', messageId: 'q' });
    push({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
    const el = ctx.container(900, 800);
    const root = createRoot(el);
    flushSync(() => root.render(<Transcript stream={adapter.stream} openAt="end" />));
    await ctx.nextPaint();
    let sent = 0;
    const t0 = performance.now();
    const stats = await ctx.frames(async () => {
      while (sent < tokens) {
        const due = Math.min(tokens, Math.ceil(((performance.now() - t0) / 1000) * RATE));
        // A paragraph break now and then, as prose has.
        for (; sent < due; sent++)
          push({
            type: 'TEXT_MESSAGE_CONTENT',
            messageId: 'a',
            delta: sent % 120 === 119 ? 'end.\n\n' : `word${sent % 97} `,
          });
        await new Promise((r) => setTimeout(r, 1));
      }
      push({ type: 'TEXT_MESSAGE_END', messageId: 'a' });
      push({ type: 'RUN_FINISHED', threadId: 't', runId: 'r' });
      await new Promise((r) => requestAnimationFrame(r));
      await ctx.nextPaint();
    });
    const took = (performance.now() - t0) / 1000;
    const name = 'browser.adapter.token-stream';
    ctx.record({ name, value: tokens / took, unit: 'events/s', n: tokens, target: '≥ 1,000' });
    ctx.record(
      { name: `${name}.frame-p95`, value: stats.p95, unit: 'ms', n: tokens, target: '< 20 ms' },
      frame,
    );
    ctx.record({
      name: `${name}.longest-task`,
      value: stats.longestTask,
      unit: 'ms',
      n: tokens,
      target: '≤ 50 ms',
    });
    ctx.record({ name: `${name}.long-tasks`, value: stats.longTasks, unit: 'count', n: tokens });
    ctx.record({
      name: `${name}.versions`,
      value: adapter.stream.length,
      unit: 'count',
      n: tokens,
    });
    root.unmount();
    el.remove();
  },
});
