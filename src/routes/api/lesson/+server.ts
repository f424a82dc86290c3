import { lessonAction } from '$lib/features/walk/explorer';
import { apiRoute } from '$lib/platform/errors';
import type { RequestHandler } from './$types';

/** POST /api/lesson {outcome: 'cancel' | 'authorise' | 'restart'}: the link for the lesson's next trip. */
export const POST: RequestHandler = apiRoute(({ locals, request }) => lessonAction(locals.session(), request));
