import { describe, expect, it } from 'vitest';
import type { RedactedExchange } from '$lib/features/runs/pure/redact/redact';
import { WrittenPieces } from './written-pieces';

const pieces = (n: number) => Array.from({ length: n }, () => ({}) as RedactedExchange);

describe('WrittenPieces', () => {
	it('gives back what was last remembered for a run saved more than once, until the run is forgotten', () => {
		const written = new WrittenPieces();
		const second = pieces(3);
		written.remember('a', pieces(2));
		written.remember('a', second);
		expect(written.get('a')).toBe(second);
		written.forget('a');
		expect(written.get('a')).toBeUndefined();
	});

	it('keeps nothing of a run saved once (an import), and all of a walk saved at every step, however long', () => {
		const written = new WrittenPieces();
		written.remember('import', pieces(3000));
		expect(written.get('import')).toBeUndefined();
		let walk = pieces(1);
		written.remember('walk', walk);
		for (let n = 2; n <= 300; n++) written.remember('walk', (walk = [...walk, ...pieces(1)]));
		expect(written.get('walk')).toBe(walk);
	});

	it('forgets the least recently saved run beyond its capacity', () => {
		const written = new WrittenPieces(2);
		for (const id of ['a', 'b', 'a', 'b', 'a', 'c', 'c']) written.remember(id, pieces(1));
		expect(written.get('b')).toBeUndefined();
		expect(written.get('a')).toBeDefined();
		expect(written.get('c')).toBeDefined();
	});
});
