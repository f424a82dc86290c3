/** Places where the interface contradicts itself, and how this project reads them. Shown on the reference page. */
export interface Erratum {
	id: string;
	section: string;
	says: string;
	reading: string;
}

export const ERRATA: readonly Erratum[] = [
	{
		id: 'erratum-token-errors-ref',
		section: '4.2',
		says: 'The token endpoint says "Errors: see 7.1".',
		reading: 'Token endpoint errors are in 7.2 (by the tables\' headings); 7.1 is the authorisation page. The headings are authoritative.'
	},
	{
		id: 'erratum-me-errors-ref',
		section: '4.3',
		says: 'The user-information endpoint says "Errors: see 7.2".',
		reading: 'User-information errors are in 7.3 (by the tables\' headings); 7.2 is the token endpoint.'
	},
	{
		id: 'erratum-group-key',
		section: '2.4',
		says: 'The field reference names the verification key `supergroup`; the sample response shows `group`.',
		reading: 'A reader must accept either key. The sandbox emits `supergroup` by default and `group` for a client with that setting.'
	},
	{
		id: 'erratum-bearer-credentials',
		section: '4.2',
		says: 'Client credentials "can also be supplied in an Authorization request header with the Bearer prefix".',
		reading: 'The header\'s format is not given. See the sandbox choice on Authorization header formats.'
	}
];
