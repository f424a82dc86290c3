/** The two sizes every page behaviour is held at, and the accessibility check the page specs share. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const VIEWPORTS = [
	{ name: 'laptop', width: 1280, height: 800 },
	{ name: 'phone', width: 390, height: 844 }
] as const;

/** axe's serious and critical violations on the page, one line each (empty when clean). */
export async function seriousViolations(page: Page): Promise<string[]> {
	const { violations } = await new AxeBuilder({ page }).analyze();
	return violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}
