// The real sessions kept beside the repository (../shared/fixtures/, no licence to ship them): tests and benchmarks
// read them where they are, never copy them. Absent on a machine without them; callers skip what is missing.
import { join } from 'node:path';

export const SHARED_FIXTURES = join(import.meta.dirname, '..', '..', 'shared', 'fixtures');
export const REAL_LONG_DIR = join(SHARED_FIXTURES, 'real-long');

/** The small real transcripts copied into the repository (test/fixtures/real/), by format folder. */
export const REAL_FIXTURES = join(import.meta.dirname, 'fixtures', 'real');
