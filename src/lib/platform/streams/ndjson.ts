/**
 * A streamed NDJSON answer (the /scenarios runs, the live page's app check): `run` sends each line as it happens;
 * a browser that went away stops the sending, never the run. `encode` writes one line (JSON by default).
 */
export function ndjsonResponse<Line>(run: (send: (line: Line) => void) => Promise<void>, encode: (line: Line) => string = (line) => JSON.stringify(line)): Response {
	const encoder = new TextEncoder();
	const stream = new ReadableStream<Uint8Array>({
		async start(controller) {
			let open = true;
			const send = (line: Line) => {
				if (!open) return;
				try {
					controller.enqueue(encoder.encode(`${encode(line)}\n`));
				} catch {
					open = false; // the browser went away; the run goes on to its end
				}
			};
			await run(send);
			if (open) controller.close();
		}
	});
	return new Response(stream, {
		headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }
	});
}
