/** The site navigation grouped by the job a visitor came to do, and which item a page belongs to. */

export interface NavItem {
	href: string;
	label: string;
}

export interface NavGroup {
	/** Stable id for the group's label element (aria-labelledby). */
	id: string;
	label: string;
	items: readonly NavItem[];
}

export const NAV_GROUPS: readonly NavGroup[] = [
	{
		id: 'nav-learn',
		label: 'Learn the flow',
		items: [
			{ href: '/', label: 'Walk' },
			{ href: '/learn/cancel', label: 'Lesson: cancel' },
			{ href: '/reference', label: 'Reference' }
		]
	},
	{
		id: 'nav-test',
		label: 'Test my app',
		items: [
			{ href: '/sandbox', label: 'Sandbox' },
			// The app check lives on /live/{client}, so it is reached (and marked) through this item.
			{ href: '/live', label: 'Live flows' }
		]
	},
	{
		id: 'nav-support',
		label: 'Support a customer',
		items: [
			{ href: '/check', label: 'Check a link' },
			{ href: '/runs', label: 'Saved runs & import' },
			{ href: '/scenarios', label: 'Scenarios' }
		]
	}
];

/**
 * The href of the nav item a path belongs to: the item itself or a page below it (/live/x is Live flows); none for
 * pages outside the nav. `/` matches only itself, or every page would be the walk.
 */
export function currentNavHref(pathname: string, groups: readonly NavGroup[] = NAV_GROUPS): string | undefined {
	const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
	for (const { items } of groups) {
		for (const { href } of items) {
			if (path === href || (href !== '/' && path.startsWith(`${href}/`))) return href;
		}
	}
	return undefined;
}
