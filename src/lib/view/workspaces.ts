/** What the workspace switcher shows (built by `features/sandbox-admin/workspace-session.ts`). */
export interface WorkspaceSwitcherView {
	/** The session's own workspace, with its share link (carrying its key: only its member's pages get it). */
	current: {
		id: string;
		name: string;
		shareUrl: string;
		/** The workspace's copy of the demo client: its id carries the workspace's after `~`. */
		demoClientId: string;
	} | null;
	/** Whether this session may make a workspace (public mode, or it administers the sandbox). */
	canCreate: boolean;
	/** Public mode: the default workspace is read-only. */
	publicMode: boolean;
	/** Why the session is back in the default workspace when its own was removed (idle, or to make room); else null. */
	removedNotice: string | null;
}
