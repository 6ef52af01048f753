import type { ResourceStore, ScimResource } from '../../../contracts/resource-store.js';
import type { DeleteOptions, ListQuery } from '../../../contracts/store-query.js';
import { jsonMembersEqual } from '../../../json/json-value.js';
import { applyPatchIn } from '../../../patch/apply-patch.js';
import type { PatchContext } from '../../../patch/patch-context.js';
import { checkImmutable } from '../../../schema/check-immutable.js';
import { checkValueCounts } from '../../../schema/check-value-counts.js';
import type { CompiledResourceType } from '../../../schema/resource-type.js';
import type { ResourceInput } from '../../../schema/validate-resource-input.js';
import type { ScimEvent } from '../../events/types.js';
import type { ResourcePage } from '../../handlers/resource-endpoint.js';
import type { HostResourceType } from '../../host-types/host-resource-type.js';
import { resourceEvents } from '../../host-types/resource-events.js';
import { checkUniqueKeyText, uniqueKeysOf } from '../../host-types/unique-keys.js';
import type { EventRecorder, PatchStep, ResourceKind } from '../resource-kind.js';
import { assembleResource, firstResourceMeta, nextResourceMeta } from '../stored-resource.js';

type Json = Readonly<Record<string, unknown>>;

/**
 * A resource type the host registers, as the one resource service serves it: what the Group
 * has without the group rules. Ids and `meta` are the core's; PUT keeps immutable values,
 * PATCH goes through the patch engine; the host's `check` sees every write first, and unique
 * attributes reach the store as keys. Events: `resource.created`, `resource.updated`,
 * `resource.deleted`.
 */
export class HostKind implements ResourceKind<ScimResource, ScimResource, ScimResource> {
  readonly name: string;
  readonly plural: string;
  readonly #store: ResourceStore;

  constructor(
    /** The host's registration: its store and `check` hook. */
    readonly host: HostResourceType,
    /**
     * The compiled resource type (any profile's: what is read of it, schemas and attribute
     * characteristics, does not depend on the dialect switches).
     */
    private readonly type: CompiledResourceType,
    /** Most values of one multi-valued attribute (`maxAttributeValues`). */
    private readonly maxAttributeValues: number,
  ) {
    this.name = type.name;
    this.plural = type.endpoint.slice(1);
    this.#store = host.store;
  }

  get capabilities() {
    return this.#store.capabilities;
  }

  read(tenant: string, id: string): Promise<ScimResource | null> {
    return this.#store.get(tenant, id);
  }

  list(tenant: string, query: ListQuery): Promise<ResourcePage<ScimResource>> {
    return this.#store.list(tenant, { ...query, resourceType: query.resourceType ?? this.type });
  }

  get recordsEvents(): boolean {
    return this.#store.events !== undefined;
  }

  async insert(
    tenant: string,
    resource: ScimResource,
    record: EventRecorder<ScimResource> | undefined,
  ): Promise<ScimResource> {
    const uniqueKeys = uniqueKeysOf(resource, this.type);
    const options = record ? { uniqueKeys, events: record(resource) } : { uniqueKeys };
    await this.#store.create(tenant, resource, options);
    return resource;
  }

  async write(
    tenant: string,
    current: ScimResource,
    planned: ScimResource,
    _ifMatch: string | undefined,
    record: EventRecorder<ScimResource> | undefined,
  ): Promise<ScimResource | null> {
    await this.host.check?.(tenant, planned);
    const uniqueKeys = uniqueKeysOf(planned, this.type);
    const expectedVersion = current.meta.version;
    const events = record?.(planned);
    const options =
      events && events.length > 0
        ? { expectedVersion, uniqueKeys, events }
        : { expectedVersion, uniqueKeys };
    const replaced = await this.#store.replace(tenant, planned, options);
    return replaced ? planned : null;
  }

  remove(tenant: string, id: string, options: DeleteOptions): Promise<boolean> {
    return this.#store.delete(tenant, id, options);
  }

  async planCreate(
    tenant: string,
    id: string,
    input: ResourceInput,
    now: string,
  ): Promise<ScimResource> {
    const { type } = this;
    checkValueCounts(input.attributes, type, this.maxAttributeValues);
    checkUniqueKeyText(input.attributes, type);
    const resource = assembleResource(
      id,
      input.attributes,
      firstResourceMeta(type.name, now),
      type,
    );
    await this.host.check?.(tenant, resource);
    return resource;
  }

  /** PUT: readWrite attributes left out are cleared; set immutable ones must stay the same. */
  async planReplace(
    _tenant: string,
    current: ScimResource,
    input: ResourceInput,
    now: string,
  ): Promise<ScimResource | null> {
    return this.#next(current, checkImmutable(current, input.attributes, this.type), now);
  }

  async planPatch(
    ctx: PatchContext,
    _tenant: string,
    current: ScimResource,
    body: unknown,
    now: string,
  ): Promise<PatchStep<ScimResource>> {
    const result = applyPatchIn(ctx, current, body);
    return {
      write: result.changed ? this.#next(current, result.resource, now) : null,
      writeOnly: {},
    };
  }

  after(done: ScimResource): ScimResource {
    return done;
  }

  events(
    tenant: string,
    at: string,
    id: string,
    before: ScimResource | null,
    done: ScimResource | null,
  ): ScimEvent[] {
    return resourceEvents(tenant, at, this.type.name, id, before, done);
  }

  // The version after `current` with these attributes; null when nothing changes.
  #next(current: ScimResource, attributes: Json, now: string): ScimResource | null {
    const { type } = this;
    checkValueCounts(attributes, type, this.maxAttributeValues, current);
    checkUniqueKeyText(attributes, type, current);
    const next = assembleResource(
      current.id,
      attributes,
      nextResourceMeta(current.meta, now),
      type,
    );
    return jsonMembersEqual(next, current, 'meta') ? null : next;
  }
}
