/**
 * The transcript's keyboard map as a pure function (keyboard first: the key →
 * action map is tested without a DOM). The component only translates a
 * keyboard event into {@link TranscriptKeyInput} and performs the action.
 */

/**
 * What a key press does in a transcript.
 *
 * @example
 * const action: TranscriptKeyAction = 'next';
 */
export type TranscriptKeyAction =
  | 'next'
  | 'previous'
  | 'first'
  | 'last'
  | 'page-down'
  | 'page-up'
  | 'toggle'
  | 'find'
  | 'close-find'
  | 'find-next'
  | 'find-previous'
  | 'extend-next'
  | 'extend-previous'
  | 'extend-first'
  | 'extend-last'
  | 'select-all'
  | 'clear-selection';

/**
 * The parts of a key press the map looks at.
 *
 * @example
 * declare const e: KeyboardEvent; // a keydown in the find field
 * const input: TranscriptKeyInput = { key: e.key, ctrlKey: e.ctrlKey, inFind: true, findOpen: true };
 */
export interface TranscriptKeyInput {
  /** `KeyboardEvent.key`. */
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  /** The key went to the find field (typing there must not navigate). */
  inFind?: boolean;
  /** The find bar is open. */
  findOpen?: boolean;
  /** Rows can be selected together (`<Transcript selectable>`). */
  selectable?: boolean;
  /** Some rows are selected together (`Esc` clears them). */
  hasSelection?: boolean;
}

/**
 * The action of a key press, or `null` when the transcript leaves it alone
 * (so the browser and the page keep every key the transcript does not use).
 *
 * - `j` / `ArrowDown`, `k` / `ArrowUp`: next / previous row;
 * - `Home` / `End`: first / last row;
 * - `PageDown` / `PageUp`: the row one viewport down / up (the list engine's
 *   `pageFrom`, so a page of tall rows moves by what is seen, not a row count);
 * - `Enter` / `Space`: expand or collapse the focused section;
 * - `/` or `Ctrl`/`Cmd`-`F`: open find; `Esc`: close it;
 * - in the find field, `Enter` / `Shift`-`Enter`: next / previous match;
 * - with `selectable`: `Shift`-arrows / `Shift`-`Home` / `Shift`-`End`
 *   extend the selection, `Ctrl`/`Cmd`-`A` selects every row, `Esc` (find
 *   closed) clears the selection.
 *
 * @example
 * transcriptKeyAction({ key: 'j' }); // 'next'
 * transcriptKeyAction({ key: 'f', metaKey: true }); // 'find'
 * transcriptKeyAction({ key: 'PageDown' }); // 'page-down'
 * transcriptKeyAction({ key: 'j', inFind: true, findOpen: true }); // null
 * transcriptKeyAction({ key: 'ArrowDown', shiftKey: true, selectable: true }); // 'extend-next'
 */
export function transcriptKeyAction(input: TranscriptKeyInput): TranscriptKeyAction | null {
  const { key } = input;
  const command = input.ctrlKey === true || input.metaKey === true;
  if (command && input.altKey !== true && (key === 'f' || key === 'F')) return 'find';
  if (key === 'Escape') {
    if (input.findOpen === true) return 'close-find';
    return input.selectable === true && input.hasSelection === true && input.inFind !== true
      ? 'clear-selection'
      : null;
  }
  if (input.inFind === true) {
    if (key === 'Enter' && !command && input.altKey !== true)
      return input.shiftKey === true ? 'find-previous' : 'find-next';
    return null;
  }
  if (input.selectable === true && input.altKey !== true) {
    if (command && input.shiftKey !== true && (key === 'a' || key === 'A')) return 'select-all';
    if (!command && input.shiftKey === true) {
      if (key === 'ArrowDown') return 'extend-next';
      if (key === 'ArrowUp') return 'extend-previous';
      if (key === 'Home') return 'extend-first';
      if (key === 'End') return 'extend-last';
    }
  }
  if (command || input.altKey === true) return null;
  switch (key) {
    case 'j':
    case 'ArrowDown':
      return 'next';
    case 'k':
    case 'ArrowUp':
      return 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'PageDown':
      return 'page-down';
    case 'PageUp':
      return 'page-up';
    case 'Enter':
    case ' ':
      return 'toggle';
    case '/':
      return 'find';
    default:
      return null;
  }
}
