// The other half of the hostile-shape corpus's formats (fuzz-hostile.test.ts
// has the first): two files, so that `npm run fuzz:hostile` runs the full
// sizes two at a time.
import { HOSTILE_FORMATS } from '../../src/core/generate/hostile.js';
import { describeHostileFormats } from './helpers/hostile-pipeline.js';

describeHostileFormats(
  HOSTILE_FORMATS.filter((_, i) => i % 2 === 1),
  'test/core/fuzz-hostile-2.test.ts',
);
