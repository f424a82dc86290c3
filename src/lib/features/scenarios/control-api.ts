/** The sandbox control API (`/sandbox/*` on the accounts host): one call, and what its answer says went wrong. */
import type { RecordedExchange, StepId } from '$lib/flow/exchange';
import { send, type OutboundRequest } from '$lib/platform/outbound/outbound';
import { USER_AGENT } from '$lib/platform/outbound/requests';
import type { World } from './world';
import { jsonParse } from '$lib/http/json';

export type ControlAnswer = { exchange: RecordedExchange; status: number | null; body: Record<string, unknown> };

/**
 * One call to the sandbox control API, through `send` like every other request. Once the run has its workspace,
 * the call carries that workspace's key (all such a call needs) and acts on it alone; before, it carries the admin
 * token, if any, as a call that administers the sandbox must, and on the explorer's own sandbox its internal-work
 * credential, so creating the run's workspace spends no visitor's allowance.
 */
export async function control(
	world: World,
	path: string,
	body: object | null,
	step: StepId,
	label: string,
	method: 'GET' | 'POST' | 'DELETE' = body === null ? 'GET' : 'POST'
): Promise<ControlAnswer> {
	const { adminToken, internalWork } = world.ctx;
	const credential = world.workspace
		? [{ name: 'X-Sandbox-Workspace-Key', value: world.workspace.key }]
		: [
				...(adminToken ? [{ name: 'Authorization', value: `Bearer ${adminToken}` }] : []),
				...(internalWork ? [{ name: 'X-Sandbox-Internal-Work', value: internalWork }] : [])
			];
	const request: OutboundRequest = {
		method,
		url: `${world.ctx.accountsUrl.replace(/\/+$/, '')}${path}`,
		headers: [
			{ name: 'User-Agent', value: USER_AGENT },
			{ name: 'Accept', value: 'application/json' },
			...(body === null ? [] : [{ name: 'Content-Type', value: 'application/json' }]),
			...credential
		],
		body: body === null ? null : JSON.stringify(body)
	};
	const exchange = await send(request, { config: world.ctx.config, step, label });
	return { exchange, status: exchange.response?.status ?? null, body: parseObject(exchange.response?.body) };
}

function parseObject(text: string | undefined): Record<string, unknown> {
	try {
		const value: unknown = jsonParse(text ?? '');
		return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

export function controlProblem(answer: ControlAnswer, what: string, expectedStatus = 200): string | null {
	if (answer.status === expectedStatus) return null;
	const why = answer.exchange.failure?.message ?? (typeof answer.body['error'] === 'string' ? answer.body['error'] : `status ${answer.status}`);
	return `The sandbox control API could not ${what}: ${why}`;
}

export const stringOr = (value: unknown) => (typeof value === 'string' ? value : undefined);
