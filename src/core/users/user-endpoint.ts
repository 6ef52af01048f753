import type { ListQuery } from '../../contracts/store-query.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { applyPatchIn } from '../../patch/apply-patch.js';
import type { PatchContext } from '../../patch/patch-context.js';
import { checkImmutable } from '../../schema/check-immutable.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { ResourceInput } from '../../schema/validate-resource-input.js';
import type { ResourcePage, EndpointService } from '../handlers/resource-endpoint.js';
import type { UserService } from './user-service.js';

/** What the User's endpoints add to the `UserService`: the PATCH context and the password hook. */
export interface UserEndpointSettings {
  /** The User resource type, compiled once. */
  readonly type: CompiledResourceType;
  /** What every PATCH applies in. */
  readonly patch: PatchContext;
  /** The host's password hook, if any. */
  readonly onPassword:
    ((tenant: string, userId: string, password: string) => void | Promise<void>) | undefined;
  /** Reports a fault that must not fail the request (a failing password hook). */
  readonly reportError: (error: unknown) => void;
}

/**
 * The User's operations in the terms of SCIM requests, for the generic resource handlers: the
 * `UserService` (account status, the welcome email), the PUT rule that an omitted `active`
 * stays as it is, and the writeOnly `password` handed to the host's hook after the write.
 */
export class UserEndpointService implements EndpointService<ScimUser> {
  constructor(
    private readonly users: UserService,
    private readonly settings: UserEndpointSettings,
  ) {}

  create(tenant: string, input: ResourceInput): Promise<ScimUser> {
    return this.#thenPassword(
      tenant,
      this.users.create(tenant, input.attributes),
      () => input.password,
    );
  }

  get(tenant: string, id: string): Promise<ScimUser> {
    return this.users.get(tenant, id);
  }

  list(tenant: string, query: ListQuery): Promise<ResourcePage<ScimUser>> {
    return this.users.list(tenant, query);
  }

  assertFilterSupported(filter: Filter, text: string): void {
    this.users.assertFilterSupported(filter, text);
  }

  assertSortSupported(path: AttributePath, text: string): void {
    this.users.assertSortSupported(path, text);
  }

  /**
   * PUT: readWrite attributes left out are cleared (roles included), except `active`, which an
   * omitted value leaves as it is; a change to a set immutable attribute is 400 `mutability`.
   */
  replace(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    input: ResourceInput,
  ): Promise<ScimUser> {
    const { type } = this.settings;
    // Checked against the version being replaced, so a concurrent write cannot slip past it.
    const written = this.users.update(tenant, id, ifMatch, (current) => {
      const kept = checkImmutable(current, input.attributes, type);
      const active = input.attributes.active ?? current.active;
      // No copy when the PUT sent `active`, the usual case.
      return kept.active === active ? kept : { ...kept, active };
    });
    return this.#thenPassword(tenant, written, () => input.password);
  }

  /** PATCH: a `password` the operations set, however they name it, goes to the hook. */
  patch(tenant: string, id: string, ifMatch: string | undefined, body: unknown): Promise<ScimUser> {
    let password: unknown;
    const written = this.users.update(tenant, id, ifMatch, (current) => {
      const result = applyPatchIn(this.settings.patch, current, body);
      // From the attempt that is written: the update may run this again on a newer version.
      password = result.writeOnly.password;
      return result.changed ? result.resource : null;
    });
    // The engine coerced it to the attribute's type, a string.
    return this.#thenPassword(tenant, written, () =>
      typeof password === 'string' ? password : undefined,
    );
  }

  delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    return this.users.delete(tenant, id, ifMatch);
  }

  // The written user, once the password the write carried (read when it is done) is with the
  // host's hook; without a hook or a password, the write's own promise: no further turn.
  #thenPassword(
    tenant: string,
    written: Promise<ScimUser>,
    password: () => string | undefined,
  ): Promise<ScimUser> {
    if (!this.settings.onPassword) return written;
    return written.then(async (user) => {
      await this.#deliverPassword(tenant, user.id, password());
      return user;
    });
  }

  // Hands a client's writeOnly `password` to the host's hook after the write. A failing hook is
  // reported to `onError`; the SCIM request has already succeeded.
  async #deliverPassword(tenant: string, userId: string, password: string | undefined) {
    const hook = this.settings.onPassword;
    if (password === undefined || !hook) return;
    try {
      await hook(tenant, userId, password);
    } catch (error) {
      this.settings.reportError(error);
    }
  }
}
