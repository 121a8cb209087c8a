// The signed-in user a request carries (auth/sessions.ts resolves the bearer token to it). Its own
// module, below the handlers and the services: every service takes it as the actor of a change,
// and when it lived in handlers/types.ts (which names the services the context carries) the
// services and the handlers' types imported each other in a circle.
import type { UserRole } from '../contract.ts';

export interface SessionUser {
  id: number;
  mailAddr: string;
  nickName: string;
  roleType: UserRole;
  sessionId: number;
}
