// Copying and saving text from the page: the platform parts of "copy what
// you selected" (the text itself comes from core: `eventsToMarkdown`,
// `eventsToJsonLines`).

/**
 * Puts `text` on the clipboard (`navigator.clipboard.writeText`). Resolves
 * `null` when it is there, or why it is not: the page is not focused or not
 * in a secure context, or the user or a policy refused — say so and offer
 * Download instead.
 *
 * @example
 * import { copyText } from './share-actions.js';
 * declare function say(message: string): void;
 * const why = await copyText('hello');
 * if (why !== null) say(`Copy failed: ${why}`);
 */
export async function copyText(text: string): Promise<string | null> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (clipboard === undefined || typeof clipboard.writeText !== 'function')
    return 'this page has no clipboard access (it needs https or localhost)';
  try {
    await clipboard.writeText(text);
    return null;
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return name === 'NotAllowedError'
      ? 'the browser refused clipboard access'
      : `the clipboard failed (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Saves `text` as a file named `name` through a Blob URL and a temporary
 * `<a download>` (revoked after the click).
 *
 * @example
 * import { downloadText } from './share-actions.js';
 * downloadText('selection.jsonl', '{"event":"info"}\n', 'application/jsonl');
 */
export function downloadText(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // Revoked after the click's navigation started (it is synchronous in
    // every engine, but Firefox needs the URL a moment longer).
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
