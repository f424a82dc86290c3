import { loadScenariosPage } from '$lib/scenarios/server';

export const load = () => loadScenariosPage();
