/**
 * The listener side of a core store (STYLE §3): `subscribe` for
 * `useSyncExternalStore`, and at most one notification per microtask however
 * many changes it covers. Shared by `EventStream` and the incremental tree
 * builder. Internal.
 */
export class Listeners {
  /** Copy-on-write, so a listener may (un)subscribe while we iterate. */
  #listeners: readonly (() => void)[] = [];
  #scheduled = false;
  readonly #shouldNotify: () => boolean;

  /**
   * `shouldNotify` runs when a scheduled notification is due; returning
   * `false` skips it (the owner found that nothing changed after all).
   */
  constructor(shouldNotify: () => boolean = () => true) {
    this.#shouldNotify = shouldNotify;
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

  /** Calls the listeners in a microtask, once for every call made before it runs. */
  schedule(): void {
    if (this.#scheduled || this.#listeners.length === 0) return;
    this.#scheduled = true;
    queueMicrotask(this.#notify);
  }

  readonly #notify = (): void => {
    this.#scheduled = false;
    if (!this.#shouldNotify()) return;
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
  };
}
