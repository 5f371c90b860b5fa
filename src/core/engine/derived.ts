// Values derived once per prepared transcript and kept on it, not in module-level maps: they live and die with the
// preparation, and a probe's preparation (prepare.ts) starts with none of them.
import type { PreparedTranscript } from './prepare';

/** One value a preparation may keep: made from it on first use. Declared once, beside the code that reads it. */
export interface Derived<T> {
  readonly name: string;
  readonly make: (prep: PreparedTranscript) => T;
}

export function derived<T>(name: string, make: (prep: PreparedTranscript) => T): Derived<T> {
  return { name, make };
}

/** The derived values of one preparation, by their declaration. */
export class DerivedValues {
  private readonly values = new Map<Derived<unknown>, unknown>();

  of<T>(prep: PreparedTranscript, slot: Derived<T>): T {
    if (this.values.has(slot)) return this.values.get(slot) as T;
    const value = slot.make(prep);
    this.values.set(slot, value);
    return value;
  }
}

/** `slot`'s value for `prep`, made on first use. */
export function derive<T>(prep: PreparedTranscript, slot: Derived<T>): T {
  return prep.derived.of(prep, slot);
}
