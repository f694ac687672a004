import Anser from 'anser';
import type { CSSProperties, ReactNode } from 'react';

// ANSI SGR colours for text/plain ("pay for what you use"): the
// parser is a chunk of its own, loaded by `PlainText` the first time a text
// holds an escape code (see `ansiModule`); text without one never loads it.

const ESC = '\u001b';

/**
 * Turns text with ANSI escape codes into React nodes. Text without escapes is
 * returned as is (the common case costs one `indexOf`).
 *
 * @example
 * ansiToReact('\x1b[1;32mok\x1b[0m'); // [<span class="skein-ansi-fg-green skein-ansi-bold">ok</span>]
 */
export function ansiToReact(text: string): ReactNode {
  if (!text.includes(ESC) && !text.includes('\u009b')) return text;
  const entries = Anser.ansiToJson(text, { use_classes: true, remove_empty: true });
  return entries.map((entry, i) => {
    const classes: string[] = [];
    const style: CSSProperties = {};
    const fg = colour(entry.fg, entry.fg_truecolor, 'fg', classes);
    const bg = colour(entry.bg, entry.bg_truecolor, 'bg', classes);
    if (fg) style.color = fg;
    if (bg) style.backgroundColor = bg;
    for (const d of entry.decorations) {
      // `hidden` and `blink` are ignored on purpose: hidden text in agent
      // output would hide content from the reader.
      if (d === 'bold' || d === 'dim' || d === 'italic' || d === 'underline') {
        classes.push(`skein-ansi-${d}`);
      } else if (d === 'strikethrough') classes.push('skein-ansi-strike');
      else if (d === 'reverse') classes.push('skein-ansi-reverse');
    }
    if (classes.length === 0 && !fg && !bg) return entry.content;
    return (
      <span key={i} className={classes.join(' ') || undefined} style={fg || bg ? style : undefined}>
        {entry.content}
      </span>
    );
  });
}

const NAMED = /^ansi-(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/;
const TRUECOLOR = /^(\d{1,3}), ?(\d{1,3}), ?(\d{1,3})$/;

/** Adds a class for the 16 named colours; returns an `rgb()` for 256/true colour. */
function colour(
  name: string | null,
  truecolor: string | null,
  layer: 'fg' | 'bg',
  classes: string[],
): string | undefined {
  if (!name) return undefined;
  const named = NAMED.exec(name);
  if (named) {
    classes.push(`skein-ansi-${layer}-${named[1] ? 'bright-' : ''}${named[2]}`);
    return undefined;
  }
  if (name === 'ansi-truecolor' && truecolor) {
    const m = TRUECOLOR.exec(truecolor);
    if (!m) return undefined;
    const [r, g, b] = [m[1], m[2], m[3]].map((v) => Math.min(255, Number(v)));
    return `rgb(${r}, ${g}, ${b})`;
  }
  const palette = /^ansi-palette-(\d{1,3})$/.exec(name);
  if (palette) {
    const index = Number(palette[1]);
    if (index < 16) {
      const names = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
      classes.push(`skein-ansi-${layer}-${index >= 8 ? 'bright-' : ''}${names[index % 8]}`);
      return undefined;
    }
    return xterm256(index);
  }
  return undefined;
}

/** The xterm 256-colour palette above the 16 named colours. */
function xterm256(index: number): string | undefined {
  if (index >= 16 && index < 232) {
    const n = index - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return `rgb(${level(Math.floor(n / 36))}, ${level(Math.floor(n / 6) % 6)}, ${level(n % 6)})`;
  }
  if (index >= 232 && index < 256) {
    const v = 8 + (index - 232) * 10;
    return `rgb(${v}, ${v}, ${v})`;
  }
  return undefined;
}
