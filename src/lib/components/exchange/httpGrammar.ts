import type { LanguageRegistration } from 'shiki/core';

/**
 * An HTTP/1.1 message as the explorer shows one: a request or status line, header lines, a blank line, then the
 * body, highlighted as JSON (what the service answers). shiki's own `http` grammar is for REST-client files and
 * embeds XML, GraphQL, Java, JavaScript and TypeScript grammars, about 700 kB an exchange never needs.
 * Scope names follow shiki's grammar, so the themes colour the same parts.
 */
export const HTTP_MESSAGE_GRAMMAR: LanguageRegistration = {
	name: 'http',
	scopeName: 'source.http-message',
	embeddedLangs: ['json'],
	patterns: [{ include: '#request-line' }, { include: '#status-line' }, { include: '#header' }, { include: '#body' }],
	repository: {
		'request-line': {
			match: '^([A-Z]+)\\s+(\\S+)\\s+(HTTP)(/)([\\d.]+)$',
			captures: {
				1: { name: 'keyword.control.http' },
				2: { name: 'const.language.http' },
				3: { name: 'keyword.other.http' },
				4: { name: 'punctuation.separator.http' },
				5: { name: 'constant.numeric.http' }
			}
		},
		'status-line': {
			match: '^(HTTP)(/)([\\d.]+)\\s+(\\d{3})\\s*(.*)$',
			captures: {
				1: { name: 'keyword.other.http' },
				2: { name: 'punctuation.separator.http' },
				3: { name: 'constant.numeric.http' },
				4: { name: 'constant.numeric.http' },
				5: { name: 'string.other.http' }
			}
		},
		header: {
			match: '^([!#$%&\'*+.^_`|~0-9A-Za-z-]+)(:)\\s*(.*)$',
			captures: {
				1: { name: 'entity.name.tag.http' },
				2: { name: 'keyword.other.http' },
				3: { name: 'string.other.http' }
			}
		},
		// A body that starts like JSON is highlighted as JSON to the end of the message (`end` never matches).
		body: { begin: '^(?=\\s*[\\[{])', end: '(?=x)y', patterns: [{ include: 'source.json' }] }
	}
};
