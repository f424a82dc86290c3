/** A configuration for tests, from the same parser the server uses. */
import { loadConfig, type ExplorerConfig } from './config';

export function testConfig(env: Record<string, string> = {}): ExplorerConfig {
	const result = loadConfig(env);
	if (!result.ok) throw new Error(result.message);
	return result.config;
}
