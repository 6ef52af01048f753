import type { ListQuery } from '../../contracts/store-query.js';
import type { ResourceStore, ScimResource } from '../../contracts/resource-store.js';
import { scimErrors } from '../../errors/index.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { jsonMembersEqual } from '../../json/json-value.js';
import { previewJson } from '../../json/preview-json.js';
import { applyPatchIn } from '../../patch/apply-patch.js';
import type { PatchContext } from '../../patch/patch-context.js';
import { checkImmutable } from '../../schema/check-immutable.js';
import { checkValueCounts } from '../../schema/check-value-counts.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { ResourceInput } from '../../schema/validate-resource-input.js';
import type { EventHub } from '../events/event-hub.js';
import type { ResourcePage } from '../handlers/resource-endpoint.js';
import type { ProfileNeutralService } from '../handlers/service-in-context.js';
import { assertStoreFilters, assertStoreSorts } from '../resources/store-support.js';
import { newId } from '../resources/new-id.js';
import { WriteLoop } from '../resources/write-loop.js';
import type { HostResourceType } from './host-resource-type.js';
import { resourceEvents } from './resource-events.js';
import {
  assembleResource,
  firstResourceMeta,
  nextResourceMeta,
} from '../resources/stored-resource.js';
import { checkUniqueKeyText, uniqueKeysOf } from './unique-keys.js';

type Json = Record<string, unknown>;

/** What a {@link HostResourceService} works with besides the host's registration. */
export interface HostServiceSettings {
  /**
   * The compiled resource type (any profile's: what the service reads of it, schemas and
   * attribute characteristics, does not depend on the dialect switches).
   */
  readonly type: CompiledResourceType;
  readonly events: EventHub;
  readonly clock: () => Date;
  /** Most values of one multi-valued attribute (`maxAttributeValues`). */
  readonly maxAttributeValues: number;
}

/**
 * The operations of a resource type the host registers, for the generic resource handlers:
 * what the Group's service does without the group rules. Ids and `meta` are the core's;
 * bodies arrive validated against the compiled type; PUT keeps immutable values, PATCH goes
 * through the patch engine; every change is written through the one `WriteLoop` (per-id lock,
 * If-Match, 404, retries on a version conflict) and the host's `check` sees it first; events
 * `resource.created`, `resource.updated` and `resource.deleted` follow what was committed.
 * One service serves every compatibility profile: a PATCH names the context it is read in.
 */
export class HostResourceService implements ProfileNeutralService<ScimResource> {
  readonly #store: ResourceStore;
  readonly #loop: WriteLoop<ScimResource, ScimResource, ScimResource>;

  constructor(
    /** The host's registration: its store and `check` hook. */
    readonly host: HostResourceType,
    private readonly settings: HostServiceSettings,
  ) {
    const store = host.store;
    this.#store = store;
    this.#loop = new WriteLoop<ScimResource, ScimResource, ScimResource>(
      {
        notFound: (id) => this.#notFound(id),
        read: (tenant, id) => store.get(tenant, id),
        write: async (tenant, current, planned) => {
          await host.check?.(tenant, planned);
          const uniqueKeys = uniqueKeysOf(planned, settings.type);
          const expectedVersion = current.meta.version;
          return (await store.replace(tenant, planned, { expectedVersion, uniqueKeys }))
            ? planned
            : null;
        },
        remove: (tenant, id, options) => store.delete(tenant, id, options),
        committed: (tenant, at, id, before, done) => this.#emit(tenant, at, id, before, done),
      },
      settings.clock,
    );
  }

  /** Whether the store pages by keyset, so the endpoint answers RFC 9865 cursors. */
  get keysetPaging(): boolean {
    return this.#store.capabilities?.keysetPaging === true;
  }

  async create(tenant: string, input: ResourceInput): Promise<ScimResource> {
    const { type, clock, maxAttributeValues } = this.settings;
    checkValueCounts(input.attributes, type, maxAttributeValues);
    checkUniqueKeyText(input.attributes, type);
    const date = clock();
    const now = date.toISOString();
    const id = newId(date.getTime());
    const resource = assembleResource(
      id,
      input.attributes,
      firstResourceMeta(type.name, now),
      type,
    );
    await this.host.check?.(tenant, resource);
    await this.#store.create(tenant, resource, { uniqueKeys: uniqueKeysOf(resource, type) });
    this.#emit(tenant, now, id, null, resource);
    return resource;
  }

  async get(tenant: string, id: string): Promise<ScimResource> {
    const resource = await this.#store.get(tenant, id);
    if (!resource) throw this.#notFound(id);
    return resource;
  }

  list(tenant: string, query: ListQuery): Promise<ResourcePage<ScimResource>> {
    return this.#store.list(tenant, {
      ...query,
      resourceType: query.resourceType ?? this.settings.type,
    });
  }

  assertFilterSupported(filter: Filter, text: string): void {
    assertStoreFilters(this.#store.capabilities, filter, text);
  }

  assertSortSupported(path: AttributePath, text: string): void {
    assertStoreSorts(this.#store.capabilities, path, text, this.settings.type.endpoint.slice(1));
  }

  /** PUT: readWrite attributes left out are cleared; set immutable ones must stay the same. */
  async replace(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    input: ResourceInput,
  ): Promise<ScimResource> {
    const { current, done } = await this.#loop.write(tenant, id, ifMatch, async (stored, now) =>
      this.#next(stored, checkImmutable(stored, input.attributes, this.settings.type), now),
    );
    return done ?? current;
  }

  /** PATCH, read in `ctx`: all operations or none; a PATCH that changes nothing writes nothing. */
  async patch(
    ctx: PatchContext,
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    body: unknown,
  ): Promise<ScimResource> {
    const { current, done } = await this.#loop.write(tenant, id, ifMatch, async (stored, now) => {
      const result = applyPatchIn(ctx, stored, body);
      return result.changed ? this.#next(stored, result.resource, now) : null;
    });
    return done ?? current;
  }

  delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    return this.#loop.delete(tenant, id, ifMatch);
  }

  // The version after `current` with these attributes; null when nothing changes.
  #next(current: ScimResource, attributes: Json, now: string): ScimResource | null {
    const { type, maxAttributeValues } = this.settings;
    checkValueCounts(attributes, type, maxAttributeValues, current);
    checkUniqueKeyText(attributes, type, current);
    const meta = nextResourceMeta(current.meta, now);
    const next = assembleResource(current.id, attributes, meta, type);
    return jsonMembersEqual(next, current, 'meta') ? null : next;
  }

  #notFound(id: string) {
    return scimErrors.notFound(`${this.settings.type.name} ${previewJson(id)} not found.`);
  }

  #emit(
    tenant: string,
    at: string,
    id: string,
    before: ScimResource | null,
    after: ScimResource | null,
  ) {
    const { events, type } = this.settings;
    if (!events.active) return;
    for (const event of resourceEvents(tenant, at, type.name, id, before, after))
      events.emit(event);
  }
}
