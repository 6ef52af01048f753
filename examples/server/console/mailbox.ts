import { ActivationLinks, type Invitation } from '../activation-links.js';

/** How many welcome emails the dev mailbox keeps per tenant. */
export const MAILBOX_SIZE = 500;

/** One welcome email as the development mailer sent it. */
export interface MailboxEntry {
  readonly tenant: string;
  readonly userId: string;
  readonly to: string;
  /** The email's idempotency key: a retried delivery replaces the entry with its new link. */
  readonly key: string;
  readonly activationLink: string;
  readonly at: string;
}

/** The development mailbox: every welcome email's activation link, per tenant, newest first. */
export class DevMailbox {
  readonly #byTenant = new Map<string, MailboxEntry[]>();
  #changes = 0;

  /** Counts the mailbox's changes, so a view can tell whether to redraw. */
  get changes(): number {
    return this.#changes;
  }

  /** Records an email; a retry of the same email replaces the earlier entry. */
  record(entry: MailboxEntry): void {
    const list = (this.#byTenant.get(entry.tenant) ?? []).filter((e) => e.key !== entry.key);
    list.unshift(entry);
    if (list.length > MAILBOX_SIZE) list.length = MAILBOX_SIZE;
    this.#byTenant.set(entry.tenant, list);
    this.#changes++;
  }

  /** The tenant's emails, newest first. */
  list(tenant: string): readonly MailboxEntry[] {
    return this.#byTenant.get(tenant) ?? [];
  }
}

/**
 * Activation links that also land in a {@link DevMailbox}: the link the welcome email carries
 * is issued here, so the mailbox shows exactly the link that was sent.
 */
export class MailboxLinks extends ActivationLinks {
  constructor(
    private readonly mailbox: DevMailbox,
    options: ConstructorParameters<typeof ActivationLinks>[0],
  ) {
    super(options);
  }

  override async issue(invitation: Invitation & { readonly to?: string }): Promise<string> {
    const link = await super.issue(invitation);
    this.mailbox.record({
      tenant: invitation.tenant,
      userId: invitation.userId,
      to: invitation.to ?? '',
      key: invitation.id,
      activationLink: link,
      at: new Date().toISOString(),
    });
    return link;
  }
}
