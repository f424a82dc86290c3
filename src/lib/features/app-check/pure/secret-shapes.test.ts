import { describe, expect, it } from 'vitest';
import { MASK } from '$lib/http/exchange';
import { APP_CHECKS } from './checks';
import { isSecretName, maskSecretShapes } from './secret-shapes';

const SECRET = 'Hunter2-s3cr3t';
const mask = (text: string) => maskSecretShapes(text, MASK);

describe('secrets an app prints under names of its own', () => {
	it('reads a name in any naming style by its last word', () => {
		for (const name of ['clientSecret', 'client_secret', 'client-secret', 'OAUTH_CLIENT_SECRET', 'client.secret', 'ClientSecret', 'CLIENTSECRET', 'dbPassword', 'DB_PASSWD', 'refreshToken', 'id_token', 'apiKey', 'x-api-key', 'SANDBOX_WORKSPACE_KEY', 'private_key', 'credentials', 'secret']) {
			expect(isSecretName(name), name).toBe(true);
		}
		expect(isSecretName('key', 'API')).toBe(true);
		expect(isSecretName('secret', 'client')).toBe(true);
		for (const name of ['group-key', 'key', 'token-invalid-grant', 'secretary', 'code-reused', 'tokenizer', 'clientId', 'keyboard']) {
			expect(isSecretName(name), name).toBe(false);
		}
	});

	it('masks the value in JSON, environment variables, headers, YAML, code and forms, keeping the name and quotes', () => {
		const shapes: [string, string][] = [
			[`{"clientSecret":"${SECRET}","clientId":"shop"}`, `{"clientSecret":"${MASK}","clientId":"shop"}`],
			[`{ "client_secret" : "${SECRET}" }`, `{ "client_secret" : "${MASK}" }`],
			[`OAUTH_CLIENT_SECRET=${SECRET}\nPORT=4000`, `OAUTH_CLIENT_SECRET=${MASK}\nPORT=4000`],
			[`export CLIENT_SECRET='${SECRET}'`, `export CLIENT_SECRET='${MASK}'`],
			[`client-secret: ${SECRET}`, `client-secret: ${MASK}`],
			[`X-Api-Key: ${SECRET}`, `X-Api-Key: ${MASK}`],
			[`spring.security.oauth2.client.registration.sso.client-secret=${SECRET}`, `spring.security.oauth2.client.registration.sso.client-secret=${MASK}`],
			[`{ clientSecret: \`${SECRET}\` }`, `{ clientSecret: \`${MASK}\` }`],
			[`:client_secret => "${SECRET}"`, `:client_secret => "${MASK}"`],
			[`?clientSecret=${SECRET}&next=/home`, `?clientSecret=${MASK}&next=/home`],
			[`Client secret\t${SECRET}\tClient id\tshop`, `Client secret\t${MASK}\tClient id\tshop`],
			[`"dbPassword": "p\\"q${SECRET}"`, `"dbPassword": "${MASK}"`]
		];
		for (const [text, masked] of shapes) expect(mask(text), text).toBe(masked);
	});

	it('masks it in a sentence', () => {
		expect(mask(`Misconfigured: the secret is ${SECRET}.`)).toBe(`Misconfigured: the secret is ${MASK}.`);
		expect(mask(`Your client secret was: ${SECRET}, keep it safe`)).toBe(`Your client secret was: ${MASK}, keep it safe`);
		expect(mask(`The API key is "${SECRET}"`)).toBe(`The API key is "${MASK}"`);
		expect(mask(`password: ${SECRET}`)).toBe(`password: ${MASK}`);
	});

	it('masks it when the text is itself encoded: JSON in a string, HTML-escaped, URL-encoded', () => {
		expect(mask(`"{\\"clientSecret\\":\\"${SECRET}\\"}"`)).toBe(`"{\\"clientSecret\\":\\"${MASK}\\"}"`);
		expect(mask(`<pre>{&quot;clientSecret&quot;:&quot;${SECRET}&quot;}</pre>`)).toBe(`<pre>{&quot;clientSecret&quot;:&quot;${MASK}&quot;}</pre>`);
		expect(mask(`<pre>{&#34;client_secret&#34;: &#34;${SECRET}&#34;}</pre>`)).toBe(`<pre>{&#34;client_secret&#34;: &#34;${MASK}&#34;}</pre>`);
		expect(mask(`/error?detail=%7B%22clientSecret%22%3A%22${SECRET}%22%7D`)).toBe(`/error?detail=%7B%22clientSecret%22%3A%22${MASK}%22%7D`);
		expect(mask(`/login?next=%2Fcb%3Fclient_secret%3D${SECRET}%26a%3D1`)).not.toContain(SECRET);
		// A secret's name inside another value is still found.
		expect(mask(`{"message":"OAUTH_CLIENT_SECRET=${SECRET}"}`)).toBe(`{"message":"OAUTH_CLIENT_SECRET=${MASK}"}`);
	});

	it('leaves ordinary text alone: names that are not secrets, the checks\' own words', () => {
		const plain = 'group-key: The `group` key; sandbox rule token-invalid-grant: applied; clientId: shop; status: 500; the token endpoint answered 400';
		expect(mask(plain)).toBe(plain);
		expect(mask('{"clientSecret":""}')).toBe('{"clientSecret":""}');
		for (const check of APP_CHECKS) {
			for (const text of [check.title, check.how, check.should, check.fix]) expect(mask(text), text).toBe(text);
		}
	});
});
