import { loadLessonPage } from '$lib/server/explorer';

export const load = ({ locals }) => loadLessonPage(locals.sessionId);
