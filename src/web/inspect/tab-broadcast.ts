// The tab's side of the offline state charts (docs/decisions/132): every machine actor the app creates
// (create-app-actor.ts) is watched through XState's inspection API, and, once a chart viewer
// (/admin/machines, any tab of this origin) has said hello on the BroadcastChannel, each actor's
// state and each event it receives are posted there. Until a viewer asks, nothing is posted but the
// tab's own hello (so a viewer opened first answers): the observer only keeps the running actors. Nothing leaves the browser (a BroadcastChannel
// reaches the same origin's tabs only). This module imports nothing of xstate at run time, so the
// entry does not carry it; the viewer's code is a chunk of its own (routes/.../machines.tsx).
import type { AnyActorRef, InspectionEvent } from 'xstate';

export const MACHINES_CHANNEL = 'purchase-hub:machines';

/** A running machine actor as the viewer draws it: its machine's id and its active state paths. */
export interface ActorReport {
  actorId: string;
  machineId: string;
  /** Active state paths from the root, e.g. ['parcel', 'parcel.save', 'parcel.save.editing']. */
  states: string[];
  status: string;
}

export type TabMessage =
  | { kind: 'viewer.hello' }
  | { kind: 'tab.hello'; tabId: string }
  | { kind: 'tab.actors'; tabId: string; path: string; actors: ActorReport[] }
  | { kind: 'actor.state'; tabId: string; path: string; actor: ActorReport }
  | { kind: 'actor.event'; tabId: string; path: string; actorId: string; machineId: string; event: string; detail: string; at: number }
  | { kind: 'actor.gone'; tabId: string; actorId: string }
  | { kind: 'tab.gone'; tabId: string };

/** The active state paths of a snapshot's value ('a' or { a: { b: 'c' } }), parents before children. */
export function statePaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix + value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => [prefix + key, ...statePaths(inner, `${prefix}${key}.`)]);
}

const SECRET_KEY = /password|pwd|token|secret|card/i;

/** An event's payload for the log: short, and with nothing that looks like a secret. */
export function eventDetail(event: Record<string, unknown>): string {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === 'type') continue;
    shown[key] = SECRET_KEY.test(key) ? '…' : value;
  }
  if (Object.keys(shown).length === 0) return '';
  let text: string;
  try {
    text = JSON.stringify(shown, (key, value: unknown) => (SECRET_KEY.test(key) ? '…' : value));
  } catch {
    return '';
  }
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

interface Watched {
  ref: AnyActorRef;
  machineId: string;
}

/** A machine actor's logic has a state tree (`root`); promise and callback children do not. */
function machineIdOf(ref: AnyActorRef): string | null {
  const logic = (ref as { logic?: { id?: unknown; root?: unknown } }).logic;
  return logic && logic.root && typeof logic.id === 'string' ? logic.id : null;
}

function reportOf(watched: Watched): ActorReport {
  const snapshot = watched.ref.getSnapshot() as { value?: unknown; status?: string };
  return { actorId: watched.ref.sessionId, machineId: watched.machineId, states: statePaths(snapshot.value), status: snapshot.status ?? 'active' };
}

/**
 * The tab's broadcaster. `inspect` is the observer create-app-actor.ts gives every app actor. A
 * channel that cannot open (no BroadcastChannel) leaves it a no-op.
 */
export function createTabBroadcast(openChannel: () => BroadcastChannel | null = defaultChannel) {
  const tabId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const actors = new Map<string, Watched>();
  let channel: BroadcastChannel | null | undefined;
  let viewed = false;
  const path = () => (typeof location === 'undefined' ? '' : location.pathname);

  const post = (message: TabMessage) => {
    if (viewed) channel?.postMessage(message);
  };
  const open = () => {
    if (channel !== undefined) return;
    channel = openChannel();
    if (!channel) return;
    channel.onmessage = (e: MessageEvent<TabMessage>) => {
      if (e.data?.kind !== 'viewer.hello') return;
      viewed = true;
      post({ kind: 'tab.actors', tabId, path: path(), actors: [...actors.values()].map(reportOf) });
    };
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => post({ kind: 'tab.gone', tabId }));
    // A viewer opened before this tab learns of it and says hello back.
    channel.postMessage({ kind: 'tab.hello', tabId } satisfies TabMessage);
  };

  function inspect(event: InspectionEvent): void {
    open();
    const ref = event.actorRef as AnyActorRef;
    // An actor counts from its first snapshot, sent when it starts: one created and never started
    // (React's development double render) is never listed. It leaves when it stops.
    if (event.type === '@xstate.snapshot' && !actors.has(ref.sessionId)) {
      const machineId = machineIdOf(ref);
      if (machineId === null) return;
      actors.set(ref.sessionId, { ref, machineId });
      const gone = () => {
        if (actors.delete(ref.sessionId)) post({ kind: 'actor.gone', tabId, actorId: ref.sessionId });
      };
      ref.subscribe({ complete: gone, error: gone });
    }
    const watched = actors.get(ref.sessionId);
    if (!watched || !viewed) return;
    if (event.type === '@xstate.snapshot') post({ kind: 'actor.state', tabId, path: path(), actor: reportOf(watched) });
    else if (event.type === '@xstate.event' && !event.event.type.startsWith('xstate.init'))
      post({
        kind: 'actor.event',
        tabId,
        path: path(),
        actorId: ref.sessionId,
        machineId: watched.machineId,
        event: event.event.type,
        detail: eventDetail(event.event),
        at: Date.now(),
      });
  }

  return { inspect, tabId };
}

function defaultChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(MACHINES_CHANNEL);
  // Under Node (the web tests) an open channel would keep the process alive; browsers have no unref.
  (channel as { unref?: () => void }).unref?.();
  return channel;
}

let tabBroadcast: ReturnType<typeof createTabBroadcast> | undefined;

/** The tab's one broadcaster (made on first use). */
export function tabInspect(): (event: InspectionEvent) => void {
  tabBroadcast ??= createTabBroadcast();
  return tabBroadcast.inspect;
}
