/**
 * The one app check a server runs at a time (each is a Chromium). A run holds the slot until it ends, at most
 * `limitMs` (the driver stops it there), so a refusal can say when it frees. Callers refused while it was held go
 * first when it frees: for `reservedMs` after, only they may take it, so the caller who held it cannot take it
 * straight back and hold it again and again.
 */

/** How long the slot is kept for the callers who were refused while it was held. */
export const SLOT_RESERVED_MS = 30_000;
/** At most this many waiting callers are remembered (a flood of refused callers cannot grow memory). */
const MAX_WAITING = 100;
/**
 * Waiting callers kept per visitor (an address, sandbox/visitor.ts): one person with a hundred sessions cannot fill
 * the queue and keep everyone else out, taking the slot at every turn.
 */
export const MAX_WAITING_PER_VISITOR = 3;

export type SlotClaim = { ok: true; release: () => void } | { ok: false; message: string; retryAfterSeconds: number };

export class CheckSlot {
	private holder: { caller: string; until: number } | null = null;
	/** Callers refused while the slot was held: until when their turn is kept (Infinity while it is still held). */
	private readonly waiting = new Map<string, number>();
	/** Each waiting caller's visitor. */
	private readonly visitors = new Map<string, string>();

	constructor(
		private readonly limitMs: number,
		private readonly reservedMs = SLOT_RESERVED_MS,
		private readonly now: () => number = Date.now
	) {}

	/** `caller`: who asks (a session); `visitor`: where from (an address), which bounds how many of its callers wait. */
	claim(caller: string, visitor = caller): SlotClaim {
		const now = this.now();
		for (const [who, until] of this.waiting) if (until <= now) this.forget(who);
		if (this.holder) {
			const { until } = this.holder;
			if (this.holder.caller === caller) return this.refusal(until, 'Your app check is still running on this server; it ends');
			const fromVisitor = [...this.visitors.values()].filter((v) => v === visitor).length;
			if (this.waiting.has(caller) || (this.waiting.size < MAX_WAITING && fromVisitor < MAX_WAITING_PER_VISITOR)) {
				this.waiting.set(caller, Infinity);
				this.visitors.set(caller, visitor);
				return this.refusal(until, 'An app check is already running on this server; it ends', ` The slot is then kept for you for ${this.reservedMs / 1000} s.`);
			}
			return this.refusal(until, 'An app check is already running on this server; it ends');
		}
		if (this.waiting.size > 0 && !this.waiting.has(caller)) {
			const until = Math.max(...this.waiting.values());
			return this.refusal(until, 'Others who were waiting for the app check go first; it is kept for them');
		}
		this.forget(caller);
		const held = { caller, until: now + this.limitMs };
		this.holder = held;
		return {
			ok: true,
			release: () => {
				if (this.holder !== held) return;
				this.holder = null;
				const keptUntil = this.now() + this.reservedMs;
				for (const who of this.waiting.keys()) this.waiting.set(who, keptUntil);
			}
		};
	}

	private forget(caller: string): void {
		this.waiting.delete(caller);
		this.visitors.delete(caller);
	}

	private refusal(until: number, what: string, then = ''): SlotClaim {
		const seconds = Math.max(1, Math.ceil((until - this.now()) / 1000));
		return { ok: false, retryAfterSeconds: seconds, message: `${what} by ${new Date(until).toISOString()} at the latest (in ${seconds} s); try again then.${then}` };
	}
}
