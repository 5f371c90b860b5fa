// What one engine run hands the host, in a module of its own: the session keeps results and keptAnalyses.ts
// caches them, and each importing the type from the other made the two files a circle.
import type { Analysis } from '../core/analysisTypes';
import type { Rewrite } from '../core/model';

export interface EngineResult {
  analysis: Analysis;
  rewrites: Rewrite[];
}
