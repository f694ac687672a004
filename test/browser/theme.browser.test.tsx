import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SkeinTheme } from '../../src/react.js';
import '../../src/styles.css';

// Real Chromium: the CSS variables resolve through light-dark() and color-scheme.
describe('skein/styles.css in Chromium', () => {
  it('resolves light and dark tokens to different colours', () => {
    const { getByTestId } = render(
      <>
        <SkeinTheme theme="light">
          <p data-testid="light">text</p>
        </SkeinTheme>
        <SkeinTheme theme="dark">
          <p data-testid="dark">text</p>
        </SkeinTheme>
      </>,
    );
    const light = getComputedStyle(getByTestId('light'));
    const dark = getComputedStyle(getByTestId('dark'));
    expect(light.color).toBe('rgb(27, 31, 36)');
    expect(dark.color).toBe('rgb(230, 237, 243)');
    expect(getComputedStyle(getByTestId('light').parentElement!).backgroundColor).toBe(
      'rgb(255, 255, 255)',
    );
    expect(getComputedStyle(getByTestId('dark').parentElement!).backgroundColor).toBe(
      'rgb(15, 20, 25)',
    );
  });

  it('follows the OS preference in auto mode', () => {
    const { getByTestId } = render(
      <SkeinTheme theme="auto">
        <p data-testid="auto">text</p>
      </SkeinTheme>,
    );
    const prefersDark = matchMedia('(prefers-color-scheme: dark)').matches;
    expect(getComputedStyle(getByTestId('auto')).color).toBe(
      prefersDark ? 'rgb(230, 237, 243)' : 'rgb(27, 31, 36)',
    );
  });

  it('scopes styles: nothing outside .skein is touched', () => {
    const { getByTestId } = render(
      <>
        <p data-testid="outside">outside</p>
        <SkeinTheme theme="dark">inside</SkeinTheme>
      </>,
    );
    const outside = getComputedStyle(getByTestId('outside'));
    expect(outside.getPropertyValue('--skein-bg')).toBe('');
    expect(outside.color).toBe('rgb(0, 0, 0)');
  });

  it('compact density changes the type scale', () => {
    const { getByTestId } = render(
      <SkeinTheme density="compact">
        <span data-testid="c">x</span>
      </SkeinTheme>,
    );
    expect(getComputedStyle(getByTestId('c')).fontSize).toBe('13px');
  });
});
