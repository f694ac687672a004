import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};
const onClient = () => true;
const onServer = () => false;

/**
 * `false` on the server and during hydration, `true` in every later render
 * (and from the first render of a tree mounted with `createRoot`). What the
 * server cannot know — that a complete array is still being folded in after
 * its first window — is said only once hydrated, so the server HTML and the
 * hydrating render agree. (The one reader of React's server snapshot that
 * differs from the client's: `useStoreSelector` serves both from one.)
 *
 * @example
 * import { useHydrated } from 'src/react/use-hydrated.js';
 * function Feed({ loading }: { loading: boolean }) {
 *   const hydrated = useHydrated();
 *   return <div role="feed" aria-busy={loading && hydrated} />;
 * }
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, onClient, onServer);
}
