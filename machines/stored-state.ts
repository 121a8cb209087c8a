/**
 * Applying an event to a stored row's state: the one way the server (and the UI, to decide what to
 * offer) asks a lifecycle machine "may this happen, and what state follows?".
 *
 * A lifecycle machine's states are the row's status values; its guards read the context the
 * caller builds from the row. `decide` resolves that snapshot, asks `can(event)` and, when the
 * machine refuses, returns the Chinese message the UI would show (from the machine's own
 * `explain`), so a refusal is never silent and never worded twice.
 */
import { transition, type AnyStateMachine, type EventFrom, type ContextFrom } from 'xstate';

/**
 * A machine's answer. `emits`: the events the transition emits (XState `emit` actions) - what
 * follows from it for other entities, e.g. an application paid sends its task `task.pay`. The
 * server's lifecycle store (src/server/entities/store.ts) delivers them; the UI ignores them.
 */
export type Decision<S extends string> = { ok: true; next: S; emits?: readonly { type: string }[] } | { ok: false; msg: string };

/** The events emitted by the actions of a transition (XState's `emit`, in the order declared). */
export function emittedBy(actions: readonly { type: string; params?: unknown }[]): { type: string }[] {
  const out: { type: string }[] = [];
  for (const a of actions) if (a.type === 'xstate.emit') out.push((a.params as { event: { type: string } }).event);
  return out;
}

/**
 * The machine's answer for a row in `status` with `context` to `event`. A lifecycle machine's guards
 * read only the context and the event, so the answer is a function of (status, context, event) and
 * `explain`: it is computed once and remembered (frozen, shared by every caller), DECISIONS_KEPT
 * a machine at most, the oldest forgotten first. Matching and the uploads ask the same few questions
 * of every row, and resolving an XState snapshot and its transition twice per question was a
 * matched scan's largest piece of our own code in its CPU profile (decision 182).
 */
export function decide<M extends AnyStateMachine, S extends string>(
  machine: M,
  status: S,
  context: ContextFrom<M>,
  event: EventFrom<M>,
  explain: (status: S, context: ContextFrom<M>, event: EventFrom<M>) => string,
): Decision<S> {
  let byExplain = remembered.get(machine);
  if (!byExplain) remembered.set(machine, (byExplain = new WeakMap()));
  let answers = byExplain.get(explain);
  if (!answers) byExplain.set(explain, (answers = new Map()));
  const key = JSON.stringify([status, context, event]);
  const known = answers.get(key);
  if (known) return known as Decision<S>;
  const answer = deepFrozen(decideNow(machine, status, context, event, explain));
  if (answers.size >= DECISIONS_KEPT) answers.delete(answers.keys().next().value!);
  answers.set(key, answer);
  return answer;
}

/** Answers remembered per machine (decide): enough for every status, event and context a store meets in practice. */
export const DECISIONS_KEPT = 10_000;
const remembered = new WeakMap<AnyStateMachine, WeakMap<object, Map<string, Decision<string>>>>();

function deepFrozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFrozen(v);
    Object.freeze(value);
  }
  return value;
}

function decideNow<M extends AnyStateMachine, S extends string>(
  machine: M,
  status: S,
  context: ContextFrom<M>,
  event: EventFrom<M>,
  explain: (status: S, context: ContextFrom<M>, event: EventFrom<M>) => string,
): Decision<S> {
  const snapshot = machine.resolveState({ value: status, context });
  if (!snapshot.can(event)) return { ok: false, msg: explain(status, context, event) };
  const [next, actions] = transition(machine, snapshot as never, event);
  const emits = emittedBy(actions as { type: string; params?: unknown }[]);
  return emits.length ? { ok: true, next: (next as { value: unknown }).value as S, emits } : { ok: true, next: (next as { value: unknown }).value as S };
}

/** The events of `candidates` a row in `status` accepts: what the UI offers as buttons. */
export function allowedEvents<M extends AnyStateMachine>(machine: M, status: string, context: ContextFrom<M>, candidates: EventFrom<M>[]): EventFrom<M>[] {
  const snapshot = machine.resolveState({ value: status, context });
  return candidates.filter((e) => snapshot.can(e));
}

/**
 * The states of `states` in which a row with `context` accepts `event`: the machine's answer as a
 * list of statuses, for a query that filters by status (a database where clause, a list call).
 */
export function statesAllowing<M extends AnyStateMachine, S extends string>(
  machine: M,
  states: readonly S[],
  context: ContextFrom<M>,
  event: EventFrom<M>,
): S[] {
  return states.filter((state) => allowedEvents(machine, state, context, [event]).length > 0);
}
