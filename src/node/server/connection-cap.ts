/**
 * The cap on requests a server serves at once, the same in every skein server
 * (the live handlers, `skein view`, the OTLP receiver and its runs API): a
 * request past it is refused with 503 and `Retry-After` before anything of it
 * is read, so a flood of clients costs a counter, not memory.
 * Pure: no Node built-ins (the Fetch handlers run on edge runtimes). Internal.
 */
import type { Refusal } from './options.js';

/**
 * Slots of a server; see {@link createConnectionCap}.
 *
 * @example
 * import type { ConnectionCap } from './connection-cap.js';
 * declare const cap: ConnectionCap;
 * const full = cap.held >= cap.max;
 */
export interface ConnectionCap {
  readonly max: number;
  /** Slots held now. */
  readonly held: number;
  /**
   * A slot, or `null` when all `max` are held. The returned function gives
   * it back; calling it again does nothing, so every exit path may call it.
   */
  take(): (() => void) | null;
  /** The answer to a request refused for want of a slot (a fresh copy each time). */
  busy(): Refusal;
}

/**
 * A cap of `max` slots.
 *
 * @example
 * import { createConnectionCap } from './connection-cap.js';
 * const cap = createConnectionCap(2);
 * const release = cap.take(); // a slot, or null when both are held
 * release?.();
 */
export function createConnectionCap(max: number): ConnectionCap {
  let held = 0;
  return {
    max,
    get held() {
      return held;
    },
    take() {
      if (held >= max) return null;
      held++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held--;
      };
    },
    busy: () => ({
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '5' },
      body: `Too many connections (this server serves ${max} at once); try again later\n`,
    }),
  };
}
