// The React entry point (`skein/react`). Components only draw: all derived
// data comes from the core (`skein`).
export { SkeinTheme } from './theme.js';
export type { SkeinThemeName, SkeinThemeProps } from './theme.js';
export { useStoreSelector } from './use-store-selector.js';
export type { ExternalStore } from './use-store-selector.js';
export * from './display/index.js';
export * from './transcript/index.js';
export * from './span-tree/index.js';
export * from './list/index.js';
export { useControllable } from './use-controllable.js';
export { useEventStream } from './use-event-stream.js';
export * from './player/index.js';
export * from './swimlane/index.js';
export * from './run-diff/index.js';
export { useAgUiStream } from './live/use-ag-ui-stream.js';
export type { AgUiAgentLike, UseAgUiStreamOptions } from './live/use-ag-ui-stream.js';
export { useUIMessagesStream } from './live/use-ui-messages-stream.js';
export type { UseUIMessagesStreamOptions } from './live/use-ui-messages-stream.js';
