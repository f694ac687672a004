// The loader's Web Worker: parsing and importing happen here, off the page's
// main thread (issue 22: the page never blocks more than 50 ms).
import { createLoader } from './loader.js';
import type { LoadMessage, LoadRequest } from './protocol.js';

const scope = self as unknown as {
  postMessage(message: LoadMessage): void;
  onmessage: ((event: MessageEvent<LoadRequest>) => void) | null;
};
const loader = createLoader((message) => scope.postMessage(message));
scope.onmessage = (event) => void loader.handle(event.data);
