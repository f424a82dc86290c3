import { exportRun } from '$lib/server/support';

export const GET = ({ params, locals }) => exportRun(params.id, params.format, locals.sessionId);
