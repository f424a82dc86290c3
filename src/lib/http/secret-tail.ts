/**
 * A hidden value's tail: the last `TAIL_LENGTH` characters of a grant code or an access token, which the sandbox's
 * log keeps (secrets.ts, audience `log`) and a saved run keeps beside each redacted token. What matches a value as
 * one record shows it (whole: a browser's arrival) to the same value as another shows it (masked but for its tail).
 */
import { MASK } from './exchange';
import { decodeQueryComponent } from './form';
import { TAIL_LENGTH } from './secrets';

const decoded = (recorded: string) => (recorded.includes('%') ? decodeQueryComponent(recorded) : recorded);

/** The tail of a value as recorded (whole, or masked but for its tail as the sandbox logs it); null when none shows. */
export function valueTail(recorded: string): string | null {
	const value = decoded(recorded);
	if (value.startsWith(MASK)) {
		const tail = value.slice(MASK.length);
		return tail.length === TAIL_LENGTH && !tail.includes(MASK) ? tail : null;
	}
	if (value.includes(MASK)) return null;
	// As the log's masking: a short value is hidden whole, its tail would be most of it.
	return value.length > TAIL_LENGTH * 4 ? value.slice(-TAIL_LENGTH) : null;
}

/** Two recorded values that may be the same secret: equal, or one masked but for a tail the other ends with. */
export function sameSecret(a: string | undefined, b: string | undefined): boolean {
	if (!a || !b) return false;
	const [da, db] = [decoded(a), decoded(b)];
	if (da === db) return !da.includes(MASK) || valueTail(da) !== null;
	if (!da.includes(MASK) && !db.includes(MASK)) return false;
	const tail = valueTail(da);
	return tail !== null && tail === valueTail(db);
}

/**
 * What `sameSecret` compares a value by: its tail when one shows, else the value itself. Two values that may be
 * the same secret have the same key, so evidence is matched by looking its keys up instead of comparing each pair.
 */
export function secretKey(recorded: string): string {
	return valueTail(recorded) ?? decoded(recorded);
}
