// `<Player>`: replay a recorded run with one playhead.
export { Player } from './player.js';
export type { PlayerProps } from './player.js';
export { useReplayPlayer } from './use-replay-player.js';
export type { UseReplayPlayerOptions } from './use-replay-player.js';
