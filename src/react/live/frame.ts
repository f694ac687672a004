/**
 * Runs `task` at the next animation frame (a timer of one frame where there
 * are no frames: server rendering, tests, workers): the live adapters' flush,
 * so however many tokens arrive in a frame, the stream gets one version of
 * each changed event and the views one render.
 *
 * @example
 * import { nextFrame } from 'src/react/live/frame.js';
 * const adapter = fromAgUi({ schedule: nextFrame });
 */
export function nextFrame(task: () => void): void {
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => unknown })
    .requestAnimationFrame;
  if (typeof raf === 'function') raf(() => task());
  else setTimeout(task, 16);
}
