/**
 * Outcome rules (sandbox choice 'outcome-rules'): per client, at most one pending rule per stage, and the newest
 * used ones. The token endpoint and me.json ask on every request whether their client has a rule, so the pending
 * rules of every workspace are held in memory (a few per client at most): a client without one costs a Map lookup.
 * This process is the database's only writer, so the memory stays true until a write here changes both, or a
 * rollback or a clear drops it (`forget`) and it is read again.
 */
import type Database from 'better-sqlite3';
import { outcomeSpec, type OutcomeId, type OutcomeOfStage, type OutcomeStage } from '../../protocol';
import type { OutcomeRules, UsedOutcomeRule } from './types';

/** Used rules kept per client, newest first. */
export const USED_OUTCOMES_KEPT = 20;

interface RuleRow {
	id: number;
	workspace: string;
	client_id: string;
	stage: OutcomeStage;
	outcome: OutcomeId;
	set_at: string;
	used_at: string | null;
	used_by: string | null;
}

interface PendingRule {
	id: number;
	outcome: OutcomeId;
	setAt: string;
}

interface ClientRules {
	workspace: string;
	byStage: Map<OutcomeStage, PendingRule>;
}

/** The workspace a call acts in, and its clock (times are shown on it, like the request log's). */
export interface OutcomeScope {
	id: string;
	now(): Date;
}

export interface Outcomes {
	/** Sets a pending rule, replacing the client's pending rule of the same stage. */
	set(scope: OutcomeScope, clientId: string, outcome: OutcomeId): void;
	/** Removes the client's pending rules (only `outcome`'s when given); answers how many were removed. */
	clear(workspace: string, clientId: string, outcome?: OutcomeId): number;
	list(workspace: string, clientId: string): OutcomeRules;
	/** The client's pending rule of `stage`, left pending; null when there is none. */
	peek<S extends OutcomeStage>(workspace: string, clientId: string, stage: S): OutcomeOfStage<S> | null;
	/** The client's pending rule of `stage`, marked used by `request`; null when there is none. */
	take<S extends OutcomeStage>(scope: OutcomeScope, clientId: string, stage: S, request: string): OutcomeOfStage<S> | null;
	/** Drops what memory holds (after a rollback or a clear): read again on next use. */
	forget(): void;
}

export function openOutcomes(db: Database.Database): Outcomes {
	const sql = {
		pending: db.prepare<[], RuleRow>('SELECT * FROM outcome_rules WHERE used_at IS NULL ORDER BY id'),
		removePending: db.prepare<{ workspace: string; client_id: string; stage: string }>(
			'DELETE FROM outcome_rules WHERE workspace = @workspace AND client_id = @client_id AND stage = @stage AND used_at IS NULL'
		),
		insert: db.prepare<{ workspace: string; client_id: string; stage: string; outcome: string; set_at: string }>(
			'INSERT INTO outcome_rules (workspace, client_id, stage, outcome, set_at) VALUES (@workspace, @client_id, @stage, @outcome, @set_at)'
		),
		clearAll: db.prepare<{ workspace: string; client_id: string }>(
			'DELETE FROM outcome_rules WHERE workspace = @workspace AND client_id = @client_id AND used_at IS NULL'
		),
		clearOne: db.prepare<{ workspace: string; client_id: string; outcome: string }>(
			'DELETE FROM outcome_rules WHERE workspace = @workspace AND client_id = @client_id AND outcome = @outcome AND used_at IS NULL'
		),
		markUsed: db.prepare<{ id: number; used_at: string; used_ms: number; used_by: string }>(
			'UPDATE outcome_rules SET used_at = @used_at, used_ms = @used_ms, used_by = @used_by WHERE id = @id'
		),
		used: db.prepare<{ workspace: string; client_id: string; limit: number }, RuleRow>(
			`SELECT * FROM outcome_rules WHERE workspace = @workspace AND client_id = @client_id AND used_at IS NOT NULL
			 ORDER BY used_ms DESC, id DESC LIMIT @limit`
		),
		pruneUsed: db.prepare<{ client_id: string; keep: number }>(
			`DELETE FROM outcome_rules WHERE client_id = @client_id AND used_at IS NOT NULL AND id NOT IN
			 (SELECT id FROM outcome_rules WHERE client_id = @client_id AND used_at IS NOT NULL ORDER BY used_ms DESC, id DESC LIMIT @keep)`
		)
	};

	let held: Map<string, ClientRules> | null = null;
	function pending(): Map<string, ClientRules> {
		if (held) return held;
		held = new Map();
		for (const row of sql.pending.all()) rulesOf(held, row.workspace, row.client_id).byStage.set(row.stage, { id: row.id, outcome: row.outcome, setAt: row.set_at });
		return held;
	}
	function rulesOf(map: Map<string, ClientRules>, workspace: string, clientId: string): ClientRules {
		let rules = map.get(clientId);
		if (!rules || rules.workspace !== workspace) map.set(clientId, (rules = { workspace, byStage: new Map() }));
		return rules;
	}
	/** Client ids are unique across workspaces; a client of another workspace has no rules here. */
	function ownRules(workspace: string, clientId: string): ClientRules | undefined {
		const rules = pending().get(clientId);
		return rules?.workspace === workspace ? rules : undefined;
	}

	const setRule = db.transaction((row: { workspace: string; client_id: string; stage: OutcomeStage; outcome: OutcomeId; set_at: string }) => {
		sql.removePending.run(row);
		return Number(sql.insert.run(row).lastInsertRowid);
	});

	return {
		set(scope, clientId, outcome) {
			const { stage } = outcomeSpec(outcome);
			const setAt = scope.now().toISOString();
			const id = setRule({ workspace: scope.id, client_id: clientId, stage, outcome, set_at: setAt });
			rulesOf(pending(), scope.id, clientId).byStage.set(stage, { id, outcome, setAt });
		},
		clear(workspace, clientId, outcome) {
			const removed = outcome === undefined ? sql.clearAll.run({ workspace, client_id: clientId }) : sql.clearOne.run({ workspace, client_id: clientId, outcome });
			const rules = ownRules(workspace, clientId);
			if (rules) {
				for (const [stage, rule] of rules.byStage) if (outcome === undefined || rule.outcome === outcome) rules.byStage.delete(stage);
				if (rules.byStage.size === 0) pending().delete(clientId);
			}
			return removed.changes;
		},
		list(workspace, clientId) {
			const rules = ownRules(workspace, clientId);
			const used: UsedOutcomeRule[] = sql.used.all({ workspace, client_id: clientId, limit: USED_OUTCOMES_KEPT }).map((row) => ({
				outcome: row.outcome,
				stage: row.stage,
				setAt: row.set_at,
				usedAt: row.used_at!,
				request: row.used_by!
			}));
			return {
				pending: rules ? [...rules.byStage].map(([stage, rule]) => ({ outcome: rule.outcome, stage, setAt: rule.setAt })) : [],
				used
			};
		},
		peek<S extends OutcomeStage>(workspace: string, clientId: string, stage: S) {
			return (ownRules(workspace, clientId)?.byStage.get(stage)?.outcome ?? null) as OutcomeOfStage<S> | null;
		},
		take<S extends OutcomeStage>(scope: OutcomeScope, clientId: string, stage: S, request: string) {
			const rules = ownRules(scope.id, clientId);
			const rule = rules?.byStage.get(stage);
			if (!rules || !rule) return null;
			sql.markUsed.run({ id: rule.id, used_at: scope.now().toISOString(), used_ms: Date.now(), used_by: request });
			sql.pruneUsed.run({ client_id: clientId, keep: USED_OUTCOMES_KEPT });
			rules.byStage.delete(stage);
			if (rules.byStage.size === 0) pending().delete(clientId);
			// Set only through `set`, which files each rule under its outcome's own stage.
			return rule.outcome as OutcomeOfStage<S>;
		},
		forget() {
			held = null;
		}
	};
}
