/** The one door into the runs feature's pure half: what other features and components use of it. */
export * from './diagnose-run';
export * from './har/har-limits';
export * from './join';
export * from './live-flow-run';
export * from './redact/redact';
export * from './run';
export * from './triage';
export * from './verdict-words';
