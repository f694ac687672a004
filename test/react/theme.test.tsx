import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SkeinTheme } from '../../src/react.js';

describe('SkeinTheme', () => {
  it('defaults to auto theme and comfortable density', () => {
    const { container } = render(<SkeinTheme>hi</SkeinTheme>);
    const root = container.firstElementChild as HTMLElement;
    expect(root.className).toBe('skein');
    expect(root.dataset['theme']).toBe('auto');
    expect(root.dataset['density']).toBe('comfortable');
    expect(root.textContent).toBe('hi');
  });

  it('passes theme, density, class and style through', () => {
    const { container } = render(
      <SkeinTheme theme="dark" density="compact" className="mine" style={{ padding: 3 }} />,
    );
    const root = container.firstElementChild as HTMLElement;
    expect(root.className).toBe('skein mine');
    expect(root.dataset['theme']).toBe('dark');
    expect(root.dataset['density']).toBe('compact');
    expect(root.style.padding).toBe('3px');
  });
});
