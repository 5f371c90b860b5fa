// Small runtime type checks for the host↔webview protocol. Hand-written on purpose: an analysis of a
// 10,000-message transcript is checked on every threshold change, so the checks must cost well under a
// millisecond per thousand messages and allocate nothing on success (a schema library's parse copies values).

/** Returns null when `value` fits, else the path and what was expected. `T` is the type the check proves. */
export type Check<T> = ((value: unknown, path: string) => string | null) & { readonly __type?: T };

function describe(value: unknown): string {
  if (value === null) return 'null';
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
  bool: make<boolean>((x, p) =>
    typeof x === 'boolean' ? null : `${p}: expected true or false, got ${describe(x)}`,
  ),
  literal<L extends string | number>(lit: L): Check<L> {
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
  optional<T>(inner: Check<T>): Check<T | undefined> {
    return make((x, p) => (x === undefined ? null : inner(x, p)));
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
  object<S extends Record<string, Check<unknown>>>(
    shape: S,
  ): Check<{ [K in keyof S]: S[K] extends Check<infer T> ? T : never }> {
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
};

/** Runs a check from the root; `name` starts the reported path. */
export function check<T>(c: Check<T>, value: unknown, name: string): string | null {
  return c(value, name);
}
