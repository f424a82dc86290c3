import { loadScenariosPage } from '$lib/features/scenarios/page';

export const load = () => loadScenariosPage();
