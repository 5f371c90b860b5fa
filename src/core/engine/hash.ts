// SHA-256 of content, as SPEC §4 (CCR keys, 24 hex digits) and §7 (event hashes, 12 hex digits) define them.
// node:crypto is native and ~20× faster than a JS SHA-256 on the multi-MB results a session holds; the engine
// runs in the extension host and the CLI, both Node.
import { createHash } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SPEC §7: the first 12 hex digits of SHA-256 of the old/new content. */
export function eventHash(text: string): string {
  return sha256Hex(text).slice(0, 12);
}

/** SPEC §4: CCR store key, the first 24 hex digits of SHA-256 of the original text. */
export function ccrHash(text: string): string {
  return sha256Hex(text).slice(0, 24);
}
