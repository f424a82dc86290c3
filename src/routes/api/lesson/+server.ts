import { lessonAction } from '$lib/features/walk/explorer';

/** POST /api/lesson {outcome: 'cancel' | 'authorise' | 'restart'}: the link for the lesson's next trip. */
export const POST = ({ locals, request }) => lessonAction(locals.session(), request);
