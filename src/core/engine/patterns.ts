// Tool-name patterns (SPEC §2): a pattern ending in `*` matches by prefix; any other matches the name exactly.

/** Why a pattern is malformed, or null when it is fine. A `*` anywhere but the end cannot mean anything here. */
export function patternProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string') return 'must be a string';
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.trim() !== pattern) return 'must not start or end with spaces';
  const star = pattern.indexOf('*');
  if (star !== -1 && star !== pattern.length - 1)
    return '"*" is only allowed as the last character (prefix match)';
  return null;
}

export type ToolMatcher = (toolName: string) => boolean;

/** One matcher for a list of patterns: exact names in a Set, prefixes tested in turn. */
export function toolMatcher(patterns: readonly string[]): ToolMatcher {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of patterns) {
    if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
    else exact.add(p);
  }
  return (name) => exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
}
