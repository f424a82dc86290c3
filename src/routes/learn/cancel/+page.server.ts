import { loadLessonPage } from '$lib/features/walk/explorer';

export const load = ({ locals }) => loadLessonPage(locals.sessionId);
