import type { FormatId } from '../model';

/** Thrown by `parseTranscript` only when no format fits; says what each format expected and why it said no. */
export class UnrecognizedTranscriptError extends Error {
  constructor(
    readonly rejected: { format: FormatId; reason: string }[],
    readonly expected: { format: FormatId; expected: string }[],
    fileName?: string,
  ) {
    const lines = rejected.map((r) => `  - ${r.format}: ${r.reason}`);
    const wanted = expected.map((e) => `  - ${e.expected}`);
    super(
      // What the file holds first: a notification shows only the start of a long message.
      `${fileName ?? 'the file'} is not a transcript this tool reads.\nWhy each format said no:\n${lines.join('\n')}\nExpected one of:\n${wanted.join('\n')}`,
    );
    this.name = 'UnrecognizedTranscriptError';
  }
}
