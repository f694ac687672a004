// An output re-drawn as it grows (a message streamed token by token): one
// renderer across its versions (`outputId`), its unfinished paragraph drawn
// as text while it streams, and drawn markdown chunks kept as the text grows.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MimeBundle } from '../../src/index.js';
import { Display, DisplayProvider, preloadDisplay, type DisplayRenderer } from '../../src/react.js';
import { streamingTail } from '../../src/react/display/renderers/markdown.js';

const md = (text: string): MimeBundle => ({ data: { 'text/markdown': text } });

describe('streamingTail', () => {
  it('splits at the last blank line outside fenced code', () => {
    expect(streamingTail('# Title\n\nStill writ')).toEqual({
      done: '# Title\n',
      tail: '\nStill writ',
      code: false,
    });
    expect(streamingTail('no break yet')).toEqual({ done: '', tail: 'no break yet', code: false });
    // An open fence: the code so far, without its opening line; blank lines in it do not cut.
    expect(streamingTail('Intro\n\n```js\nconst a = 1;\n\nconst b')).toEqual({
      done: 'Intro\n\n',
      tail: 'const a = 1;\n\nconst b',
      code: true,
    });
    // A closed fence is a finished block.
    expect(streamingTail('```\ncode\n```\nafter').done).toBe('```\ncode\n```\n');
  });
});

describe('<Display outputId streaming>', () => {
  it('draws the finished part as markdown and the paragraph being written as text', async () => {
    await preloadDisplay();
    const { container, rerender } = render(
      <Display bundle={md('# Title\n\nwriting **bo')} outputId="m" streaming />,
    );
    expect(container.querySelector('h1')?.textContent).toBe('Title');
    expect(container.querySelector('[data-skein-streaming]')?.textContent).toContain(
      'writing **bo',
    );
    rerender(<Display bundle={md('# Title\n\nwriting **bold**')} outputId="m" />);
    expect(container.querySelector('[data-skein-streaming]')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
  });

  it('keeps the renderer across versions of one output ("show all" stays), not across outputs', () => {
    const long = 'x'.repeat(200);
    const { rerender } = render(
      <DisplayProvider budget={{ chars: 50 }}>
        <Display bundle={{ data: { 'text/plain': long } }} outputId="a" />
      </DisplayProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: /show all/i }));
    expect(screen.queryByRole('button', { name: /show all/i })).toBeNull();
    rerender(
      <DisplayProvider budget={{ chars: 50 }}>
        <Display bundle={{ data: { 'text/plain': `${long}y` } }} outputId="a" />
      </DisplayProvider>,
    );
    expect(screen.queryByRole('button', { name: /show all/i })).toBeNull();
    rerender(
      <DisplayProvider budget={{ chars: 50 }}>
        <Display bundle={{ data: { 'text/plain': `${long}z` } }} />
      </DisplayProvider>,
    );
    expect(screen.getByRole('button', { name: /show all/i })).toBeTruthy();
  });

  it('a renderer that failed on one version tries again on the next', () => {
    const picky: DisplayRenderer = {
      name: 'picky',
      mimeTypes: ['text/x-picky'],
      rank: 1,
      safe: true,
      renderer: ({ data }) => {
        if (data === 'bad') throw new Error('cannot draw bad');
        return <span>drawn {String(data)}</span>;
      },
    };
    const view = (data: string) => (
      <DisplayProvider renderers={[picky]}>
        <Display bundle={{ data: { 'text/x-picky': data } }} outputId="p" />
      </DisplayProvider>
    );
    const { rerender } = render(view('bad'));
    expect(screen.getByText(/cannot draw bad/)).toBeTruthy();
    rerender(view('good'));
    expect(screen.getByText('drawn good')).toBeTruthy();
  });

  it('a long text that grows keeps its drawn chunks (no second progressive render)', async () => {
    await preloadDisplay();
    let text = Array.from({ length: 60 }, (_, k) => `Paragraph ${k} ${'word '.repeat(40)}`).join(
      '\n\n',
    );
    const { container, rerender } = render(<Display bundle={md(text)} outputId="g" />);
    await waitFor(() => expect(container.textContent).not.toContain('more sections'), {
      timeout: 10_000,
    });
    const first = container.querySelector('.skein-md p');
    for (let i = 0; i < 5; i++) {
      text += ` more${i}`;
      await act(async () => rerender(<Display bundle={md(text)} outputId="g" />));
      expect(container.textContent).not.toContain('more sections');
    }
    expect(container.textContent).toContain('more4');
    // The first chunk's DOM is the same node: kept, not drawn again.
    expect(container.querySelector('.skein-md p')).toBe(first);
  });
});
