import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from './har-import-thread';

describe("the HAR import worker's protocol", () => {
	const channels: MessageChannel[] = [];
	afterEach(() => {
		for (const channel of channels.splice(0)) channel.port1.close();
	});

	function worker() {
		const channel = new MessageChannel();
		channels.push(channel);
		serve(channel.port1);
		const answers: { id: number; kind: string; result?: { ok: boolean } }[] = [];
		channel.port2.on('message', (message) => answers.push(message));
		const settled = (id: number) =>
			new Promise<(typeof answers)[number]>((resolve) => {
				const check = () => {
					const found = answers.find((a) => a.id === id && a.kind !== 'read');
					if (found) resolve(found);
					else setTimeout(check, 10);
				};
				check();
			});
		return { post: (message: unknown) => channel.port2.postMessage(message), settled };
	}
	const chunk = (text: string) => new TextEncoder().encode(text);

	it('ends an import whose upload stopped before its end, letting go of what it read', async () => {
		const { post, settled } = worker();
		post({ id: 1, kind: 'start', options: {} });
		post({ id: 1, kind: 'chunk', chunk: chunk('{"log":{"version":"1.2","entries":[') });
		post({ id: 1, kind: 'cancel' });
		const answer = await settled(1);
		expect(answer.kind).toBe('done');
		expect(answer.result?.ok).toBe(false);
	});

	it('reads an upload that ends, and answers each import by its id', async () => {
		const { post, settled } = worker();
		post({ id: 2, kind: 'start', options: {} });
		post({ id: 3, kind: 'start', options: {} });
		post({ id: 2, kind: 'chunk', chunk: chunk('{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[]}}') });
		post({ id: 2, kind: 'end' });
		post({ id: 3, kind: 'cancel' });
		expect((await settled(2)).kind).toBe('done');
		expect((await settled(3)).result?.ok).toBe(false);
	});
});
