import { json } from '@sveltejs/kit';
import { storesHealth } from '$lib/platform/services';

/** 200 while the explorer can use its databases; 503 naming each one it cannot (damaged since it started). */
export const GET = async () => {
	const health = await storesHealth();
	if (!health.ok) return json({ ok: false, host: 'explorer', problems: health.problems }, { status: 503 });
	return json({ ok: true, host: 'explorer' });
};
