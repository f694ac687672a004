// Errors a user can act on (issue 22): a failed open says what the file is,
// what the viewer expected, and what to do — never a bare stack trace.
import { SkeinError, describeInput, formats, type ImportError } from '../../src/index.js';
import type { LoadFailure } from './protocol.js';

/** The formats the viewer opens, for "expected …" (one line each). */
export function expectedFormats(): string {
  return formats
    .map((f) => (f.extensions.length ? `${f.name} (${f.extensions.join(', ')})` : f.name))
    .join('; ');
}

/** True for a zip archive's first bytes (`PK\x03\x04`, or an empty archive's `PK\x05\x06`). */
export function isZipHead(head: Uint8Array): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))
  );
}

/**
 * What a file looks like, in words (core's `describeInput`, plus the one case
 * a user can fix at once: a gzip-compressed log).
 */
export function describeContent(head: Uint8Array, size: number | null): string {
  if (size === 0 || head.length === 0) return 'an empty file';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'a gzip-compressed file (decompress it first)';
  return describeInput(head);
}

const isImportError = (e: unknown): e is ImportError =>
  e instanceof SkeinError && typeof (e as ImportError).path === 'string';

/**
 * Turns what an open threw into a {@link LoadFailure}: `name` is the file's
 * name, `head` its first bytes (for "what the file is").
 */
export function explainFailure(
  error: unknown,
  name: string,
  head: Uint8Array,
  size: number | null,
): LoadFailure {
  const what = describeContent(head, size);
  if (error instanceof LoadError) return error.failure;
  if (isImportError(error)) {
    const path = error.path;
    switch (error.code) {
      case 'zip_truncated':
        return {
          code: error.code,
          title: `${name} is a truncated .eval archive`,
          detail: `The file is a zip archive that ends early (${error.message}). It was probably copied or downloaded while inspect was still writing it. Expected a complete .eval: copy it again once the eval has finished, or open the log inspect is still writing with its journal.`,
          path,
        };
      case 'zip_corrupt':
      case 'zip_unsupported':
        return {
          code: error.code,
          title: `${name} is a zip archive skein cannot read`,
          detail: `${error.message}. Expected an inspect_ai .eval archive.`,
          path,
        };
      case 'not_inspect_log':
        return {
          code: error.code,
          title: `${name} is not an inspect_ai log`,
          detail: `The file is ${what}, but ${error.message.replace(/^Not an inspect_ai log: /, '')}. Expected an inspect_ai .eval archive (with header.json) or a .json log.`,
          path,
        };
      case 'unrecognized_format':
        return {
          code: error.code,
          title: `${name} is not a log format skein reads`,
          detail: `The file is ${what}. Expected one of: ${expectedFormats()}.`,
          path,
        };
      case 'invalid_json':
        return {
          code: error.code,
          title: `${name} is not valid JSON`,
          detail: `The file is ${what}, but ${error.message}. Was it cut short or edited by hand?`,
          path,
        };
      case 'unsupported_version':
        return {
          code: error.code,
          title: `${name} is an inspect_ai log of a version skein does not read`,
          detail: `${error.message}. skein reads log versions 1–3.`,
          path,
        };
      default:
        return {
          code: error.code,
          title: `${name} could not be read`,
          detail: `The file is ${what}. ${error.message}`,
          path,
        };
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'unreadable',
    title: `${name} could not be read`,
    detail: `The file is ${what}. ${message}`,
  };
}

/** An error the loader raises itself, already explained (an HTTP status, a folder). */
export class LoadError extends Error {
  constructor(readonly failure: LoadFailure) {
    super(failure.title);
    this.name = 'LoadError';
  }
}
