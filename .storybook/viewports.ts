/**
 * The viewport widths skein's views are checked at: a phone, a sidebar-sized
 * pane or small tablet, and a laptop. Storybook's viewport toolbar lists them;
 * a story (or a Vitest project, through `initialGlobals`) picks one with
 * `globals: { viewport: { value: 'phone' } }`, and the Vitest story runs
 * resize the test page to it.
 *
 * @example
 * export const Narrow: Story = { globals: { viewport: { value: 'phone', isRotated: false } } };
 */
export const STORY_VIEWPORTS = {
  phone: { name: 'Phone (390 px)', styles: { width: '390px', height: '844px' }, type: 'mobile' },
  pane: { name: 'Pane (740 px)', styles: { width: '740px', height: '900px' }, type: 'tablet' },
  laptop: {
    name: 'Laptop (1280 px)',
    styles: { width: '1280px', height: '800px' },
    type: 'desktop',
  },
} as const;
