/**
 * A streamed NDJSON answer (the /scenarios runs, the live page's app check): `run` sends each line as it happens.
 * A browser that went away stops the sending; `closed` says so, for a run that should stop with it (the app check's
 * Chromium), while others go on to their end. `encode` writes one line (JSON by default).
 */
export function ndjsonResponse<Line>(
	run: (send: (line: Line) => void, closed: AbortSignal) => Promise<void>,
	encode: (line: Line) => string = (line) => JSON.stringify(line)
): Response {
	const encoder = new TextEncoder();
	const gone = new AbortController();
	let open = true;
	const stream = new ReadableStream<Uint8Array>({
		async start(controller) {
			const send = (line: Line) => {
				if (!open) return;
				try {
					controller.enqueue(encoder.encode(`${encode(line)}\n`));
				} catch {
					open = false; // the browser went away
					gone.abort();
				}
			};
			await run(send, gone.signal);
			if (open) controller.close();
		},
		// The server cancels the body when the browser's connection closes (a closed page, a fetch aborted).
		cancel() {
			open = false;
			gone.abort();
		}
	});
	return new Response(stream, {
		headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }
	});
}
