/**
 * The reference page's server data: the curl examples, written for this server's sandbox (its real addresses and
 * the demo client's redirect URI), or none when the sandbox is turned off.
 */
import { FIXTURE_CLIENTS } from '$lib/sandbox/fixtures';
import { curlExamples, type CurlExample } from '$lib/features/scenarios/pure';
import { config } from '../../platform/config';
import { services } from '../../platform/services';

export async function loadReferencePage(): Promise<{ curlExamples: Record<string, CurlExample> | null }> {
	if (!(await services()).sandbox) return { curlExamples: null };
	const { sandbox, publicOrigin } = config();
	const redirectUri = `${publicOrigin}${FIXTURE_CLIENTS[0]!.redirect_path}`;
	return { curlExamples: Object.fromEntries(curlExamples({ ...sandbox, redirectUri })) };
}
