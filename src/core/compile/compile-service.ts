import type { StoreCapabilities } from '../../contracts/store-query.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { resolveProfiles, type ResolvedProfiles } from '../profiles.js';
import { builtInResourceTypes, type BuiltInTypeOptions } from '../resource-types.js';
import type { ScimSettings } from './scim-settings.js';

/** What the store of one served resource type declares it can do. */
export interface ServedTypeCapabilities {
  /** It declares which filters it answers (`supportsFilter`); others answer 400. */
  readonly filter: boolean;
  /** It sorts (`supportsSort`); without it `sortBy` answers 400. */
  readonly sort: boolean;
  /** It pages by key (`keysetPaging`), so RFC 9865 cursors are served. */
  readonly keysetPaging: boolean;
}

/** One resource type the service serves, as data. */
export interface ServedTypeDescription {
  /** Its name, such as `User`. */
  readonly name: string;
  /** Its endpoint below the base path, such as `/Users`. */
  readonly endpoint: string;
  /** The ids of its schemas, the core schema first. */
  readonly schemas: readonly string[];
  /** What its store declares. */
  readonly capabilities: ServedTypeCapabilities;
}

/**
 * A SCIM service as `createScim` builds it, decided from its options alone: the resolved
 * settings (the store, the verifier and the host's hooks are its only functions) and what they
 * compile to, no state. Print it to see what a configuration serves.
 */
export interface ServiceDescription extends Omit<ScimSettings, 'limits' | 'paging'> {
  /**
   * The limits, with `readBodyBytes`: adapters read as far as the larger of the body and the
   * Bulk payload limits, and each handler holds its body to its own.
   */
  readonly limits: ScimSettings['limits'] & { readonly readBodyBytes: number };
  /** Paging, with `cursors`: RFC 9865 cursors are served when the user store pages by key. */
  readonly paging: ScimSettings['paging'] & { readonly cursors: boolean };
  /** Every resource type served, in discovery's order: the User, the Group, the host's. */
  readonly served: readonly ServedTypeDescription[];
  /**
   * The same types compiled with the default profile's dialect rules: what the host API, the
   * request event and discovery read (a type's schemas do not depend on its rules).
   */
  readonly types: readonly CompiledResourceType[];
  /** What each profile's resource types are compiled from, with its own dialect rules. */
  readonly typeOptions: BuiltInTypeOptions;
  /** Every profile, resolved, and the default one. */
  readonly profiles: ResolvedProfiles;
}

function capabilities(declared: StoreCapabilities | undefined): ServedTypeCapabilities {
  return {
    filter: typeof declared?.supportsFilter === 'function',
    sort: typeof declared?.supportsSort === 'function',
    keysetPaging: declared?.keysetPaging === true,
  };
}

/**
 * Compiles resolved options into the description of the service they make: the resource types
 * served with their schemas and store capabilities, the profiles, limits and paging. Pure: it
 * builds no service, store or timer, so a test may call it for any configuration.
 *
 * @throws ScimConfigError for an invalid extension, host resource type or profile.
 */
export function compileService(settings: ScimSettings): ServiceDescription {
  const { store, limits, schema, dialects, resourceTypes } = settings;
  const profiles = resolveProfiles(dialects);
  const typeOptions: BuiltInTypeOptions = {
    extensions: schema.extensions,
    groupExtensions: schema.groupExtensions,
    store,
    resourceTypes,
  };
  const patchRules = profiles.byName.get(profiles.defaultProfile);
  const types = builtInResourceTypes({ ...typeOptions, patchRules });
  const stores = [
    store.capabilities,
    ...(store.groups ? [store.groups.capabilities] : []),
    ...resourceTypes.map((host) => host.store.capabilities),
  ];
  return {
    ...settings,
    limits: { ...limits, readBodyBytes: Math.max(limits.maxBodyBytes, limits.maxBulkPayloadBytes) },
    paging: { ...settings.paging, cursors: store.capabilities?.keysetPaging === true },
    served: types.map((type, i) => ({
      name: type.name,
      endpoint: type.endpoint,
      schemas: type.schemas.map((s) => s.id),
      capabilities: capabilities(stores[i]),
    })),
    types,
    typeOptions,
    profiles,
  };
}
