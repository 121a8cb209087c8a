// The app's actors report to the Stately inspector when it is on (inspector.ts says how to turn it
// on). Every actor the web app creates goes through here: the session actor, and the feature
// machines' actors.
import { createActor, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import { appInspector } from './inspector';

/**
 * Adds the inspector (when on) to actor options, for actors created by React hooks:
 * `useActorRef(machine, withAppInspect({ input }))`.
 */
export function withAppInspect<TOptions extends { inspect?: unknown }>(options: TOptions): TOptions {
  const inspect = appInspector();
  return inspect && options.inspect === undefined ? { ...options, inspect } : options;
}

/** `createActor` for the app: the same options, plus the inspector when it is on. */
export function createAppActor<TLogic extends AnyActorLogic>(logic: TLogic, options?: ActorOptions<TLogic>): Actor<TLogic> {
  const inspect = options?.inspect ?? appInspector();
  const create = createActor as (l: TLogic, o?: ActorOptions<TLogic>) => Actor<TLogic>;
  return create(logic, inspect ? { ...options, inspect } : options);
}
