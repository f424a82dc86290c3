/** The correlation keys of a logged exchange: keyed digests that join equal values and reveal none. */
import { createHmac, randomBytes } from 'node:crypto';
import type { CorrelationValues } from '../../http/correlation';
import type { CorrelationKeys } from '../../http/logged-exchange';

const CORRELATION_KEY = randomBytes(32);

/** A short keyed digest: joins equal values, reveals none (96 bits: no collision among a log's entries). */
export function correlationDigest(value: string): string {
	return createHmac('sha256', CORRELATION_KEY).update(value).digest('base64url').slice(0, 16);
}

export function correlationKeys(values: CorrelationValues): CorrelationKeys {
	const keys: CorrelationKeys = {};
	if (values.clientId !== undefined) keys.clientId = values.clientId;
	if (values.authFlow !== undefined) keys.authFlow = correlationDigest(values.authFlow);
	if (values.code !== undefined) keys.code = correlationDigest(values.code);
	if (values.presented !== undefined) keys.presented = correlationDigest(values.presented);
	if (values.issued.length > 0) keys.issued = values.issued.map(correlationDigest);
	return keys;
}

