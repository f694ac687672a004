// The markdown parser, the HTML sanitizer and the media renderers (HTML,
// images, SVG, diffs) load on first use (issue 16): until then markdown shows
// as its plain source, media as a one-line status, and trusted HTML/SVG in
// their untrusted forms; once loaded, every waiting renderer re-renders. This file
// must not preload: each test file gets fresh modules, so nothing is loaded
// when it starts.
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createLazyModule } from '../../src/react/display/lazy.js';
import { mediaModule, sanitizerModule } from '../../src/react/display/loaders.js';
import { Display, loadSanitizer, preloadDisplay } from '../../src/react.js';

describe('lazy display parts', () => {
  it('shows markdown as plain text first, then rendered, without a reload', async () => {
    const { container } = render(
      <Display bundle={{ data: { 'text/markdown': '**bold** and `code`' } }} />,
    );
    // First paint: the source as text, marked pending, no <strong> yet.
    const pending = container.querySelector('[data-skein-pending]');
    expect(pending?.textContent).toContain('**bold** and `code`');
    expect(container.querySelector('strong')).toBeNull();
    // The chunk arrives; the same element re-renders as markdown.
    // (A dynamic import: generous timeout on a loaded machine.)
    expect((await screen.findByText('bold', {}, { timeout: 15_000 })).tagName).toBe('STRONG');
    expect(container.querySelector('code')?.textContent).toBe('code');
    expect(container.querySelector('[data-skein-pending]')).toBeNull();
  });

  it('holds the place of HTML with a status until its renderer arrives; trusted HTML shows in the sandboxed frame until the sanitizer arrives, then inline', async () => {
    const { container } = render(
      <Display
        bundle={{ data: { 'text/html': '<b>hi</b><img src=x onerror=alert(1)>' } }}
        trust="trusted"
      />,
    );
    // First paint: a status, neither the markup as text nor a frame.
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Loading the HTML renderer…');
    expect(status.getAttribute('aria-busy')).toBe('true');
    expect(container.textContent).not.toContain('<b>');
    await act(async () => {
      await mediaModule.load();
    });
    // The renderer is here, the sanitizer (its own chunk) not yet.
    expect(sanitizerModule.get()).toBeUndefined();
    expect(container.querySelector('iframe[sandbox=""]')).not.toBeNull();
    const bold = await screen.findByText('hi', {}, { timeout: 15_000 });
    expect(bold.tagName).toBe('B');
    expect(container.querySelector('iframe')).toBeNull();
    expect(container.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('preloadDisplay resolves once every part is loaded; loadSanitizer gives the sanitizer', async () => {
    await preloadDisplay();
    const sanitize = await loadSanitizer();
    expect(sanitize('<img src=x onerror=alert(1)><b>ok</b>')).toBe('<img><b>ok</b>');
    // Already loaded: markdown renders in the first paint.
    const { container } = render(<Display bundle={{ data: { 'text/markdown': '*em*' } }} />);
    expect(container.querySelector('em')?.textContent).toBe('em');
    expect(container.querySelector('[data-skein-pending]')).toBeNull();
  });

  it('a failed load is retried by the next caller, and listeners hear only a success', async () => {
    const importer = vi
      .fn<() => Promise<{ ok: true }>>()
      .mockRejectedValueOnce(new Error('chunk 404'))
      .mockResolvedValueOnce({ ok: true });
    const module = createLazyModule(importer);
    const heard = vi.fn();
    module.subscribe(heard);
    await expect(module.load()).rejects.toThrow('chunk 404');
    expect(module.get()).toBeUndefined();
    expect(heard).not.toHaveBeenCalled();
    await expect(module.load()).resolves.toEqual({ ok: true });
    expect(module.get()).toEqual({ ok: true });
    expect(heard).toHaveBeenCalledTimes(1);
    // Loaded: no further imports.
    await module.load();
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
