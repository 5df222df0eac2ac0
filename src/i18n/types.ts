import type { es } from './es';

/** The same tree of keys as a message catalogue, with any text as values. */
export type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };

/** A complete message catalogue: exactly the keys of the Spanish reference. */
export type Messages = Shape<typeof es>;
