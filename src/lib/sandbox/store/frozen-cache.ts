/**
 * A cache of frozen objects for what the store serves from memory: this process is the database's only writer,
 * so an object read once stays true until a write of the store drops it. Frozen, a cached object cannot be
 * changed by one caller behind the next one's back.
 */
function deepFreeze<T extends object>(value: T): T {
	for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') deepFreeze(inner as object);
	return Object.freeze(value);
}

export interface FrozenCache<K, V> {
	/** The cached object, or the loaded one (then frozen and remembered); undefined for an unknown key. */
	get(key: K): V | undefined;
	delete(key: K): void;
	clear(): void;
}

export function frozenCache<K, V extends object>(load: (key: K) => V | undefined): FrozenCache<K, V> {
	const cached = new Map<K, V>();
	return {
		get(key) {
			const known = cached.get(key);
			if (known) return known;
			const value = load(key);
			if (value === undefined) return undefined;
			// Unknown keys are not remembered: anyone can send any number of them.
			const frozen = deepFreeze(value);
			cached.set(key, frozen);
			return frozen;
		},
		delete: (key) => void cached.delete(key),
		clear: () => cached.clear()
	};
}
