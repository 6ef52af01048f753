import type { ScimGroup } from '../../schema/group-schema.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { userNameCheck } from '../../schema/user-name-rule.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { EventHub } from '../events/event-hub.js';
import { groupAccess } from '../groups/group-access.js';
import { readMembers } from '../groups/read-members.js';
import { compileHostType } from '../host-types/compile-host-type.js';
import { hideNeverReturned } from '../host-types/hide-never-returned.js';
import type { ServiceDescription } from '../compile/compile-service.js';
import type { AnswerConventions } from '../profiles.js';
import { compileGroupType, compileUserType, type BuiltInTypeOptions } from '../resource-types.js';
import type { GroupAccess, UserLifecycle } from '../scim.js';
import { expandGroups } from '../users/user-groups.js';
import { userLifecycle } from '../users/user-lifecycle.js';
import { servedSets, type ServedSet, type ServedType } from '../served-set.js';
import { GroupKind } from './kinds/group.js';
import { HostKind } from './kinds/host.js';
import { UserKind } from './kinds/user.js';
import { ResourceService } from './resource-service.js';

/** What the resource services of one `createScim` are built from. */
export interface ResourceServiceSources {
  /** The service's compiled description: the store, the host's types, limits and hooks. */
  readonly service: ServiceDescription;
  readonly events: EventHub;
  /** Whether the service sends welcome emails (has a mailer): writes then record `user.invited`. */
  readonly invites: boolean;
  readonly now: () => Date;
  /** The User resource type with the default profile's dialect switches. */
  readonly resourceType: CompiledResourceType;
  readonly reportError: (error: unknown) => void;
  /** The default profile's dialect switches: the types the services read are compiled with them. */
  readonly defaultSwitches: BuiltInTypeOptions['patchRules'];
}

/** The services of every resource type served, and the host API over them. */
export interface ResourceServices {
  /** Compiles the served types under one profile's switches (see `servedSets`). */
  readonly servedWith: (
    patchRules: BuiltInTypeOptions['patchRules'],
    answers: AnswerConventions,
  ) => ServedSet;
  /** The host's user API (`scim.users`). */
  readonly users: UserLifecycle;
  /** The host's group API (`scim.groups`), when the store keeps groups. */
  readonly groups: GroupAccess | undefined;
}

/**
 * Builds one {@link ResourceService} per resource type served (the User, the Group when the
 * store keeps groups, each type of the host's), each configured by its kind, and the rows every
 * profile serves them in.
 */
export function resourceServices(sources: ResourceServiceSources): ResourceServices {
  const { service: description, events, invites, now, resourceType, reportError } = sources;
  const { store, typeOptions, limits, hooks } = description;
  const { defaultSwitches } = sources;
  const maxAttributeValues = limits.maxAttributeValues;
  const userKind = new UserKind(store, resourceType, {
    invites,
    maxAttributeValues,
    checkUserName: userNameCheck(description.schema.userNameRule),
    onPassword: hooks.onPassword,
    reportError,
  });
  const users = new ResourceService(userKind, events, now);
  const served: ServedType[] = [
    {
      compile(patchRules) {
        const type = compileUserType({ ...typeOptions, patchRules });
        // Compile the request validation now, so the first request does not pay for it.
        void type.input;
        return type;
      },
      service: users,
      // The User's `groups`, computed from memberships for every user of a response at once.
      extras: () => ({
        expand: (tenant, resources, project, baseUrl) =>
          expandGroups(
            store,
            tenant,
            resources as readonly ScimUser[],
            `${baseUrl}/Groups`,
            project,
          ),
      }),
    },
  ];
  let groups: GroupAccess | undefined;
  const groupStore = store.groups;
  if (groupStore) {
    const groupType = compileGroupType({ ...typeOptions, patchRules: defaultSwitches });
    const service = new ResourceService(
      new GroupKind(groupStore, groupType, events, store.events !== undefined),
      events,
      now,
    );
    groups = groupAccess(service, groupStore);
    served.push({
      compile: (patchRules) => compileGroupType({ ...typeOptions, patchRules }),
      service,
      extras: () => ({
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
      }),
    });
  }
  for (const host of description.resourceTypes) {
    const kind = new HostKind(host, compileHostType(host, defaultSwitches), maxAttributeValues);
    served.push({
      compile: (patchRules) => compileHostType(host, patchRules),
      service: new ResourceService(kind, events, now),
      extras(type) {
        const hidden = hideNeverReturned(type);
        return hidden ? { present: hidden } : {};
      },
    });
  }
  return {
    servedWith: servedSets(limits, served),
    users: userLifecycle(users, userKind, store),
    groups,
  };
}
