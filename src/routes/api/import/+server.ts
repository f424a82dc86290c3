import { importRun } from '$lib/server/support';

export const POST = ({ request, locals }) => importRun(request, locals.session());
