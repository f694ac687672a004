// A Vitest browser command (runs in Node) for the screenshot tests: moves
// Playwright's mouse off the page, so no element is drawn hovered (Chromium
// can apply :hover under a pointer that never moved).
import type { BrowserCommandContext } from 'vitest/node';

/** Moves the mouse to (-1000, -1000): outside the page. */
export async function moveMouseAway(context: BrowserCommandContext): Promise<void> {
  if (context.provider.name !== 'playwright') return;
  const frame = await (context as unknown as { frame(): Promise<{ page(): MousePage }> }).frame();
  await frame.page().mouse.move(-1000, -1000);
}

interface MousePage {
  mouse: { move(x: number, y: number): Promise<void> };
}
