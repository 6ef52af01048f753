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
 * A development Mailer: prints each welcome email to the log and, when a file is given, appends
 * it as one JSON line for scripts and tests. Swap in your email provider in production.
 */
export function logMailer(
  links: ActivationLinks,
  file: string | undefined,
  print: (text: string) => void,
): Mailer {
  return {
    async sendWelcome(email: WelcomeEmail) {
      const activationLink = links.linkFor(email.tenant, email.userId);
      const greeting = email.givenName ? `Hello ${email.givenName},` : 'Hello,';
      const line: MailLogLine = {
        to: email.to,
        subject: 'Welcome to your school district account',
        idempotencyKey: email.idempotencyKey,
        activationLink,
        tenant: email.tenant,
        userId: email.userId,
      };
      if (file) await appendFile(file, `${JSON.stringify(line)}\n`);
      print(
        `[mail] to=${email.to} key=${email.idempotencyKey}\n  ${greeting} your account is ready. Activate it: ${activationLink}`,
      );
    },
  };
}
