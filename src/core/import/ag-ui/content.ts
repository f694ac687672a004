// AG-UI content (a user or tool message's `string | ContentPart[]`,
// https://docs.ag-ui.com/concepts/messages) as canonical content. A media
// part's bytes are a `data` source (base64 with its MIME type), a `url`, or a
// provider `file` id; the first two become inspect's image/audio/video/
// document parts (a data URI or the URL), a file id — which no renderer can
// fetch — and anything unknown are kept whole as a `data` part.
import type { Content, JsonObject } from '../../events/types.js';
import { textOrParts } from '../drafts.js';
import { isRecord } from '../guards.js';

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A media part's source as a URL or data URI, or `undefined` (a file id, or no source). */
function sourceUrl(source: unknown): { url: string; mime: string } | undefined {
  if (!isRecord(source)) return undefined;
  const value = str(source['value']);
  const mime = str(source['mimeType']) ?? '';
  if (value === undefined) return undefined;
  if (source['type'] === 'data') return { url: `data:${mime};base64,${value}`, mime };
  if (source['type'] === 'url') return { url: value, mime };
  return undefined;
}

const AUDIO = new Map([
  ['audio/wav', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/mpeg', 'mp3'],
  ['audio/mp3', 'mp3'],
] as const);
const VIDEO = new Map([
  ['video/mp4', 'mp4'],
  ['video/mpeg', 'mpeg'],
  ['video/quicktime', 'mov'],
] as const);

/**
 * One AG-UI content part as a canonical one.
 *
 * @example
 * import { agUiPart } from 'src/core/import/ag-ui/content.js';
 * agUiPart({ type: 'image', source: { type: 'url', value: 'https://x/y.png' } });
 * // { type: 'image', image: 'https://x/y.png' }
 */
export function agUiPart(part: unknown): Content {
  if (!isRecord(part)) return { type: 'text', text: typeof part === 'string' ? part : '' };
  const type = part['type'];
  if (type === 'text' && typeof part['text'] === 'string')
    return { type: 'text', text: part['text'] };
  const at = sourceUrl(part['source']);
  if (at !== undefined) {
    if (type === 'image') return { type: 'image', image: at.url };
    if (type === 'audio') {
      const format = AUDIO.get(at.mime as 'audio/wav');
      if (format !== undefined) return { type: 'audio', audio: at.url, format };
    } else if (type === 'video') {
      const format = VIDEO.get(at.mime as 'video/mp4');
      if (format !== undefined) return { type: 'video', video: at.url, format };
    } else if (type === 'document') {
      const metadata = part['metadata'];
      const filename = isRecord(metadata) ? (str(metadata['filename']) ?? '') : '';
      return { type: 'document', document: at.url, filename, mime_type: at.mime };
    }
  }
  return { type: 'data', data: part as JsonObject };
}

/**
 * AG-UI content (a string, or parts) as a canonical message's content: the
 * text alone when every part is text.
 *
 * @example
 * import { agUiContent } from 'src/core/import/ag-ui/content.js';
 * agUiContent([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // 'ab'
 */
export function agUiContent(content: unknown): string | Content[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : [agUiPart(content)];
  return textOrParts(content.map(agUiPart));
}
