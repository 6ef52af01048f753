import { appendFile } from 'node:fs/promises';
import type { Mailer, WelcomeEmail } from '../../src/index.js';
import type { ActivationLinks } from './activation-links.js';

/** One line of the mail log file. */
export interface MailLogLine {
  readonly to: string;
  readonly subject: string;
  readonly idempotencyKey: string;
  readonly activationLink: string;
  readonly tenant: string;
  readonly userId: string;
}

/**
 * A development Mailer: prints that each welcome email went out and, when a file is given,
 * appends the whole email (activation link included) as one JSON line, the developer's
 * mailbox. The printed log never shows a usable link: logs are read by more people than the
 * person the email is for. Swap in your email provider in production.
 */
export function logMailer(
  links: ActivationLinks,
  file: string | undefined,
  print: (text: string) => void,
): Mailer {
  return {
    async sendWelcome(email: WelcomeEmail) {
      const activationLink = await links.issue(email);
      const line: MailLogLine = {
        to: email.to,
        subject: 'Welcome to your school district account',
        idempotencyKey: email.idempotencyKey,
        activationLink,
        tenant: email.tenant,
        userId: email.userId,
      };
      if (file) await appendFile(file, `${JSON.stringify(line)}\n`);
      const where = file
        ? `its activation link is in ${file}`
        : 'set SCIMKIT_MAIL_LOG to keep its activation link';
      const redacted = activationLink.replace(/token=.*/, 'token=…');
      print(
        `[mail] welcome email to=${email.to} key=${email.idempotencyKey}: ${where} (${redacted})`,
      );
    },
  };
}
