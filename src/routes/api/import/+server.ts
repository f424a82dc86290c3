import { importRun } from '$lib/server/support';

export const POST = ({ request }) => importRun(request);
