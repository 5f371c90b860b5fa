// The real sessions kept beside the repository (../shared/fixtures/, no licence to ship them): tests and benchmarks
// read them where they are, never copy them. Absent on a machine without them; callers skip what is missing.
import { join } from 'node:path';

export const SHARED_FIXTURES = join(import.meta.dirname, '..', '..', 'shared', 'fixtures');
export const REAL_LONG_DIR = join(SHARED_FIXTURES, 'real-long');

/** The small real transcripts copied into the repository (test/fixtures/real/), by format folder. */
export const REAL_FIXTURES = join(import.meta.dirname, 'fixtures', 'real');

/** Real sessions of the agents whose files carry no licence to ship (Cline, Roo Code, Kilo Code tasks: one folder
 * per task, as the agent lays it out), read where they are: `CONTEXT_LENS_AGENT_SESSIONS`, else
 * ../shared/fixtures/real-agents. Tests and benchmarks skip what is missing (docs/testing.md). */
export const AGENT_SESSIONS = process.env.CONTEXT_LENS_AGENT_SESSIONS || join(SHARED_FIXTURES, 'real-agents');
