import { useState } from 'react';
import { VERSION } from 'skein';
import { SkeinTheme, type SkeinThemeName } from 'skein/react';

const THEMES: SkeinThemeName[] = ['auto', 'light', 'dark'];

export function App() {
  const [theme, setTheme] = useState<SkeinThemeName>('auto');
  return (
    <SkeinTheme
      theme={theme}
      style={{ minHeight: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 'var(--skein-space-3)',
          padding: 'var(--skein-space-2) var(--skein-space-4)',
          borderBottom: '1px solid var(--skein-border)',
          background: 'var(--skein-bg-subtle)',
        }}
      >
        <h1 style={{ fontSize: 18, margin: 0 }}>
          skein <span data-testid="version">{VERSION}</span>
        </h1>
        <span style={{ color: 'var(--skein-fg-muted)' }}>shows what an AI agent did</span>
        <label style={{ marginLeft: 'auto' }}>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as SkeinThemeName)}>
            {THEMES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </header>
      <main style={{ padding: 'var(--skein-space-4)', flex: 1 }}>
        <p>
          This page imports <code>skein</code> and <code>skein/react</code> the way an application
          does. It grows into the log viewer as the transcript, span tree and swimlane land.
        </p>
      </main>
    </SkeinTheme>
  );
}
