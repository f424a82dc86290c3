/** Brings a recorded exchange on the page into view and moves focus to it, so a screen reader reads it next. */
import { exchangeElementId } from './sequence';

export function showExchange(exchangeId: string): boolean {
	const element = document.getElementById(exchangeElementId(exchangeId));
	if (!element) return false;
	const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
	element.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
	element.focus({ preventScroll: true });
	return true;
}
