import { fail, redirect } from '@sveltejs/kit';
import { config } from '$lib/platform/config';
import {
	advanceClockBy,
	panelState,
	recentRequests,
	resetClockToRealTime,
	resetSandbox,
	sandboxOff,
	saveClientForm,
	saveUserForm,
	setClientKey,
	setClockTo,
	setUserDeletion
} from '$lib/features/sandbox-admin/panel';
import { logInAsSandboxAdmin, panelWorkspace, sandboxAdminAccess, workspaceWriteRules } from '$lib/features/sandbox-admin/access';
import { services } from '$lib/platform/services';
import { workspaceSwitcher } from '$lib/features/sandbox-admin/workspace-session';
import type { SandboxWorkspace } from '$lib/sandbox/store';
import type { WriteRules } from '$lib/sandbox/accounts/workspace-writes';
import type { Feedback, PanelForm } from '$lib/view/panel';
import type { Actions, PageServerLoad, RequestEvent } from './$types';

export const load: PageServerLoad = async (event) => {
	// guardSandboxAdmin (hooks) has answered 404 when administration is off; nothing is shown without access.
	const access = await sandboxAdminAccess(event);
	if (access !== 'allowed') return { access, sandbox: null };
	const { sandbox } = await services();
	const shown = await panelWorkspace(event);
	if (!sandbox || !shown) return { access, sandbox: null };
	const { workspace, readOnly } = shown;
	return {
		access,
		workspaces: await workspaceSwitcher(event),
		sandbox: {
			...panelState(workspace),
			readOnly,
			authUrl: sandbox.authUrl,
			accountsUrl: sandbox.accountsUrl,
			// In public mode the default workspace's log is everyone's requests: not shown.
			log: readOnly ? null : recentRequests(workspace)
		}
	};
};

const READ_ONLY = 'The default workspace is read-only on this public sandbox: nothing was changed. Use your own workspace (one click, above) to change things.';

/** A form action: read the form, run the panel's logic, answer its feedback (a failure as a 4xx, never a 5xx). */
function panelAction(form: PanelForm, run: (store: SandboxWorkspace, data: FormData, rules: WriteRules) => Feedback) {
	return async (event: RequestEvent) => {
		const shown = await panelWorkspace(event);
		if (!shown) return fail(404, sandboxOff(form));
		if (shown.readOnly) return fail(403, { form, ok: false, message: READ_ONLY, fields: {} } satisfies Feedback);
		const data = await event.request.formData().catch(() => null);
		if (!data) return fail(400, { form, ok: false, message: 'The form could not be read; reload the page and try again.', fields: {} } satisfies Feedback);
		const feedback = run(shown.workspace, data, workspaceWriteRules());
		return feedback.ok ? feedback : fail(feedback.status ?? 400, feedback);
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
	setClock: panelAction('clock', setClockTo),
	resetClock: panelAction('clock', resetClockToRealTime),
	reset: panelAction('reset', (store, data) => resetSandbox(store, config().publicOrigin, data))
} satisfies Actions;
