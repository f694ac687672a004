import { useEffect, useState } from 'react';
import {
  connectEventStream,
  type ConnectEventStreamOptions,
  type LiveConnection,
  type LiveConnectionSnapshot,
} from '../core/live/connect.js';
import { useStoreSelector } from './use-store-selector.js';

const closedStore = {
  getSnapshot: () => null,
  subscribe: () => () => {},
};

/**
 * Connects to a `skein/server` live endpoint for as long as the component is
 * mounted (and `url` stays the same) and returns the connection's status
 * snapshot: `stream` to render, `status` (`connecting` / `live` /
 * `reconnecting` / `closed`) and the last `error`. `null` before the first
 * effect runs (and during server rendering): nothing connects on the server.
 *
 * `options` are read when the connection opens; change `url` (or remount) to
 * apply new ones.
 *
 * @example
 * function Run({ url }: { url: string }) {
 *   const live = useEventStream(url);
 *   if (live === null) return null;
 *   return (
 *     <>
 *       <p role="status">{live.status}</p>
 *       <Transcript stream={live.stream} />
 *     </>
 *   );
 * }
 */
export function useEventStream(
  url: string,
  options?: ConnectEventStreamOptions,
): LiveConnectionSnapshot | null {
  const [connection, setConnection] = useState<LiveConnection | null>(null);
  // Options are taken at connect time only: objects made inline would
  // otherwise reconnect on every render.
  const [initialOptions] = useState(options);
  useEffect(() => {
    const live = connectEventStream(url, initialOptions);
    setConnection(live);
    return () => {
      live.close();
      setConnection(null);
    };
  }, [url, initialOptions]);
  return useStoreSelector<LiveConnectionSnapshot | null, LiveConnectionSnapshot | null>(
    connection?.status ?? closedStore,
    (snapshot) => snapshot,
  );
}
