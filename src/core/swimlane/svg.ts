/**
 * A standalone SVG swimlane (a string: no DOM, no React) for dashboards,
 * reports and READMEs. It draws {@link layoutSwimlane} through
 * {@link createTimeScale}, like the `<Swimlane>` component will, so the
 * three views agree.
 *
 * Agent names, error messages and every other string come from the agent
 * and are untrusted: all text and attribute values go through
 * {@link escapeXml}, which also drops the characters XML 1.0 forbids, so
 * the output is always well-formed and never carries live markup. Nothing is
 * measured: label widths use an estimate that callers may replace
 * (`measureText`): anything platform-like is injected, so core stays pure.
 */
import { formatDuration, formatTokens } from '../format.js';
import {
  layoutSwimlane,
  type SwimlaneBar,
  type SwimlaneLayoutOptions,
  type SwimlaneMarker,
  type SwimlaneRow,
} from './layout.js';
import { checkOption } from './options.js';
import { createTimeScale } from './time-scale.js';
import type { Timeline } from '../timeline/types.js';

/**
 * Colours of the SVG swimlane.
 *
 * @example
 * declare const timeline: Timeline;
 * const dark = SWIMLANE_SVG_THEMES.dark;
 * renderTimelineSvg(timeline, { theme: { ...dark, bar: '#3fb950' } });
 */
export interface SwimlaneSvgTheme {
  readonly background: string;
  readonly text: string;
  readonly mutedText: string;
  readonly grid: string;
  readonly rowStripe: string;
  readonly rootBar: string;
  readonly bar: string;
  readonly branchBar: string;
  readonly utilityBar: string;
  readonly idle: string;
  readonly error: string;
  readonly compaction: string;
  readonly branch: string;
}

/**
 * The built-in light and dark themes (GitHub Primer-like colours, legible on
 * both backgrounds).
 *
 * @example
 * const bg = SWIMLANE_SVG_THEMES.dark.background;
 */
export const SWIMLANE_SVG_THEMES: {
  readonly light: SwimlaneSvgTheme;
  readonly dark: SwimlaneSvgTheme;
} = {
  light: {
    background: '#ffffff',
    text: '#1f2328',
    mutedText: '#656d76',
    grid: '#d0d7de',
    rowStripe: '#f6f8fa',
    rootBar: '#8c959f',
    bar: '#0969da',
    branchBar: '#8250df',
    utilityBar: '#afb8c1',
    idle: '#eaeef2',
    error: '#cf222e',
    compaction: '#9a6700',
    branch: '#8250df',
  },
  dark: {
    background: '#0d1117',
    text: '#e6edf3',
    mutedText: '#8d96a0',
    grid: '#30363d',
    rowStripe: '#161b22',
    rootBar: '#6e7681',
    bar: '#388bfd',
    branchBar: '#a371f7',
    utilityBar: '#484f58',
    idle: '#21262d',
    error: '#f85149',
    compaction: '#d29922',
    branch: '#a371f7',
  },
};

/**
 * Options of {@link renderTimelineSvg}.
 *
 * @example
 * declare const timeline: Timeline;
 * renderTimelineSvg(timeline, { width: 960, theme: 'dark', layout: { includeUtility: true } });
 */
export interface SwimlaneSvgOptions {
  /** Width in px. Default 800. */
  readonly width?: number;
  /** Height in px. Default: what the rows need; when given, rows shrink or grow to fit. */
  readonly height?: number;
  /** `'light'` (default), `'dark'` or a full theme. */
  readonly theme?: 'light' | 'dark' | SwimlaneSvgTheme;
  /** Row height in px when `height` is not given. Default 22. */
  readonly rowHeight?: number;
  /** Font size in px. Default 11. */
  readonly fontSize?: number;
  /** Font family. Default a system UI stack. */
  readonly fontFamily?: string;
  /** Axis ticks to aim for. Default: one per ~100 px of bar area. */
  readonly ticks?: number;
  /** Width of each compressed idle gap, px. Default 10. */
  readonly idleWidth?: number;
  /** Width of `text` at `fontSize`, px. Default: an average-glyph estimate (0.6 em per character). */
  readonly measureText?: (text: string, fontSize: number) => number;
  /** Layout options; `showBranches` defaults to `true` here (a report shows everything). */
  readonly layout?: SwimlaneLayoutOptions;
}

// Characters XML 1.0 does not allow at all (C0 controls other than tab, LF,
// CR; U+FFFE/U+FFFF) and lone surrogates: dropped or replaced, or the
// document would not parse.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes a string for XML text and attribute values: `& < > " '` become
 * entities, characters XML 1.0 forbids are removed, lone surrogates become
 * U+FFFD.
 * @internal
 * @example
 * import { escapeXml } from 'src/core/swimlane/svg.js';
 * escapeXml('<script>"a" & \'b\''); // '&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;'
 */
export function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** Numbers in attributes: two decimals at most, never `NaN`. */
function n(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : '0';
}

function truncate(
  text: string,
  maxWidth: number,
  fontSize: number,
  measure: (t: string, f: number) => number,
): string {
  if (measure(text, fontSize) <= maxWidth) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(`${chars.slice(0, mid).join('')}…`, fontSize) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join('')}…`;
}

/**
 * Renders a timeline's swimlane as a standalone SVG document string: an
 * axis of relative times, one row per agent (lanes numbered for parallel
 * runs, branch rows included), bars with `<title>` tooltips, error,
 * compaction and branch markers, compressed idle gaps, and a token column.
 * All text is escaped; the result is safe to inline in HTML or save as
 * `.svg`.
 *
 * @example
 * import { writeFileSync } from 'node:fs';
 * const svg = renderTimelineSvg(buildTimeline(stream.toArray()), { width: 960, theme: 'dark' });
 * writeFileSync('run.svg', svg);
 */
export function renderTimelineSvg(timeline: Timeline, options: SwimlaneSvgOptions = {}): string {
  const layout = layoutSwimlane(timeline, { showBranches: true, ...options.layout });
  const theme =
    typeof options.theme === 'object'
      ? options.theme
      : SWIMLANE_SVG_THEMES[options.theme ?? 'light'];
  const positive = (n: number) => n > 0 && n < Infinity;
  const width = Math.max(
    120,
    checkOption('width', options.width ?? 800, positive, 'a positive number'),
  );
  if (options.height !== undefined)
    checkOption('height', options.height, positive, 'a positive number');
  checkOption('fontSize', options.fontSize ?? 11, positive, 'a positive number');
  const fontSize = options.fontSize ?? 11;
  const fontFamily =
    options.fontFamily ??
    'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
  const measure = options.measureText ?? ((t: string, f: number) => [...t].length * f * 0.6);

  const pad = 8;
  const axisHeight = fontSize + 10;
  const rows = layout.rows;
  const rowHeight =
    options.height !== undefined
      ? Math.max(4, (options.height - 2 * pad - axisHeight) / Math.max(1, rows.length))
      : (options.rowHeight ?? 22);
  const height = options.height ?? Math.ceil(2 * pad + axisHeight + rows.length * rowHeight);

  const indent = fontSize;
  let labelWidth = 0;
  const labelText = (row: SwimlaneRow) =>
    // Branch rows carry inspect's `↳` (inspect_ai's `event/_timeline_repr.py`) so they read as forks.
    row.kind === 'branch' ? `\u21b3 ${row.label}` : row.label;
  for (const row of rows) {
    labelWidth = Math.max(labelWidth, row.depth * indent + measure(labelText(row), fontSize));
  }
  labelWidth = Math.min(Math.max(48, labelWidth + 8), width * 0.35);
  const tokenWidth = measure('000.0k', fontSize) + 8;
  const barStart = pad + labelWidth;
  const barEnd = width - pad - tokenWidth;

  const scale = createTimeScale({
    segments: layout.segments,
    range: [barStart, barEnd],
    idleWidth: options.idleWidth ?? 10,
  });
  const ticks = scale.ticks(options.ticks ?? Math.max(2, Math.round((barEnd - barStart) / 100)));
  const top = pad + axisHeight;
  const bottom = top + rows.length * rowHeight;
  const barHeight = Math.max(2, Math.min(rowHeight - 6, 14));

  const out: string[] = [];
  const name = escapeXml(timeline.name || 'Timeline');
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" role="img" aria-labelledby="skein-swimlane-title">`,
    `<title id="skein-swimlane-title">Swimlane: ${name}</title>`,
    `<desc>${rows.length} rows over ${escapeXml(formatDuration(layout.timeEnd - layout.timeStart))}${layout.idleMs > 0 ? `, ${escapeXml(formatDuration(layout.idleMs))} idle compressed` : ''}</desc>`,
    `<rect x="0" y="0" width="${n(width)}" height="${n(height)}" fill="${escapeXml(theme.background)}"/>`,
    `<g font-family="${escapeXml(fontFamily)}" font-size="${n(fontSize)}" fill="${escapeXml(theme.text)}">`,
  );

  // Row stripes first, so grid lines and bars draw over them.
  rows.forEach((_, i) => {
    if (i % 2 === 1) {
      out.push(
        `<rect x="0" y="${n(top + i * rowHeight)}" width="${n(width)}" height="${n(rowHeight)}" fill="${escapeXml(theme.rowStripe)}"/>`,
      );
    }
  });

  // Compressed idle gaps: a shaded band with a tooltip saying how long.
  for (const piece of scale.pieces) {
    if (!piece.idle) continue;
    out.push(
      `<rect x="${n(piece.viewStart)}" y="${n(top)}" width="${n(Math.max(1, piece.viewEnd - piece.viewStart))}" height="${n(bottom - top)}" fill="${escapeXml(theme.idle)}"><title>${escapeXml(`Idle ${formatDuration(piece.timeEnd - piece.timeStart)} (compressed)`)}</title></rect>`,
    );
  }

  // Axis: tick lines through the rows and relative-time labels above them.
  out.push(`<g class="axis" fill="${escapeXml(theme.mutedText)}" text-anchor="middle">`);
  for (const tick of ticks) {
    out.push(
      `<line x1="${n(tick.viewX)}" x2="${n(tick.viewX)}" y1="${n(top - 3)}" y2="${n(bottom)}" stroke="${escapeXml(theme.grid)}" stroke-width="1"/>`,
      `<text x="${n(tick.viewX)}" y="${n(pad + fontSize)}">${escapeXml(tick.label)}</text>`,
    );
  }
  out.push('</g>');

  rows.forEach((row, i) => {
    const y = top + i * rowHeight;
    const mid = y + rowHeight / 2;
    out.push(`<g class="row" data-key="${escapeXml(row.key)}" data-kind="${row.kind}">`);
    const labelX = pad + row.depth * indent;
    const text = labelText(row);
    const label = truncate(text, barStart - labelX - 6, fontSize, measure);
    out.push(
      `<text x="${n(labelX)}" y="${n(mid)}" dominant-baseline="central"><title>${escapeXml(text)}</title>${escapeXml(label)}</text>`,
    );
    for (const bar of row.bars) out.push(barSvg(row, bar));
    for (const marker of row.markers) out.push(markerSvg(marker, mid));
    out.push(
      `<text x="${n(width - pad)}" y="${n(mid)}" dominant-baseline="central" text-anchor="end" fill="${escapeXml(theme.mutedText)}">${escapeXml(formatTokens(row.tokens))}</text>`,
      '</g>',
    );

    function barSvg(r: SwimlaneRow, b: SwimlaneBar): string {
      const x0 = scale(b.timeStart);
      const x1 = scale(b.timeEnd);
      // Zero-length runs (one instant) still get a visible sliver.
      const w = Math.max(2, x1 - x0);
      const fill =
        r.kind === 'root'
          ? theme.rootBar
          : r.kind === 'branch'
            ? theme.branchBar
            : b.utility
              ? theme.utilityBar
              : theme.bar;
      const tip = `${r.label}: ${formatDuration(b.timeEnd - b.timeStart)}, ${formatTokens(b.tokens)} tokens`;
      return `<rect x="${n(x0)}" y="${n(mid - barHeight / 2)}" width="${n(w)}" height="${n(barHeight)}" rx="2" fill="${escapeXml(fill)}" data-span-id="${escapeXml(b.spanId)}"><title>${escapeXml(tip)}</title></rect>`;
    }

    function markerSvg(m: SwimlaneMarker, cy: number): string {
      const x = scale(m.time);
      // Small enough that a few errors close together stay apart.
      const r = Math.max(2, barHeight / 3);
      const title = `<title>${escapeXml(m.label)}</title>`;
      if (m.kind === 'error') {
        return `<circle cx="${n(x)}" cy="${n(cy)}" r="${n(r)}" fill="${escapeXml(theme.error)}" stroke="${escapeXml(theme.background)}" stroke-width="1">${title}</circle>`;
      }
      if (m.kind === 'compaction') {
        return `<line x1="${n(x)}" x2="${n(x)}" y1="${n(cy - barHeight / 2 - 2)}" y2="${n(cy + barHeight / 2 + 2)}" stroke="${escapeXml(theme.compaction)}" stroke-width="2" stroke-dasharray="2 1">${title}</line>`;
      }
      const d = `M${n(x)} ${n(cy - r)}L${n(x + r)} ${n(cy)}L${n(x)} ${n(cy + r)}L${n(x - r)} ${n(cy)}Z`;
      return `<path d="${d}" fill="${escapeXml(theme.branch)}" stroke="${escapeXml(theme.background)}" stroke-width="1">${title}</path>`;
    }
  });

  out.push('</g>', '</svg>');
  return out.join('\n');
}
