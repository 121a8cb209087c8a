// A real SMTP server (smtp-server) that keeps what it receives, parsed with mailparser.
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** How many SMTP connections clients have opened so far. */
  connections(): number;
  /** Resolves with the first mail to `to` (waiting for it to arrive). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `n` mails have arrived in all (a second mail to the same address included). */
  waitForCount(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, done) {
      connections++;
      done();
    },
    onData(stream, session, done) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          for (const rcpt of session.envelope.rcptTo) {
            mails.push({ to: rcpt.address, subject: parsed.subject ?? '', text, links: text.match(/https?:\/\/[^\s]+/g) ?? [] });
          }
          waiters.splice(0).forEach((w) => w());
          done();
        })
        .catch(done);
    },
  });
  /** Waits (woken by each mail, or every 100 ms) until `ready`, at most `timeoutMs`. */
  const until = async (ready: () => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    connections: () => connections,
    async waitFor(to, timeoutMs = 5_000) {
      await until(() => mails.some((x) => x.to === to), timeoutMs, `no mail to ${to}`);
      return mails.find((x) => x.to === to)!;
    },
    waitForCount: (n, timeoutMs = 5_000) => until(() => mails.length >= n, timeoutMs, `fewer than ${n} mails`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The test file's sink: started before its tests, emptied before each test, closed after them. */
export function useSmtpSink(): SmtpSink {
  let started: SmtpSink | undefined;
  const sink = () => {
    if (!started) throw new Error('the SMTP sink starts in beforeAll');
    return started;
  };
  beforeAll(async () => {
    started = await startSmtpSink();
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => {
    if (started) started.mails.length = 0;
  });
  return {
    get url() {
      return sink().url;
    },
    get mails() {
      return sink().mails;
    },
    connections: () => sink().connections(),
    waitFor: (to, timeoutMs) => sink().waitFor(to, timeoutMs),
    waitForCount: (n, timeoutMs) => sink().waitForCount(n, timeoutMs),
    close: async () => undefined,
  };
}
