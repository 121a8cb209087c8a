// The app's actors report to the inspectors: always to the tab's broadcaster (tab-broadcast.ts,
// read by the offline chart viewer /admin/machines, decision 132), and to the Stately inspector
// when it is on (inspector.ts says how). Every actor the web app creates goes through here: the
// session actor, and the feature machines' actors.
import { createActor, type Actor, type ActorOptions, type AnyActorLogic, type InspectionEvent } from 'xstate';
import { appInspector, type InspectObserver } from './inspector';
import { tabInspect } from './tab-broadcast';

function notify(observer: InspectObserver, event: InspectionEvent): void {
  if (typeof observer === 'function') observer(event);
  else observer.next?.(event);
}

/** The observer an app actor gets: the tab's broadcaster, then the Stately inspector (when on). */
function appInspect(): (event: InspectionEvent) => void {
  const broadcast = tabInspect();
  const stately = appInspector();
  if (!stately) return broadcast;
  return (event) => {
    broadcast(event);
    notify(stately, event);
  };
}

/**
 * Adds the inspectors to actor options, for actors created by React hooks:
 * `useActorRef(machine, withAppInspect({ input }))`.
 */
export function withAppInspect<TOptions extends { inspect?: unknown }>(options: TOptions): TOptions {
  return options.inspect === undefined ? { ...options, inspect: appInspect() } : options;
}

/** `createActor` for the app: the same options, plus the inspectors. */
export function createAppActor<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>): Actor<TLogic> {
  const create = createActor as (l: TLogic, o?: ActorOptions<TLogic>) => Actor<TLogic>;
  return create(logic, { ...options, inspect: options?.inspect ?? appInspect() });
}
