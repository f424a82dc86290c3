import { importRun } from '$lib/features/runs/controller';

/** POST /api/import: a HAR file itself as the body with `?kind=har` (read as it streams), or `{kind, text}` as JSON. */
export const POST = ({ request, url, locals }) => importRun(request, url, locals.session());
