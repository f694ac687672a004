/**
 * Indentation for the text renderings (ASCII swimlane, span-tree text,
 * replay): by depth up to {@link MAX_INDENT} levels, then the depth as a
 * number, so a 100,000-deep run prints in time linear in its rows instead of
 * rows × depth.
 */

/**
 * Levels indented in text renderings; deeper rows say their depth (`⋯1234 `).
 * @example
 * import { MAX_INDENT } from 'src/core/indent.js';
 * MAX_INDENT; // 32
 */
export const MAX_INDENT = 32;

/**
 * `unit` repeated `depth` times, or {@link MAX_INDENT} times followed by
 * `⋯<depth> ` past that.
 *
 * @example
 * import { cappedIndent } from 'src/core/indent.js';
 * cappedIndent(2, '  '); // '    '
 * cappedIndent(40, '  ').endsWith('⋯40 '); // true
 */
export function cappedIndent(depth: number, unit: string): string {
  if (depth <= MAX_INDENT) return unit.repeat(depth);
  return `${unit.repeat(MAX_INDENT)}⋯${depth} `;
}
