/**
 * Brings a recorded exchange on the page into view and moves focus to it, so a screen reader reads it next. The
 * jump is instant: a smooth scroll keeps the page moving under the next click for half a second.
 */
import { exchangeElementId } from '../sequence';

export function showExchange(exchangeId: string): boolean {
	const element = document.getElementById(exchangeElementId(exchangeId));
	if (!element) return false;
	element.scrollIntoView({ block: 'start' });
	element.focus({ preventScroll: true });
	return true;
}
