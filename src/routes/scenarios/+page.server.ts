import { loadScenariosPage } from '$lib/server/scenarios/page';

export const load = () => loadScenariosPage();
