import { useEffect, useMemo, useState } from 'react';
import {
  createReplayPlayer,
  type Event,
  type ReplayPlayer,
  type ReplayPlayerOptions,
  type SelectionStore,
} from '../../index.js';

/**
 * Options of {@link useReplayPlayer}: the player's options (read when it is
 * created), plus the selection store it drives.
 *
 * @example
 * const options: UseReplayPlayerOptions = { selection: createSelectionStore(), speed: 2, autoPlay: true };
 */
export interface UseReplayPlayerOptions extends ReplayPlayerOptions {
  /**
   * The selection store shared with the other views: the player writes its
   * playhead there (recorded epoch ms) and, unless `select` is `false`,
   * selects the last event shown; a playhead set there by another view
   * seeks the player.
   */
  selection?: SelectionStore;
  /** Select the last event shown as the player moves (default `true`). */
  select?: boolean;
  /** Start playing once mounted (default `false`). */
  autoPlay?: boolean;
}

/**
 * Creates a replay player over `events` for as long as the component is
 * mounted (a new one when `events` changes) and links it to `selection`.
 * Render the run it plays from its snapshot's `stream`; give the player to
 * `<Player>` for the controls. Nothing runs on the server: the player plays
 * and writes to the store only from effects.
 *
 * @example
 * import { useState } from 'react';
 * function Replay({ events }: { events: readonly Event[] }) {
 *   const [selection] = useState(() => createSelectionStore());
 *   const player = useReplayPlayer(events, { selection });
 *   const stream = useStoreSelector(player, (s) => s.stream);
 *   return (
 *     <>
 *       <Player player={player} />
 *       <SpanTree stream={stream} selection={selection} />
 *     </>
 *   );
 * }
 */
export function useReplayPlayer(
  events: readonly Event[],
  options: UseReplayPlayerOptions = {},
): ReplayPlayer {
  // Read once: options written inline would otherwise make a new player on
  // every render.
  const [initial] = useState(options);
  const player = useMemo(() => createReplayPlayer(events, initial), [events, initial]);
  const { selection, select = true } = options;
  useEffect(
    () => (selection === undefined ? undefined : player.attach(selection, { select })),
    [player, selection, select],
  );
  const autoPlay = initial.autoPlay === true;
  useEffect(() => {
    if (autoPlay) player.play();
    return () => player.pause();
  }, [player, autoPlay]);
  return player;
}
