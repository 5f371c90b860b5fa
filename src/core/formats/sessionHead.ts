// Helpers of the adapters' `session.head`: a prompt's text from a message's content, flattened for a picker's row.
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((c) => (c && typeof c === 'object' && typeof c.text === 'string' ? c.text : ''))
      .filter(Boolean)
      .join(' ');
  return '';
}

export const flatPrompt = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 200);
