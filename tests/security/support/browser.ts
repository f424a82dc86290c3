/** Browser steps the security specs share (the sign-in dance itself is in tests/support/walk.ts). */
import { expect, type Page } from '@playwright/test';

/** Step 3 or 4: clicks, then waits for the new exchange of that step. */
export async function addExchange(page: Page, step: 'token' | 'me', click: () => Promise<void>): Promise<void> {
	const before = await page.getByTestId(`exchange-${step}`).count();
	await click();
	await expect(page.getByTestId(`exchange-${step}`)).toHaveCount(before + 1);
}
