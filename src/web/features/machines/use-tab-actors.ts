// The viewer's side of the channel (inspect/tab-broadcast.ts): it says hello (and again to each tab
// that opens later), then keeps what the tabs report: their running machine actors with the active
// states, and the last events, newest first. This tab's own actors report too: a BroadcastChannel
// object hears every other object of its name, the tab's broadcaster included.
import { useEffect, useState } from 'react';
import { MACHINES_CHANNEL, type ActorReport, type TabMessage } from '../../inspect/tab-broadcast';

export interface LiveActor extends ActorReport {
  tabId: string;
  path: string;
}

export interface LoggedEvent {
  seq: number;
  tabId: string;
  actorId: string;
  machineId: string;
  event: string;
  detail: string;
  at: number;
}

export interface LiveView {
  actors: LiveActor[];
  events: LoggedEvent[];
}

const MAX_EVENTS = 60;

/** The live view after one message. */
export function reduceLive(view: LiveView, message: TabMessage, seq: number): LiveView {
  switch (message.kind) {
    case 'tab.actors': {
      const others = view.actors.filter((a) => a.tabId !== message.tabId);
      return { ...view, actors: [...others, ...message.actors.map((a) => ({ ...a, tabId: message.tabId, path: message.path }))] };
    }
    case 'actor.state': {
      const next = { ...message.actor, tabId: message.tabId, path: message.path };
      const found = view.actors.some((a) => a.actorId === next.actorId && a.tabId === next.tabId);
      return {
        ...view,
        actors: found ? view.actors.map((a) => (a.actorId === next.actorId && a.tabId === next.tabId ? next : a)) : [...view.actors, next],
      };
    }
    case 'actor.event': {
      const { tabId, actorId, machineId, event, detail, at } = message;
      return { ...view, events: [{ seq, tabId, actorId, machineId, event, detail, at }, ...view.events].slice(0, MAX_EVENTS) };
    }
    case 'actor.gone':
      return { ...view, actors: view.actors.filter((a) => !(a.actorId === message.actorId && a.tabId === message.tabId)) };
    case 'tab.gone':
      return { ...view, actors: view.actors.filter((a) => a.tabId !== message.tabId) };
    default:
      return view;
  }
}

export function useTabActors(): LiveView {
  const [view, setView] = useState<LiveView>({ actors: [], events: [] });
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(MACHINES_CHANNEL);
    let seq = 0;
    channel.onmessage = (e: MessageEvent<TabMessage>) => {
      const message = e.data;
      if (message.kind === 'tab.hello') channel.postMessage({ kind: 'viewer.hello' } satisfies TabMessage);
      else setView((v) => reduceLive(v, message, ++seq));
    };
    channel.postMessage({ kind: 'viewer.hello' } satisfies TabMessage);
    return () => channel.close();
  }, []);
  return view;
}
