// Reads the run an exported page carries (src/node/export.ts writes it): a
// JSON header in `<script type="application/json" id="skein-export">` and the
// log's bytes, base64, in `<script type="application/octet-stream"
// id="skein-run">`. Neither type is executable, so the page's CSP needs no
// allowance for them.
import type { LoadSource } from './load/protocol.js';

/** The header of an exported run. */
export interface EmbeddedRunHeader {
  /** The name shown for the run (the title, else the log's file name). */
  readonly name: string;
  /** `gzip`: the bytes are gzip-compressed; `none`: stored as they are. */
  readonly encoding: 'gzip' | 'none';
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const from = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> })
    .fromBase64;
  if (typeof from === 'function') return from(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The embedded run as a file source for the viewer's loader. */
export async function readEmbeddedRun(doc: Document): Promise<LoadSource> {
  const headerText = doc.getElementById('skein-export')?.textContent;
  const data = doc.getElementById('skein-run')?.textContent;
  if (headerText == null || data == null) throw new Error('the page carries no run');
  const header = JSON.parse(headerText) as EmbeddedRunHeader;
  const bytes = decodeBase64(data.replace(/\s+/g, ''));
  let file = new Blob([bytes]);
  if (header.encoding === 'gzip') {
    const inflated = file.stream().pipeThrough(new DecompressionStream('gzip'));
    file = await new Response(inflated).blob();
  }
  return { kind: 'file', file, name: header.name };
}
