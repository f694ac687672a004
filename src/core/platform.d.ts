/**
 * The web-platform globals the core may use. Each exists in every runtime skein
 * supports (browsers, web workers, Node >= 20), but none is part of the ES2022
 * lib, so the core's tsconfig (`lib: ["ES2022"]`, no DOM) declares them here.
 * Anything not listed (document, window, process, Buffer, ...) fails the core
 * typecheck. Add a global here only if it exists in all three runtimes.
 */

declare function queueMicrotask(callback: () => void): void;
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  readonly encoding: string;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}

declare class TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
}
