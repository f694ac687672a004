import { afterEach, describe, expect, it, vi } from 'vitest';
import { Listeners } from '../../src/core/stream/listeners.js';

const tick = () => Promise.resolve();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Listeners', () => {
  it('notifies once per microtask, however many times it was scheduled', async () => {
    const listeners = new Listeners();
    let calls = 0;
    listeners.subscribe(() => calls++);
    listeners.schedule();
    listeners.schedule();
    listeners.schedule();
    expect(calls).toBe(0);
    await tick();
    expect(calls).toBe(1);
    listeners.schedule();
    await tick();
    expect(calls).toBe(2);
  });

  it('schedules nothing while no one listens', () => {
    const queued = vi.spyOn(globalThis, 'queueMicrotask');
    const listeners = new Listeners();
    listeners.schedule();
    expect(queued).not.toHaveBeenCalled();
  });

  it('skips a notification when shouldNotify says nothing changed', async () => {
    let changed = false;
    const listeners = new Listeners(() => changed);
    let calls = 0;
    listeners.subscribe(() => calls++);
    listeners.schedule();
    await tick();
    expect(calls).toBe(0);
    changed = true;
    listeners.schedule();
    await tick();
    expect(calls).toBe(1);
  });

  it('registers the same function twice as two listeners, each removed by its own unsubscribe', async () => {
    const listeners = new Listeners();
    let calls = 0;
    const listener = () => calls++;
    const first = listeners.subscribe(listener);
    const second = listeners.subscribe(listener);
    listeners.schedule();
    await tick();
    expect(calls).toBe(2);
    first();
    first();
    listeners.schedule();
    await tick();
    expect(calls).toBe(3);
    second();
    listeners.schedule();
    await tick();
    expect(calls).toBe(3);
  });

  it('lets a listener unsubscribe others while being notified (the round in progress still calls them)', async () => {
    const listeners = new Listeners();
    const seen: string[] = [];
    let stopB = () => {};
    listeners.subscribe(() => {
      seen.push('a');
      stopB();
    });
    stopB = listeners.subscribe(() => seen.push('b'));
    listeners.schedule();
    await tick();
    listeners.schedule();
    await tick();
    expect(seen).toEqual(['a', 'b', 'a']);
  });

  it('calls every listener when one throws, and rethrows its error in a microtask of its own', async () => {
    const listeners = new Listeners();
    const failure = new Error('listener failed');
    let after = 0;
    listeners.subscribe(() => {
      throw failure;
    });
    listeners.subscribe(() => after++);
    listeners.schedule();
    // From here on, capture what gets queued instead of letting the rethrow
    // escape the test.
    const queued: (() => void)[] = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      queued.push(task);
    });
    await tick();
    expect(after).toBe(1);
    expect(queued).toHaveLength(1);
    expect(() => queued[0]!()).toThrow(failure);
  });

  it('notify() calls the listeners at once, and delivers a scheduled notification owed', async () => {
    const listeners = new Listeners();
    let calls = 0;
    listeners.subscribe(() => calls++);
    listeners.notify();
    expect(calls).toBe(1);
    listeners.schedule();
    listeners.notify();
    expect(calls).toBe(2);
    // The scheduled one was delivered by notify(): the microtask adds nothing.
    await tick();
    expect(calls).toBe(2);
    // A schedule() after it is owed again.
    listeners.schedule();
    await tick();
    expect(calls).toBe(3);
  });

  it('notify() ignores shouldNotify (the caller knows something changed) and isolates a throwing listener', () => {
    const listeners = new Listeners(() => false);
    const failure = new Error('listener failed');
    let after = 0;
    listeners.subscribe(() => {
      throw failure;
    });
    listeners.subscribe(() => after++);
    const queued: (() => void)[] = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      queued.push(task);
    });
    listeners.notify();
    expect(after).toBe(1);
    expect(queued).toHaveLength(1);
    expect(() => queued[0]!()).toThrow(failure);
  });

  it('size counts registrations, so a store can start and stop work with its first and last listener', () => {
    const listeners = new Listeners();
    expect(listeners.size).toBe(0);
    const a = listeners.subscribe(() => {});
    const b = listeners.subscribe(() => {});
    expect(listeners.size).toBe(2);
    a();
    a();
    expect(listeners.size).toBe(1);
    b();
    expect(listeners.size).toBe(0);
  });
});
