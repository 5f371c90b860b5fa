// Small runtime type checks for the host↔webview protocol, from which the messages' TypeScript types are derived
// (`Infer`): a message is declared once, as its check. Hand-written on purpose: an analysis of a 10,000-message
// transcript is checked on every threshold change, so the checks must stay cheap and allocate nothing on success
// (a schema library's parse copies values).

/** Returns null when `value` fits, else the path and what was expected. `T` is the type the check proves. */
export type Check<T> = ((value: unknown, path: string) => string | null) & { readonly __type?: T };

declare const OPTIONAL: unique symbol;
/** A check whose field may be left out: `v.object` makes its key optional in the derived type. */
export type OptionalCheck<T> = Check<T | undefined> & { readonly [OPTIONAL]: true };

/** The type a check proves. */
export type Infer<C> = C extends Check<infer T> ? T : never;

type OptionalKeys<S> = { [K in keyof S]: S[K] extends { readonly [OPTIONAL]: true } ? K : never }[keyof S];
type Flat<T> = { [K in keyof T]: T[K] } & {};
/** The object a shape of checks proves: a field checked by `v.optional` may be absent. */
export type ObjectOf<S> = Flat<
  { [K in keyof S as K extends OptionalKeys<S> ? never : K]: Infer<S[K]> } & {
    [K in keyof S as K extends OptionalKeys<S> ? K : never]?: Exclude<Infer<S[K]>, undefined>;
  }
>;

/** Whether A and B are the same object type at the top level: the same keys, each side assignable to the other.
 * A field added to one and not the other fails to compile where a check claims a declared type (`exactly`). */
export type Same<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? [A] extends [B]
      ? [B] extends [A]
        ? true
        : false
      : false
    : false
  : false;

/** `check` as the check of `T`, compiled only when the type it proves is `T` field for field (`Same`): the check
 * cannot forget a field that the declared type gains. */
export const exactly =
  <T>() =>
  <C extends Check<unknown>>(check: C & (Same<Infer<C>, T> extends true ? unknown : never)): Check<T> =>
    check as unknown as Check<T>;

/** A table of message checks keyed by their `type`: it compiles only when each key is its message's type. */
export type KeyedByType<R extends { [K in keyof R]: Check<{ type: K }> }> = R;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

const make = <T>(fn: (value: unknown, path: string) => string | null): Check<T> => fn as Check<T>;

export const v = {
  string: make<string>((x, p) =>
    typeof x === 'string' ? null : `${p}: expected a string, got ${describe(x)}`,
  ),
  number: make<number>((x, p) =>
    typeof x === 'number' && Number.isFinite(x) ? null : `${p}: expected a finite number, got ${describe(x)}`,
  ),
  int: make<number>((x, p) =>
    Number.isSafeInteger(x) ? null : `${p}: expected an integer, got ${describe(x)}`,
  ),
  /** Bytes (a typed array crosses to the view as it is, not serialised); from whichever realm posted them. */
  bytes: make<Uint8Array>((x, p) =>
    Object.prototype.toString.call(x) === '[object Uint8Array]'
      ? null
      : `${p}: expected bytes, got ${describe(x)}`,
  ),
  bool: make<boolean>((x, p) =>
    typeof x === 'boolean' ? null : `${p}: expected true or false, got ${describe(x)}`,
  ),
  literal<const L extends string | number>(lit: L): Check<L> {
    return make((x, p) => (x === lit ? null : `${p}: expected ${JSON.stringify(lit)}, got ${describe(x)}`));
  },
  oneOf<const L extends readonly (string | number)[]>(options: L): Check<L[number]> {
    const set = new Set<unknown>(options);
    return make((x, p) =>
      set.has(x)
        ? null
        : `${p}: expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}, got ${describe(x)}`,
    );
  },
  nullable<T>(inner: Check<T>): Check<T | null> {
    return make((x, p) => (x === null ? null : inner(x, p)));
  },
  optional<T>(inner: Check<T>): OptionalCheck<T> {
    return make((x, p) => (x === undefined ? null : inner(x, p))) as OptionalCheck<T>;
  },
  array<T>(inner: Check<T>): Check<T[]> {
    return make((x, p) => {
      if (!Array.isArray(x)) return `${p}: expected an array, got ${describe(x)}`;
      for (let i = 0; i < x.length; i++) {
        const e = inner(x[i], `${p}[${i}]`);
        if (e) return e;
      }
      return null;
    });
  },
  object<S extends Record<string, Check<unknown>>>(shape: S): Check<ObjectOf<S>> {
    const keys = Object.keys(shape);
    return make((x, p) => {
      if (typeof x !== 'object' || x === null || Array.isArray(x))
        return `${p}: expected an object, got ${describe(x)}`;
      const o = x as Record<string, unknown>;
      for (const k of keys) {
        const e = shape[k](o[k], `${p}.${k}`);
        if (e) return e;
      }
      return null;
    });
  },
  union<const C extends readonly Check<unknown>[]>(
    options: C,
  ): Check<C[number] extends Check<infer T> ? T : never> {
    return make((x, p) => {
      for (const o of options) if (o(x, p) === null) return null;
      return `${p}: unexpected ${describe(x)}`;
    });
  },
  /** `inner`, then a rule across its fields (`rule` sees a value `inner` accepted). */
  refine<T>(inner: Check<T>, rule: (value: T, path: string) => string | null): Check<T> {
    return make((x, p) => inner(x, p) ?? rule(x as T, p));
  },
};

/** Runs a check from the root; `name` starts the reported path. */
export function check<T>(c: Check<T>, value: unknown, name: string): string | null {
  return c(value, name);
}
