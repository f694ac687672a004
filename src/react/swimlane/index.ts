export { Swimlane } from './swimlane.js';
export type { SwimlaneProps, SwimlaneRange, SwimlaneSourceProps } from './swimlane.js';
export { AsciiSwimlane } from './ascii-swimlane.js';
export type { AsciiSwimlaneProps } from './ascii-swimlane.js';
