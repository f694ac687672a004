// Diagnostics of the tree builders: found in any order, reported in one.

import { errorMessage, type Diagnostic, type ErrorCode } from '../errors.js';

/**
 * A diagnostic before formatting: slot first, so both builders can sort them
 * the same way whatever order they found them in.
 */
export interface PendingDiagnostic {
  readonly slot: number;
  readonly code: ErrorCode;
  readonly args: readonly string[];
}

/** Formats and sorts diagnostics (by slot, then code) so both builders agree exactly. */
export function finishDiagnostics(pending: readonly PendingDiagnostic[]): readonly Diagnostic[] {
  const sorted = pending
    .slice()
    .sort((a, b) => a.slot - b.slot || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return Object.freeze(
    sorted.map((d) =>
      Object.freeze({
        code: d.code,
        severity: 'warning' as const,
        message: (errorMessage as (code: ErrorCode, ...args: string[]) => string)(
          d.code,
          ...d.args,
        ),
        path: `$[${d.slot}]`,
      }),
    ),
  );
}
