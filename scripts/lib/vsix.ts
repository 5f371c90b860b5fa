// Reads the file list of a .vsix (a ZIP archive) from its central directory, so that `npm run package` prints
// what really went into the package and the tests can check it, without an unzip tool or library.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './editor';

export interface VsixEntry {
  name: string;
  size: number;
  compressedSize: number;
}

const endOfCentralDirectory = 0x06054b50;
const centralDirectoryHeader = 0x02014b50;

export function listVsix(path: string): VsixEntry[] {
  const zip = readFileSync(path);
  // The end record sits in the last 22 bytes plus at most a 64 KiB comment.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === endOfCentralDirectory) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error(`${path}: not a ZIP archive (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: VsixEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== centralDirectoryHeader) {
      throw new Error(`${path}: broken central directory at byte ${at}`);
    }
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({ name, size, compressedSize });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Packages the extension as it is built in dist/ (run `npm run build` first) into `outPath` with @vscode/vsce.
 * --no-dependencies: the bundles are self-contained; .vscodeignore says what else goes in.
 */
export function packageVsix(outPath: string, opts: { quiet?: boolean } = {}): void {
  const vsce = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      // With no repository URL vsce cannot make the README's relative links absolute and refuses to package;
      // kept relative, they resolve against the installed extension (an image under media/ ships with it).
      '--no-rewrite-relative-links',
      '--out',
      outPath,
    ],
    { cwd: repoRoot, stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8' },
  );
  if (vsce.status !== 0) {
    throw new Error(`vsce package failed (exit ${vsce.status}):\n${vsce.stdout ?? ''}${vsce.stderr ?? ''}`);
  }
}
