/**
 * `displayOf`: the representation cascade of the display protocol.
 * The first step that yields a bundle wins:
 *
 * 1. the value's own {@link DISPLAY} method — the producer decides;
 * 2. IPython's names (`_repr_mimebundle_`, `_repr_markdown_`, …) and already
 *    serialized Jupyter outputs (`display_data`, `execute_result`, `stream`,
 *    `error`), or a bare bundle / agex `DisplayDataPart`;
 * 3. a shape summary of containers and class instances;
 * 4. `text/plain` of primitives.
 *
 * A step that throws or returns something that is not a bundle never throws
 * out of `displayOf`: the cascade moves on and `metadata.skein.errors` says
 * what failed.
 */
import type { MimeBundle } from '../events/types.js';
import { ownKeys } from '../events/freeze.js';
import { formatPrimitive, summarizeShape } from './shape-summary.js';
import { DISPLAY, type DisplayMetadata, type DisplayOptions, type DisplaySource } from './types.js';

// IPython's `_repr_*_` methods and the MIME type each one fills
// (IPython.core.formatters). Markdown comes first: the agent's own context
// reads it best (agex's design,
// https://github.com/ashenfad/agex/blob/main/docs/todo-mime.md), so it leads the bundle's key order.
const REPR_METHODS: readonly (readonly [string, string])[] = [
  ['_repr_markdown_', 'text/markdown'],
  ['_repr_html_', 'text/html'],
  ['_repr_svg_', 'image/svg+xml'],
  ['_repr_png_', 'image/png'],
  ['_repr_jpeg_', 'image/jpeg'],
  ['_repr_json_', 'application/json'],
  ['_repr_latex_', 'text/latex'],
];

// `type/subtype` with RFC 6838 characters (+ for structured suffixes like
// `application/vnd.plotly.v1+json`).
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * Whether a string looks like a MIME type (`type/subtype`).
 *
 * @example
 * import { isMimeType } from 'src/core/display/display-of.js';
 * isMimeType('text/markdown'); // true
 * isMimeType('name'); // false
 */
export function isMimeType(key: string): boolean {
  return MIME.test(key);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPlainData(value: unknown): value is Record<string, unknown> {
  if (!isObject(value) || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return 'unprintable error';
  }
}

// Jupyter stores text-like values either as a string or as a list of lines to
// be joined with "" (nbformat "multiline_string"); JSON types stay as they are.
function isJsonMime(mime: string): boolean {
  return mime === 'application/json' || mime.endsWith('+json');
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Base64 of bytes (no `btoa`/`Buffer` in the core's platform).
 * @internal
 * @example
 * import { base64 } from 'src/core/display/display-of.js';
 * base64(new Uint8Array([104, 105])); // 'aGk='
 */
export function base64(bytes: Uint8Array): string {
  const out: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    chunk +=
      BASE64.charAt((n >> 18) & 63) +
      BASE64.charAt((n >> 12) & 63) +
      (i + 1 < bytes.length ? BASE64.charAt((n >> 6) & 63) : '=') +
      (i + 2 < bytes.length ? BASE64.charAt(n & 63) : '=');
    // Flush in pieces so a big image does not build one huge rope.
    if (chunk.length >= 8192) {
      out.push(chunk);
      chunk = '';
    }
  }
  out.push(chunk);
  return out.join('');
}

/** One MIME value, normalized: line lists joined, bytes base64-encoded. */
function normalizeValue(mime: string, value: unknown): unknown {
  if (isJsonMime(mime)) return value;
  if (Array.isArray(value) && value.every((line) => typeof line === 'string'))
    return value.join('');
  if (value instanceof Uint8Array) return base64(value);
  if (value instanceof ArrayBuffer) return base64(new Uint8Array(value));
  return value;
}

/** Normalizes a bundle's `data` (drops `undefined`/`null` entries, which mean "no representation"). */
function normalizeData(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const mime of Object.keys(data)) {
    const v = data[mime];
    if (v === undefined || v === null) continue;
    out[mime] = normalizeValue(mime, v);
  }
  return out;
}

/** Whether every key is a MIME type (`keys`: the object's own keys, when already listed). */
function isMimeKeyed(data: Record<string, unknown>, keys = ownKeys(data)): boolean {
  return keys.length > 0 && keys.every(isMimeType);
}

/**
 * Reads `{data, metadata}`, a bare data object (`{'text/plain': …}`, an agex
 * `DisplayDataPart`) or IPython's `(data, metadata)` tuple as a bundle.
 */
function asBundle(value: unknown): MimeBundle | undefined {
  if (Array.isArray(value) && value.length === 2 && isPlainData(value[0])) {
    const data = normalizeData(value[0]);
    if (Object.keys(data).length === 0) return undefined;
    return isPlainData(value[1]) ? { data, metadata: value[1] } : { data };
  }
  if (!isPlainData(value)) return undefined;
  const keys = ownKeys(value);
  // `{data: {rows: …}}` is ordinary data, not a bundle: the keys of `data`
  // must all be MIME types.
  if (
    isPlainData(value.data) &&
    keys.every((k) => k === 'data' || k === 'metadata') &&
    isMimeKeyed(value.data)
  ) {
    const data = normalizeData(value.data);
    if (Object.keys(data).length === 0) return undefined;
    return isPlainData(value.metadata) ? { data, metadata: value.metadata } : { data };
  }
  // (An object of a million keys: listing them is the cost, so once.)
  if (isMimeKeyed(value, keys)) {
    const data = normalizeData(value);
    return Object.keys(data).length > 0 ? { data } : undefined;
  }
  return undefined;
}

/** nbformat outputs (nbformat v4 `output` schema) as bundles. */
function fromJupyterOutput(value: Record<string, unknown>): MimeBundle | undefined {
  const type = value.output_type;
  if (type === 'display_data' || type === 'execute_result' || type === 'update_display_data') {
    if (!isPlainData(value.data)) return undefined;
    const data = normalizeData(value.data);
    const metadata: Record<string, unknown> = isPlainData(value.metadata)
      ? { ...value.metadata }
      : {};
    if (typeof value.execution_count === 'number') {
      metadata.skein = { execution_count: value.execution_count };
    }
    return { data, metadata };
  }
  if (type === 'stream') {
    const text = normalizeValue('text/plain', value.text);
    if (typeof text !== 'string') return undefined;
    const name = typeof value.name === 'string' ? value.name : 'stdout';
    return { data: { 'text/plain': text }, metadata: { skein: { stream: name } } };
  }
  if (type === 'error') {
    const ename = typeof value.ename === 'string' ? value.ename : 'Error';
    const evalue = typeof value.evalue === 'string' ? value.evalue : '';
    const lines = Array.isArray(value.traceback)
      ? value.traceback.filter((l): l is string => typeof l === 'string')
      : [];
    // The traceback lines carry ANSI colours; text/plain keeps them for the
    // ANSI-aware renderer ("errors carry their ANSI traceback").
    const text = lines.length > 0 ? lines.join('\n') : evalue ? `${ename}: ${evalue}` : ename;
    return { data: { 'text/plain': text }, metadata: { skein: { error: { ename, evalue } } } };
  }
  return undefined;
}

function hasReprMethods(value: object): boolean {
  const v = value as Record<string, unknown>;
  if (typeof v._repr_mimebundle_ === 'function') return true;
  return REPR_METHODS.some(([name]) => typeof v[name] === 'function');
}

/** Calls IPython's methods; every failure is recorded, none escapes. */
function fromIPython(
  value: object,
  errors: string[],
  options: DisplayOptions,
): MimeBundle | undefined {
  const v = value as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  let metadata: Record<string, unknown> | undefined;
  const order =
    options.preferMarkdown === false ? [...REPR_METHODS.slice(1), REPR_METHODS[0]!] : REPR_METHODS;
  for (const [name, mime] of order) {
    const fn = v[name];
    if (typeof fn !== 'function') continue;
    try {
      let result: unknown = fn.call(value);
      // IPython allows `(data, metadata)` from any `_repr_*_`.
      if (Array.isArray(result) && result.length === 2 && !isJsonMime(mime)) {
        if (isPlainData(result[1])) metadata = { ...metadata, [mime]: result[1] };
        result = result[0];
      }
      if (result !== undefined && result !== null) data[mime] = normalizeValue(mime, result);
    } catch (error) {
      errors.push(`${name}: ${errorText(error)}`);
    }
  }
  // `_repr_mimebundle_` wins over the single-type methods, as in IPython's
  // DisplayFormatter (its entries replace theirs; theirs fill the gaps).
  const bundleFn = v._repr_mimebundle_;
  if (typeof bundleFn === 'function') {
    try {
      const result: unknown = bundleFn.call(value);
      const bundle = asBundle(result);
      if (bundle) {
        Object.assign(data, bundle.data);
        if (bundle.metadata) metadata = { ...metadata, ...bundle.metadata };
      } else if (result !== undefined && result !== null) {
        errors.push('_repr_mimebundle_: returned no MIME bundle');
      }
    } catch (error) {
      errors.push(`_repr_mimebundle_: ${errorText(error)}`);
    }
  }
  if (Object.keys(data).length === 0) return undefined;
  return metadata ? { data, metadata } : { data };
}

/**
 * skein's notes on a bundle (`metadata.skein`: source, label, collapsed,
 * truncated, errors), typed; `{}` when the bundle has none or its
 * `metadata.skein` is not a plain object (a foreign bundle may hold anything).
 *
 * @example
 * import { displayNotes } from './display-of.js';
 * displayNotes(displayOf([1, 2])).source; // 'shape'
 */
export function displayNotes(bundle: MimeBundle): DisplayMetadata {
  const notes = bundle.metadata?.skein;
  return isPlainData(notes) ? (notes as DisplayMetadata) : {};
}

function withSkein(bundle: MimeBundle, notes: DisplayMetadata): MimeBundle {
  const metadata: Record<string, unknown> = { ...bundle.metadata };
  const prior = displayNotes(bundle);
  metadata.skein = { ...prior, ...notes };
  return { data: bundle.data, metadata };
}

function finish(
  bundle: MimeBundle,
  source: DisplaySource,
  errors: string[],
  truncated = false,
): MimeBundle {
  const notes: DisplayMetadata = { source };
  if (errors.length > 0) notes.errors = errors;
  if (truncated) notes.truncated = true;
  return withSkein(bundle, notes);
}

/** Markdown with the text in a fence longer than any backtick run inside it. */
function fenced(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

/**
 * The MIME bundle of any value, by the representation cascade (see the module
 * comment). Never throws; the result's `metadata.skein` says which step
 * produced it (`source`), which steps failed (`errors`) and whether a summary
 * was cut (`truncated`).
 *
 * @example
 * displayOf({ _repr_markdown_: () => '**hi**' }).data; // { 'text/markdown': '**hi**', 'text/plain': … }
 * displayOf(Array.from({ length: 3 }, (_, id) => ({ id }))).data['text/plain'];
 * // 'Array(3) of {id: number}\n[{id: 0}, {id: 1}, {id: 2}]'
 * displayOf(42).data; // { 'text/plain': '42' }
 */
export function displayOf(value: unknown, options: DisplayOptions = {}): MimeBundle {
  const errors: string[] = [];
  if (typeof value === 'object' && value !== null) {
    // 1. The producer's own bundle.
    let method: unknown;
    try {
      method = (value as { [DISPLAY]?: unknown })[DISPLAY];
    } catch (error) {
      errors.push(`[DISPLAY]: ${errorText(error)}`);
    }
    if (typeof method === 'function') {
      try {
        const bundle = asBundle(method.call(value, options));
        if (bundle) return finish(bundle, 'symbol', errors);
        errors.push('[DISPLAY]: returned no MIME bundle');
      } catch (error) {
        errors.push(`[DISPLAY]: ${errorText(error)}`);
      }
    }
    // 2. Python's conventions: repr methods, then serialized outputs.
    try {
      if (hasReprMethods(value)) {
        const bundle = fromIPython(value, errors, options);
        if (bundle) return finish(withPlainText(bundle, value, options), 'ipython', errors);
      } else if (isPlainData(value)) {
        const bundle =
          typeof value.output_type === 'string' ? fromJupyterOutput(value) : asBundle(value);
        if (bundle) return finish(bundle, 'jupyter', errors);
      }
    } catch (error) {
      // A Proxy can throw from any property read.
      errors.push(`repr: ${errorText(error)}`);
    }
  }
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    // 3. The shape summary.
    const summary = summarizeShape(value, options);
    const data: Record<string, unknown> = { 'text/plain': summary.text };
    if (options.preferMarkdown !== false) data['text/markdown'] = fenced(summary.text);
    return finish({ data }, 'shape', errors, summary.truncated);
  }
  // 4. Primitives.
  return finish({ data: { 'text/plain': formatPrimitive(value) } }, 'primitive', errors);
}

/** IPython always adds `text/plain` (from `repr()`); here the shape summary stands in. */
function withPlainText(bundle: MimeBundle, value: object, options: DisplayOptions): MimeBundle {
  if (typeof bundle.data['text/plain'] === 'string') return bundle;
  const summary = summarizeShape(value, { ...options, maxDepth: 0 });
  return { data: { ...bundle.data, 'text/plain': summary.headline }, metadata: bundle.metadata };
}
