/** The benchmark table (terminal and Markdown) and the machine it ran on. */
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export interface Measurement {
	metric: string;
	measured: string;
	target: string;
	/** null: a figure reported without a target. */
	pass: boolean | null;
}

export interface Section {
	title: string;
	measurements: Measurement[];
	notes: string[];
}

export function machine(): Record<string, string> {
	const cpu = cpus();
	return {
		os: `${platform()} ${release()}`,
		cpu: cpu[0]?.model.trim() ?? 'unknown',
		cores: String(cpu.length),
		memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
		node: process.version
	};
}

/** The 1-minute load average: other work on the machine skews every figure, so each run records it. */
export function load(): string {
	return loadavg()[0]!.toFixed(2);
}

function verdict(pass: boolean | null): string {
	return pass === null ? '—' : pass ? 'pass' : 'MISS';
}

function pad(text: string, width: number): string {
	return text + ' '.repeat(Math.max(0, width - [...text].length));
}

/** A fixed-width table for the terminal; misses are marked `<<< MISS` so they cannot be overlooked. */
export function terminalTable(sections: Section[]): string {
	const rows = sections.flatMap((s) => s.measurements);
	const widths = [
		Math.max(6, ...rows.map((r) => [...r.metric].length)),
		Math.max(8, ...rows.map((r) => [...r.measured].length)),
		Math.max(6, ...rows.map((r) => [...r.target].length))
	];
	const line = (cells: string[]) => cells.map((c, i) => (i < 3 ? pad(c, widths[i]!) : c)).join('  ');
	const out = [line(['metric', 'measured', 'target', 'result']), widths.map((w) => '-'.repeat(w)).join('  ') + '  ------'];
	for (const s of sections) {
		out.push(`[${s.title}]`);
		for (const r of s.measurements) out.push(line([r.metric, r.measured, r.target, verdict(r.pass)]) + (r.pass === false ? '  <<< MISS' : ''));
	}
	return out.join('\n');
}

function cell(text: string): string {
	return text.replaceAll('|', '\\|');
}

export function markdown(sections: Section[], ranAt: Date, method: string[], conditions: string[]): string {
	const misses = sections.flatMap((s) => s.measurements).filter((m) => m.pass === false);
	const lines = [
		'# Benchmarks',
		'',
		`Written by \`npm run bench\` on ${ranAt.toISOString()}. Re-run it to replace this file.`,
		'',
		'## Machine',
		'',
		...Object.entries(machine()).map(([k, v]) => `- ${k}: ${v}`),
		...conditions.map((c) => `- ${c}`),
		'',
		'## Results',
		'',
		misses.length === 0 ? 'Every target was met in this run.' : `**${misses.length} target(s) missed in this run:** ${misses.map((m) => m.metric).join('; ')}.`,
		'',
		'| metric | measured | target | result |',
		'|---|---|---|---|'
	];
	for (const s of sections) {
		lines.push(`| **${cell(s.title)}** | | | |`);
		for (const m of s.measurements) lines.push(`| ${cell(m.metric)} | ${cell(m.measured)} | ${cell(m.target)} | ${m.pass === false ? '**MISS**' : verdict(m.pass)} |`);
	}
	lines.push('', '## How it was measured', '', ...method);
	const notes = sections.filter((s) => s.notes.length > 0);
	if (notes.length > 0) {
		lines.push('', '## Notes from this run', '');
		for (const s of notes) lines.push(`### ${s.title}`, '', ...s.notes.map((n) => `- ${n}`), '');
	}
	return `${lines.join('\n').trimEnd()}\n`;
}
