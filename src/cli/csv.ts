// The one escaping helper of the CSV target (`report --csv`). A cell holds a transcript's text (a first prompt, a
// project's folder name), and a spreadsheet reads a cell that starts with = + - or @ as a formula, also after
// leading spaces, and splits unquoted cells at its locale's separator: `;` where the decimal mark is a comma (de, fr,
// nl…), so `note;=cmd|' /C calc'!A0` became a formula cell there, quotes or not.

/** A formula start, after any whitespace, at the start of the text or after any character a spreadsheet may split
 * cells at (`,` `;` tab, line breaks): only a cell's start is quoted-proof, and a `;` reader splits `a,"b;=c"` at the
 * `;`, the quote being in the middle of its cell. */
const FORMULA_START = /(^|[,;\t\r\n])(?=\s*[=+\-@])/g;
/** Characters that make a cell need quotes: either separator, the quote, line breaks, tab. */
const NEEDS_QUOTES = /[,;"\n\r\t]/;

/** One CSV cell: numbers as they are; in text, every formula start (at its start, or after a separator a spreadsheet
 * may split at) behind an apostrophe, shown and never run; quoted when it holds a separator, a quote, a line break
 * or a tab. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = value.replace(FORMULA_START, "$1'");
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of cells. */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(',');
}
