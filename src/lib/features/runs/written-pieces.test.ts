import { describe, expect, it } from 'vitest';
import type { RedactedExchange } from '$lib/features/runs/pure/redact/redact';
import { WrittenPieces } from './written-pieces';

const pieces = (n: number) => Array.from({ length: n }, () => ({}) as RedactedExchange);

describe('WrittenPieces', () => {
	it('gives back what was last remembered for a run, until the run is forgotten', () => {
		const written = new WrittenPieces();
		const first = pieces(2);
		const second = pieces(3);
		written.remember('a', first);
		written.remember('a', second);
		expect(written.get('a')).toBe(second);
		written.forget('a');
		expect(written.get('a')).toBeUndefined();
	});

	it('forgets the least recently saved run beyond its capacity', () => {
		const written = new WrittenPieces(2);
		written.remember('a', pieces(1));
		written.remember('b', pieces(1));
		written.remember('a', pieces(1));
		written.remember('c', pieces(1));
		expect(written.get('b')).toBeUndefined();
		expect(written.get('a')).toBeDefined();
		expect(written.get('c')).toBeDefined();
	});

	it("keeps no run of more than 100 exchanges (an import is saved once), and drops what it held of that run", () => {
		const written = new WrittenPieces();
		written.remember('a', pieces(3));
		written.remember('a', pieces(101));
		expect(written.get('a')).toBeUndefined();
	});
});
