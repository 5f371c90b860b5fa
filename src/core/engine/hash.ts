// SHA-256 of content, as SPEC §4 (CCR keys, 24 hex digits) and §7 (event hashes, 12 hex digits) define them.
// node:crypto is native and far faster than a JS SHA-256 on the multi-MB results a session holds (docs/performance.md);
// the engine runs in the extension host and the CLI, both Node.
import { createHash } from 'node:crypto';

/** Texts at most this long are hashed whenever asked (cheaper than remembering them). */
const REMEMBER_MIN_LENGTH = 256;
/** Bound on the digests remembered. */
const REMEMBERED_MAX = 1_000_000;
/** Digests of long texts, by the text itself (see `rememberedSha256Hex`). */
const digests = new Map<string, string>();

/** SHA-256 of `text` in hex; a long text whose digest is remembered is not hashed again. */
export function sha256Hex(text: string): string {
  return (text.length > REMEMBER_MIN_LENGTH ? digests.get(text) : undefined) ?? hash(text);
}

/**
 * `sha256Hex`, remembering the digest of a long text until `forgetSha256s`. The editor hashes each text of a
 * transcript to key its token count (priming, then every analysis) and the engine hashes every result again for
 * its events: SHA-256 of most of the file each time, where a lookup of the same string costs a pointer
 * comparison. Only where asked: a report over hundreds of sessions in one process would hold every text it read.
 */
export function rememberedSha256Hex(text: string): string {
  if (text.length <= REMEMBER_MIN_LENGTH) return hash(text);
  let digest = digests.get(text);
  if (digest === undefined) {
    digest = hash(text);
    if (digests.size >= REMEMBERED_MAX) digests.clear();
    digests.set(text, digest);
  }
  return digest;
}

/** Lets go of the texts whose digests are remembered (a transcript closed). */
export function forgetSha256s(): void {
  digests.clear();
}

function hash(text: string): string {
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
