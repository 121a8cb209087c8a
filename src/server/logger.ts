// pino, as Fastify uses it. Query strings are never logged: the login call carries the password in
// its query (SPEC §7) and token checks carry one-time tokens there.
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers["x-token"]', 'req.headers.cookie', 'req.headers.authorization'], remove: true },
    serializers: {
      req(req: { method: string; url: string; ip?: string; id?: string }) {
        return { method: req.method, url: req.url.split('?')[0], ip: req.ip, id: req.id };
      },
    },
  });
}
