// The core pieces <Display> uses, in one place.
export { createMimeRegistry, displayOf, selectMimeType } from '../../core/display/index.js';
