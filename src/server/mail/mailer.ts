// Mail through nodemailer. SMTP_URL (and SMTP_BACKUP_URL for backup publishing) choose real SMTP
// servers; without SMTP_URL every message is written as an .eml file under DATA_DIR/mail and its
// links are logged, so invitations and password resets work on a fresh machine with no setup.
// SMTP connections are pooled and reused.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type MailTransportName = 'primary' | 'backup';

export interface Mailer {
  send(msg: MailMessage, transport?: MailTransportName): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  smtpBackupUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}

const LINK = /https?:\/\/[^\s"'<>]+/g;

export function createMailer(opts: MailerOptions): Mailer {
  // One SMTP connection reused for mail after mail (a connection per mail managed 8.6 mails/s),
  // closed by close(); parameters in the URL's query win over these. The timeouts bound how long a
  // send that hangs keeps the outbox's claim on its row.
  const smtp = (url: string) =>
    nodemailer.createTransport({ url, pool: true, maxConnections: 2, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
  const primary: Transporter | undefined = opts.smtpUrl ? smtp(opts.smtpUrl) : undefined;
  const backup: Transporter | undefined = opts.smtpBackupUrl ? smtp(opts.smtpBackupUrl) : undefined;
  const fileTransport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const mailDir = path.join(opts.dataDir, 'mail');
  let seq = 0;

  async function writeEml(msg: MailMessage, via: string) {
    const info = await fileTransport.sendMail({ from: opts.from, ...msg });
    await fs.mkdir(mailDir, { recursive: true });
    const safeTo = msg.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
    const file = path.join(mailDir, `${Date.now()}-${++seq}-${safeTo}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    const links = msg.text.match(LINK) ?? [];
    opts.log.info({ to: msg.to, subject: msg.subject, file, links, via }, `mail written to ${file}${links.length ? ` links: ${links.join(' ')}` : ''}`);
  }

  return {
    async send(msg, transport = 'primary') {
      // Backup publishing uses the backup server when configured, otherwise the primary one.
      const t = transport === 'backup' ? (backup ?? primary) : primary;
      if (t) await t.sendMail({ from: opts.from, ...msg });
      else await writeEml(msg, transport);
    },
    close() {
      primary?.close();
      backup?.close();
    },
  };
}
