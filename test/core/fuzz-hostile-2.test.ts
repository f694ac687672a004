// The other half of the hostile-shape corpus's formats (`HOSTILE_SECOND_FILE`;
// fuzz-hostile.test.ts has the rest): two files, so that `npm run
// fuzz:hostile` runs the full sizes two at a time.
import { HOSTILE_SECOND_FILE, describeHostileFormats } from './helpers/hostile-pipeline.js';

describeHostileFormats(HOSTILE_SECOND_FILE, 'test/core/fuzz-hostile-2.test.ts');
