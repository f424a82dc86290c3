/**
 * A Map kept to its `limit` most recently set keys, for the in-memory caches of every layer (it imports nothing).
 * A Map iterates in insertion order, so setting a key again (delete, then set) makes it the newest, and the first
 * key is the one to forget.
 */
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
	map.delete(key);
	map.set(key, value);
	while (map.size > limit) map.delete(map.keys().next().value!);
}
