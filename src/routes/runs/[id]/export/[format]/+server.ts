import { exportRun } from '$lib/features/runs/controller';

export const GET = ({ params, locals }) => exportRun(params.id, params.format, locals.sessionId);
