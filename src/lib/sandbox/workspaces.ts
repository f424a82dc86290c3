/** The header that carries a workspace key on `/sandbox/...` calls (lower case, as Node names headers). */
export const WORKSPACE_KEY_HEADER = 'x-sandbox-workspace-key';
