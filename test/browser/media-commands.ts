// A Vitest browser command (it runs in Node): the colour scheme the page
// prefers, emulated by Playwright, so a test sees what `theme="auto"` shows a
// user whose system is dark.
import type { BrowserCommandContext } from 'vitest/node';

/** Emulates `prefers-color-scheme: <scheme>` for the test page (and its frames). */
export async function emulateColorScheme(
  context: BrowserCommandContext,
  scheme: 'light' | 'dark',
): Promise<void> {
  await context.page.emulateMedia({ colorScheme: scheme });
}

/** Lays the test page out for print (`@media print`), or back for the screen. */
export async function emulatePrintMedia(
  context: BrowserCommandContext,
  print: boolean,
): Promise<void> {
  await context.page.emulateMedia({ media: print ? 'print' : 'screen' });
}
