import { loadReferencePage } from '$lib/features/walk/reference';

export const load = () => loadReferencePage();
