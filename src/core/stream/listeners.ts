/**
 * The listener side of every skein store (`subscribe`/`getSnapshot`): `subscribe` for
 * `useSyncExternalStore`, and two ways to tell the listeners: `notify()` at
 * once (a store whose readers must see a change before the call that made it
 * returns: the selection, the list engine's next frame) or `schedule()`, at
 * most once per microtask however many changes it covers (a log taking a
 * burst of appends). Internal: every store exposes only `subscribe`.
 */
export class Listeners {
  /** Copy-on-write, so a listener may (un)subscribe while we iterate. */
  #listeners: readonly (() => void)[] = [];
  /** A notification is owed: `schedule()` queued one that no `notify()` has delivered yet. */
  #due = false;
  readonly #shouldNotify: () => boolean;

  /**
   * `shouldNotify` runs when a scheduled notification is due; returning
   * `false` skips it (the owner found that nothing changed after all).
   */
  constructor(shouldNotify: () => boolean = () => true) {
    this.#shouldNotify = shouldNotify;
  }

  /** How many listeners are registered (a store may start work only while someone listens). */
  get size(): number {
    return this.#listeners.length;
  }

  /**
   * Registers `listener`; returns the function that unregisters it (calling
   * it twice is harmless).
   */
  subscribe(listener: () => void): () => void {
    // A per-registration token, so subscribing the same function twice gives
    // two registrations and each unsubscribe removes exactly its own.
    const entry = () => listener();
    this.#listeners = [...this.#listeners, entry];
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.#listeners = this.#listeners.filter((l) => l !== entry);
    };
  }

  /**
   * Calls the listeners now, in the caller's turn. It also delivers a
   * notification `schedule()` still owes (that one is then dropped).
   */
  notify(): void {
    this.#due = false;
    this.#call();
  }

  /** Calls the listeners in a microtask, once for every call made before it runs. */
  schedule(): void {
    if (this.#due || this.#listeners.length === 0) return;
    this.#due = true;
    queueMicrotask(this.#scheduled);
  }

  readonly #scheduled = (): void => {
    if (!this.#due) return;
    this.#due = false;
    if (this.#shouldNotify()) this.#call();
  };

  #call(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        // One failing listener must not starve the others; its error still
        // surfaces, as an uncaught error of its own microtask.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
