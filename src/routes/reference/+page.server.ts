import { loadReferencePage } from '$lib/server/reference';

export const load = () => loadReferencePage();
