/**
 * Issue 5: the sandbox control panel as a person uses it. Every change is checked against the sandbox's own state
 * (GET /sandbox/state), not only against what the page shows.
 */
import { expect, test } from '@playwright/test';
import { ACCOUNTS_HOST, open, resetSandbox } from './support/walk';

interface SandboxState {
	today: string;
	clients: { client_id: string; verification_key: string }[];
	users: { login: string; sbid_number: string; deletion_requested: boolean; verifications: { supergroup: string; expires_on: string }[] }[];
}

async function sandboxState(): Promise<SandboxState> {
	return (await (await fetch(`${ACCOUNTS_HOST}/sandbox/state`)).json()) as SandboxState;
}

test.afterEach(resetSandbox);

test('create a user with a verification, then edit them: the sandbox holds exactly what the form said', async ({ page }) => {
	await open(page, '/sandbox');
	const form = page.getByTestId('user-form');
	await form.getByLabel('Login').fill('panel-user@example.com');
	await form.getByLabel('Password').fill('secret-pass');
	await form.getByRole('button', { name: 'Add verification' }).click();
	await form.getByLabel(/^Supergroup/).selectOption('graduate');
	await form.getByLabel(/^Expires on/).fill('2031-01-01');
	await form.getByRole('button', { name: 'Create user' }).click();
	await expect(page.getByTestId('panel-feedback').first()).toBeVisible();

	const row = page.getByTestId('users-table').getByRole('row', { name: /panel-user@example\.com/ });
	await expect(row).toContainText('graduate');
	const created = (await sandboxState()).users.find((u) => u.login === 'panel-user@example.com');
	expect(created?.verifications).toEqual([{ supergroup: 'graduate', expires_on: '2031-01-01' }]);
	expect(created?.sbid_number).toMatch(/^[A-Za-z0-9]{7}$/);
	await expect(row).toContainText(created!.sbid_number);

	await row.getByRole('button', { name: /Edit/ }).click();
	const editing = page.getByTestId('user-form');
	await expect(editing.getByLabel('Login')).toHaveValue('panel-user@example.com');
	await editing.getByLabel('Account deletion requested').check();
	await editing.getByRole('button', { name: 'Save user' }).click();
	await expect.poll(async () => (await sandboxState()).users.find((u) => u.login === 'panel-user@example.com')?.deletion_requested).toBe(true);
	// Editing keeps the account: same sbid_number, same verification.
	const edited = (await sandboxState()).users.find((u) => u.login === 'panel-user@example.com');
	expect(edited?.sbid_number).toBe(created!.sbid_number);
	expect(edited?.verifications).toEqual(created!.verifications);
});

test('a user without a login is refused with the reason at the field, and nothing is created', async ({ page }) => {
	await open(page, '/sandbox');
	const before = (await sandboxState()).users.length;
	const form = page.getByTestId('user-form');
	await form.getByLabel('Password').fill('secret-pass');
	await form.getByRole('button', { name: 'Create user' }).click();
	await expect(form.getByLabel('Login')).toHaveAttribute('aria-invalid', 'true');
	await expect(page.getByRole('alert').first()).toBeVisible();
	expect((await sandboxState()).users.length).toBe(before);
});

test('the me.json key switch of a client and the clock change the sandbox', async ({ page }) => {
	await open(page, '/sandbox');
	await page.getByRole('group', { name: 'me.json verification key for demo-client' }).getByRole('button', { name: 'group', exact: true }).click();
	await expect.poll(async () => (await sandboxState()).clients.find((c) => c.client_id === 'demo-client')?.verification_key).toBe('group');
	await expect(page.getByRole('group', { name: 'me.json verification key for demo-client' }).getByRole('button', { name: 'group', exact: true })).toHaveAttribute('aria-pressed', 'true');

	const today = (await sandboxState()).today;
	await page.getByRole('button', { name: 'Advance 1 day' }).click();
	const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
	await expect(page.getByTestId('sandbox-today')).toHaveText(tomorrow);
	expect((await sandboxState()).today).toBe(tomorrow);
});
