import { patchContext } from '../patch/patch-context.js';
import type { RuleTrace } from '../schema/dialect-rules.js';
import type { ScimGroup } from '../schema/group-schema.js';
import type { ScimUser } from '../schema/user-resource.js';
import type { GroupService } from './resources/kinds/group.js';
import { readMembers } from './groups/read-members.js';
import { filterReading } from './handlers/filter-reader.js';
import type { ResourceEndpoint } from './handlers/resource-endpoint.js';
import { compileHostType } from './host-types/compile-host-type.js';
import { hideNeverReturned } from './host-types/hide-never-returned.js';
import type { HostService } from './resources/kinds/host.js';
import type { ScimOptions } from './options.js';
import type { AnswerConventions } from './profiles.js';
import { compileGroupType, compileUserType, type BuiltInTypeOptions } from './resource-types.js';
import { UserEndpointService } from './users/user-endpoint.js';
import type { UserService } from './users/user-service.js';

/** The endpoints served under one profile's settings, and how to make a traced copy. */
export interface ServedSet {
  readonly endpoints: readonly ResourceEndpoint[];
  readonly make: (trace?: RuleTrace) => readonly ResourceEndpoint[];
  readonly answers: AnswerConventions;
}

/** What every served set is compiled from: the options and the services all sets share. */
export interface ServedSetSources {
  readonly options: ScimOptions;
  readonly users: UserService;
  /** The one group service of every profile (one lock per group), when the store keeps groups. */
  readonly groupService: GroupService | undefined;
  /** The one service of each resource type of the host's. */
  readonly hostServices: readonly HostService[];
  readonly reportError: (error: unknown) => void;
}

/**
 * Returns the compile step of the resource types served, each a row of the route table and of
 * discovery (Groups when the store keeps them), once per set of dialect switches: a tenant's
 * profile picks one, and a request someone listens to gets a copy whose PATCH engine reports
 * each rule it fires. Compiling builds no service: every set shares the services given.
 */
export function servedSets(
  sources: ServedSetSources,
): (patchRules: BuiltInTypeOptions['patchRules'], answers: AnswerConventions) => ServedSet {
  const { options, users, groupService, hostServices, reportError } = sources;
  const patchLimits = {
    ...(options.maxPatchOperations === undefined
      ? {}
      : { maxOperations: options.maxPatchOperations }),
    ...(options.maxPatchWork === undefined ? {} : { maxWork: options.maxPatchWork }),
  };
  return (patchRules, answers) => {
    const userType = compileUserType({ ...options, patchRules });
    // Compile the request validation now, so the first request does not pay for it.
    void userType.input;
    const groupType = options.store.groups
      ? compileGroupType({ ...options, patchRules })
      : undefined;
    const hostTypes = hostServices.map(({ host, service }) => {
      const type = compileHostType(host, patchRules);
      return { service, type, hidden: hideNeverReturned(type) };
    });
    const make = (trace?: RuleTrace): readonly ResourceEndpoint[] => {
      const userPatch = patchContext({ resourceType: userType, ...patchLimits });
      const list: ResourceEndpoint[] = [
        {
          type: userType,
          service: new UserEndpointService(users, {
            type: userType,
            patch: trace ? { ...userPatch, trace } : userPatch,
            onPassword: options.onPassword,
            reportError,
          }),
          ...filterReading(userType, trace),
          keysetPaging: options.store.capabilities?.keysetPaging === true,
          // The User's `groups`, computed from memberships for every user of a response at once.
          expand: (tenant, resources, project, baseUrl) =>
            users.withGroups(
              tenant,
              resources as readonly ScimUser[],
              `${baseUrl}/Groups`,
              project,
            ),
        },
      ];
      const groupStore = options.store.groups;
      if (groupService && groupType && groupStore) {
        const groupPatch = patchContext({ resourceType: groupType, ...patchLimits });
        list.push({
          type: groupType,
          service: groupService.inContext(trace ? { ...groupPatch, trace } : groupPatch),
          ...filterReading(groupType, trace),
          keysetPaging: options.store.groups?.capabilities?.keysetPaging === true,
          // Members, read page by page within the answer's budget, each with its `$ref`.
          expand: (tenant, resources, project, baseUrl, allowance) =>
            readMembers(
              groupStore,
              tenant,
              resources as readonly ScimGroup[],
              project,
              baseUrl,
              allowance,
            ),
          patchAnswersNoContent: true,
        });
      }
      for (const { service, type, hidden } of hostTypes) {
        const patch = patchContext({ resourceType: type, ...patchLimits });
        list.push({
          type,
          service: service.inContext(trace ? { ...patch, trace } : patch),
          ...filterReading(type, trace),
          keysetPaging: service.keysetPaging,
          ...(hidden && { present: hidden }),
        });
      }
      return list;
    };
    return { endpoints: make(), make, answers };
  };
}
