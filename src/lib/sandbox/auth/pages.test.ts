import { describe, expect, it } from 'vitest';
import { authorisationMessage } from '../../protocol';
import { requestErrorPage } from './pages';

describe('requestErrorPage', () => {
	it('links back to the explorer step that builds the link', () => {
		const page = requestErrorPage(
			{ explorerOrigin: 'http://localhost:3000' },
			{ kind: 'row', rowId: 'auth-invalid-client', causeId: 'unknown-client', message: authorisationMessage('auth-invalid-client'), detail: 'No client has the id `x`.' }
		).toString();
		expect(page).toContain('<a href="http://localhost:3000/#step-link" data-testid="back-to-link-step">');
	});
});
