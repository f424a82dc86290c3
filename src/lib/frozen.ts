/** `T` with every property readonly, at any depth: a value shared by reference that no holder may change. */
export type Frozen<T> = T extends (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;
