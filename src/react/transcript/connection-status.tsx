import type { LiveConnection, LiveConnectionSnapshot, LiveStatus } from '../../index.js';
import { useStoreSelector } from '../use-store-selector.js';

/**
 * A live connection as `<Transcript connection>` takes it: what
 * `connectEventStream` returns (its `status` is a store) or what
 * `useEventStream` returns (a snapshot).
 *
 * @example
 * const connection: TranscriptConnection = connectEventStream('/api/run');
 */
export type TranscriptConnection = LiveConnection | LiveConnectionSnapshot;

const LABELS: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
};

const noStore = { getSnapshot: () => null, subscribe: () => () => {} };

/** The connection's snapshot, whichever form it was given in (`null` for none). */
function useConnectionSnapshot(
  connection: TranscriptConnection | undefined,
): LiveConnectionSnapshot | null {
  const store =
    connection !== undefined && typeof connection.status !== 'string' ? connection.status : null;
  const fromStore = useStoreSelector<LiveConnectionSnapshot | null, LiveConnectionSnapshot | null>(
    store ?? noStore,
    (s) => s,
  );
  if (connection === undefined) return null;
  return store === null ? (connection as LiveConnectionSnapshot) : fromStore;
}

/**
 * The live connection's state in the transcript's toolbar:
 * connecting / live / reconnecting / closed and the last error, in a polite
 * `role="status"` region (mounted as long as a connection is given, so
 * changes are announced).
 */
export function ConnectionStatus({ connection }: { connection: TranscriptConnection | undefined }) {
  const snapshot = useConnectionSnapshot(connection);
  if (snapshot === null) return null;
  const { status, error, attempt } = snapshot;
  const retry = status === 'reconnecting' && attempt > 1 ? ` (attempt ${attempt})` : '';
  return (
    <span
      role="status"
      aria-label="Connection"
      className="skein-transcript__connection"
      data-status={status}
    >
      <span className="skein-transcript__connection-dot" aria-hidden="true" />
      {LABELS[status]}
      {retry}
      {error !== null ? (
        <span className="skein-transcript__connection-error">
          {' '}
          — last error: {error.message || error.name}
        </span>
      ) : null}
    </span>
  );
}
