import { fail, redirect } from '@sveltejs/kit';
import { config } from '$lib/server/config';
import {
	advanceClockBy,
	advanceClockTo,
	panelState,
	recentRequests,
	resetSandbox,
	sandboxOff,
	saveClientForm,
	saveUserForm,
	setClientKey,
	setUserDeletion
} from '$lib/server/panel';
import { logInAsSandboxAdmin, sandboxAdminAccess } from '$lib/server/sandbox-admin';
import { services } from '$lib/server/services';
import type { SandboxStore } from '$lib/sandbox/store';
import type { Feedback, PanelForm } from '$lib/view/panel';
import type { Actions, PageServerLoad, RequestEvent } from './$types';

export const load: PageServerLoad = async (event) => {
	// guardSandboxAdmin (hooks) has answered 404 when administration is off; nothing is shown without access.
	const access = await sandboxAdminAccess(event);
	if (access !== 'allowed') return { access, sandbox: null };
	const { sandbox } = await services();
	if (!sandbox) return { access, sandbox: null };
	return {
		access,
		sandbox: { ...panelState(sandbox.store), authUrl: sandbox.authUrl, accountsUrl: sandbox.accountsUrl, log: recentRequests(sandbox.store) }
	};
};

/** A form action: read the form, run the panel's logic, answer its feedback (a failure as a 4xx, never a 5xx). */
function panelAction(form: PanelForm, run: (store: SandboxStore, data: FormData) => Feedback) {
	return async ({ request }: RequestEvent) => {
		const { sandbox } = await services();
		if (!sandbox) return fail(409, sandboxOff(form));
		const data = await request.formData().catch(() => null);
		if (!data) return fail(400, { form, ok: false, message: 'The form could not be read; reload the page and try again.', fields: {} } satisfies Feedback);
		const feedback = run(sandbox.store, data);
		return feedback.ok ? feedback : fail(400, feedback);
	};
}

export const actions = {
	/** The admin token, given once per session (SANDBOX_ADMIN_TOKEN); the panel then shows and changes the sandbox. */
	login: async (event) => {
		const data = await event.request.formData().catch(() => null);
		const token = data?.get('token');
		if (typeof token !== 'string' || !(await logInAsSandboxAdmin(event, token))) {
			return fail(403, { form: 'login', ok: false, message: 'That is not the admin token. Ask the operator for SANDBOX_ADMIN_TOKEN.', fields: {} } satisfies Feedback);
		}
		redirect(303, '/sandbox');
	},
	saveClient: panelAction('client', saveClientForm),
	setClientKey: panelAction('client-key', setClientKey),
	saveUser: panelAction('user', saveUserForm),
	setUserDeletion: panelAction('user-deletion', setUserDeletion),
	advanceBy: panelAction('clock', advanceClockBy),
	advanceTo: panelAction('clock', advanceClockTo),
	reset: panelAction('reset', (store, data) => resetSandbox(store, config().publicOrigin, data))
} satisfies Actions;
