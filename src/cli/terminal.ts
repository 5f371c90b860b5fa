// Everything the CLI prints goes through here: the one escaping helper of the terminal target. A transcript's strings
// (model names, tool names and ids, record types, agent ids, file names, and the diagnostics that quote them) are
// untrusted, and a terminal runs what they hold: ESC[2J clears the screen, OSC 52 writes the clipboard, OSC 8 makes a
// link, OSC 0 retitles the window, a carriage return or backspaces overwrite what was printed. Every control
// character (C0 and C1, DEL), direction mark, embedding, override and isolate, the byte-order mark and any lone
// surrogate is shown as \uXXXX instead, so that the text reads the same and runs nothing.

// C0 (but line feed and tab, which `terminalLines` keeps), DEL, C1, bidi controls, the byte-order mark.
const CONTROLS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Line and paragraph breaks: inside one value they would start a line of the value's own making. */
const BREAKS = /[\t\n\u0085\u2028\u2029]/g;

const shown = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Output of our own making, whole lines of it: line feeds and tabs kept, every other control shown. */
export function terminalLines(text: string): string {
  return text.replace(CONTROLS, shown).replace(LONE_SURROGATE, shown);
}

/** A value from a file, to print within a line: as `terminalLines`, and its line breaks and tabs shown too. */
export function terminalText(value: unknown): string {
  return terminalLines(typeof value === 'string' ? value : String(value)).replace(BREAKS, shown);
}

/** Writes to standard output through the terminal's helper. */
export function print(text: string): void {
  process.stdout.write(terminalLines(text));
}

/** Writes to standard error through the terminal's helper. */
export function printError(text: string): void {
  process.stderr.write(terminalLines(text));
}
