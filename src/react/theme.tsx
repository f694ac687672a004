import type { CSSProperties, ReactNode } from 'react';

/** `'auto'` follows the user's `prefers-color-scheme`. */
export type SkeinThemeName = 'light' | 'dark' | 'auto';

/** Props of {@link SkeinTheme}. */
export interface SkeinThemeProps {
  /** Colour theme; default `'auto'`. */
  theme?: SkeinThemeName;
  /** Row density of lists inside; default `'comfortable'`. */
  density?: 'comfortable' | 'compact';
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
}

/**
 * The root every skein view sits in. It scopes skein's CSS variables
 * (`skein/styles.css`) to its subtree — skein sets no global styles — and
 * selects the theme and density through `data-*` attributes. Override any
 * `--skein-*` variable on this element (or an ancestor) to restyle.
 *
 * @example
 * import 'skein/styles.css';
 * <SkeinTheme theme="dark"><Transcript stream={stream} /></SkeinTheme>
 */
export function SkeinTheme({
  theme = 'auto',
  density = 'comfortable',
  className,
  style,
  children,
}: SkeinThemeProps) {
  return (
    <div
      className={className ? `skein ${className}` : 'skein'}
      data-theme={theme}
      data-density={density}
      style={style}
    >
      {children}
    </div>
  );
}
