import { patchContext, type PatchContext } from '../patch/patch-context.js';
import type { RuleTrace } from '../schema/dialect-rules.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import { filterReading } from './handlers/filter-reader.js';
import type { EndpointService, ResourceEndpoint } from './handlers/resource-endpoint.js';
import type { AnswerConventions } from './profiles.js';
import type { BuiltInTypeOptions } from './resource-types.js';

/** The endpoints served under one profile's settings, and how to make a traced copy. */
export interface ServedSet {
  readonly endpoints: readonly ResourceEndpoint[];
  readonly make: (trace?: RuleTrace) => readonly ResourceEndpoint[];
  readonly answers: AnswerConventions;
}

/** What a row of the route table adds for its type, beyond the service and the filter readers. */
export type EndpointExtras = Partial<
  Pick<ResourceEndpoint, 'expand' | 'present' | 'patchAnswersNoContent'>
>;

/** One resource type served: its one service, and how a profile's row of it is compiled. */
export interface ServedType {
  /** Compiles the type under one set of dialect switches. */
  readonly compile: (patchRules: BuiltInTypeOptions['patchRules']) => CompiledResourceType;
  /** The one service of the type, shared by every profile (one lock per resource). */
  readonly service: {
    /** The service as one profile's endpoint calls it: its PATCHes read in `ctx`. */
    inContext(ctx: PatchContext): EndpointService;
    /** Whether the store pages by keyset (RFC 9865 cursors). */
    readonly keysetPaging: boolean;
  };
  /** What the row adds for the compiled type (a group's members, the User's `groups`). */
  readonly extras?: (type: CompiledResourceType) => EndpointExtras;
}

/**
 * Returns the compile step of the resource types served, each a row of the route table and of
 * discovery, once per set of dialect switches: a tenant's profile picks one, and a request
 * someone listens to gets a copy whose PATCH engine reports each rule it fires. Compiling
 * builds no service: every set shares the services given.
 */
export function servedSets(
  limits: {
    readonly maxPatchOperations?: number | undefined;
    readonly maxPatchWork?: number | undefined;
  },
  served: readonly ServedType[],
): (patchRules: BuiltInTypeOptions['patchRules'], answers: AnswerConventions) => ServedSet {
  const patchLimits = {
    ...(limits.maxPatchOperations === undefined
      ? {}
      : { maxOperations: limits.maxPatchOperations }),
    ...(limits.maxPatchWork === undefined ? {} : { maxWork: limits.maxPatchWork }),
  };
  return (patchRules, answers) => {
    const rows = served.map(({ compile, service, extras }) => {
      const type = compile(patchRules);
      return { type, service, extras: extras?.(type) ?? {} };
    });
    const make = (trace?: RuleTrace): readonly ResourceEndpoint[] =>
      rows.map(({ type, service, extras }) => {
        const patch = patchContext({ resourceType: type, ...patchLimits });
        return {
          type,
          service: service.inContext(trace ? { ...patch, trace } : patch),
          ...filterReading(type, trace),
          keysetPaging: service.keysetPaging,
          ...extras,
        };
      });
    return { endpoints: make(), make, answers };
  };
}
