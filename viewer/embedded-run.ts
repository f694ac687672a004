// Reads the run an exported page carries (src/node/export.ts writes it): a
// JSON header in `<script type="application/json" id="skein-export">` and the
// log's bytes, base64, in `<script type="application/octet-stream"
// id="skein-run">`. Neither type is executable, so the page's CSP needs no
// allowance for them.
import type { FileLike, LoadSource } from './load/protocol.js';

/** The header of an exported run. */
export interface EmbeddedRunHeader {
  /** The name shown for the run (the title, else the log's file name). */
  readonly name: string;
  /** `gzip`: the bytes are gzip-compressed; `none`: stored as they are. */
  readonly encoding: 'gzip' | 'none';
  /** Bytes of the log once decoded (absent in files exported before it was written). */
  readonly size?: number;
}

/** Base64 characters decoded per step: a few ms of work, so the first rows need only the first. */
const STEP_CHARS = 1 << 20;

const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;

function decodeBase64(text: string): Uint8Array {
  if (typeof fromBase64 === 'function') return fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The base64 text's bytes as a stream, decoded a step at a time (whitespace
 * a mail client may have wrapped it with is skipped). A step never splits a
 * group of four characters.
 */
export function base64Stream(text: string): ReadableStream<Uint8Array> {
  let at = 0;
  let carry = '';
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      for (;;) {
        if (at >= text.length) {
          if (carry !== '') controller.enqueue(decodeBase64(carry));
          controller.close();
          return;
        }
        const piece = carry + text.slice(at, at + STEP_CHARS).replace(/\s+/g, '');
        at += STEP_CHARS;
        const whole = piece.length - (piece.length % 4);
        carry = piece.slice(whole);
        if (whole > 0) {
          controller.enqueue(decodeBase64(piece.slice(0, whole)));
          return;
        }
      }
    },
  });
}

/**
 * The embedded run as a file source for the viewer's loader: its bytes are
 * decoded and inflated as the loader reads them, so the first rows wait for
 * the first megabyte, not the whole run.
 */
export function readEmbeddedRun(doc: Document): LoadSource {
  const headerText = doc.getElementById('skein-export')?.textContent;
  const data = doc.getElementById('skein-run')?.textContent;
  if (headerText == null || data == null) throw new Error('the page carries no run');
  const header = JSON.parse(headerText) as EmbeddedRunHeader;
  const file: FileLike = {
    size: typeof header.size === 'number' ? header.size : null,
    stream: () => {
      const bytes = base64Stream(data);
      return header.encoding === 'gzip'
        ? bytes.pipeThrough(
            new DecompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>,
          )
        : bytes;
    },
  };
  return { kind: 'file', file, name: header.name };
}
