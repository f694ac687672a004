// The span tree's columns: which there are, their labels, the widths a resize allows.

import type { SpanTreeColumn } from './span-tree.js';

export const ALL_COLUMNS: readonly SpanTreeColumn[] = ['duration', 'tokens', 'start', 'bar'];
export const COLUMN_LABELS: Record<SpanTreeColumn, string> = {
  duration: 'Duration',
  tokens: 'Tokens',
  start: 'Start',
  bar: 'Timeline',
};

export const MIN_WIDTH = 40;
export const MAX_WIDTH = 600;
export const clampWidth = (w: number) => Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(w)));
