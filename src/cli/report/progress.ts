// `report`'s progress on stderr (never through the output: a table, JSON or CSV may be piped on).
/** Progress on stderr: a bar redrawn in place on a terminal, a line every few seconds otherwise. */
export class Progress {
  private last = 0;
  private readonly tty = Boolean(process.stderr.isTTY);
  private readonly start = performance.now();
  constructor(
    private readonly totalFiles: number,
    private readonly totalBytes: number,
  ) {}

  update(files: number, bytes: number): void {
    const now = performance.now();
    if (now - this.last < (this.tty ? 100 : 5000) && files < this.totalFiles) return;
    this.last = now;
    const share = this.totalBytes > 0 ? bytes / this.totalBytes : 1;
    const width = 24;
    const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
    const line = `report [${bar}] ${files}/${this.totalFiles} sessions, ${(bytes / 1e6).toFixed(0)}/${(this.totalBytes / 1e6).toFixed(0)} MB, ${this.seconds()} s`;
    if (this.tty) process.stderr.write(`\r${line}\x1b[K`);
    else if (files < this.totalFiles) process.stderr.write(`${line}\n`);
  }

  done(): void {
    if (this.tty) process.stderr.write('\r\x1b[K');
  }

  seconds(): string {
    return ((performance.now() - this.start) / 1000).toFixed(1);
  }
}
