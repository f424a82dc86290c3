import { exportRun } from '$lib/server/support';

export const GET = ({ params }) => exportRun(params.id, params.format);
