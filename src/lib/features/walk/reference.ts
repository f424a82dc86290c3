/**
 * The reference page's server data: the curl examples, written for this server's sandbox (its real addresses and
 * the demo client's redirect URI), with the demo client's secret they read from CLIENT_SECRET (a public test value
 * shipped with the sandbox), or none when the sandbox is turned off; and the interface document's text.
 */
import { FIXTURE_CLIENTS } from '$lib/sandbox/fixtures';
import { curlExamples, type CurlExample } from '$lib/features/scenarios/pure';
import { config } from '../../platform/config';
import { services } from '../../platform/services';
import { interfaceDocument, type DocumentSection } from './interface-document';

export interface ReferenceData {
	curlExamples: Record<string, CurlExample> | null;
	demoClient: { id: string; secret: string } | null;
	/** The interface document's own text, section by section. */
	document: DocumentSection[];
}

export async function loadReferencePage(): Promise<ReferenceData> {
	const document = interfaceDocument();
	if (!(await services()).sandbox) return { curlExamples: null, demoClient: null, document };
	const { sandbox, publicOrigin } = config();
	const demo = FIXTURE_CLIENTS[0]!;
	const redirectUri = `${publicOrigin}${demo.redirect_path}`;
	return { curlExamples: Object.fromEntries(curlExamples({ ...sandbox, redirectUri })), demoClient: { id: demo.client_id, secret: demo.client_secret }, document };
}
