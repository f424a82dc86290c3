// The corpus harness's own unit tests (the project's vitest config runs src/ only).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['scripts/corpus/**/*.test.ts'] } });
