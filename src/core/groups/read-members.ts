import type { GroupStore } from '../../contracts/group-store.js';
import type { GroupMember, ScimGroup } from '../../schema/group-schema.js';
import type { Projector } from '../../schema/project-resource.js';
import type { ResponseAllowance } from '../budget/response-allowance.js';
import { presentMembers } from './stored-group.js';

/** Members read per store call: a group of 100,000 is read in pieces, never in one. */
export const MEMBER_PAGE = 2_000;

/**
 * Members read for every group of a page at once (`GroupStore.firstMembers`), before any is
 * counted: a page of small groups costs one read, and that read holds at most this many
 * members per group.
 */
export const FIRST_MEMBERS = 200;

// Every sub-attribute set: a projection that keeps any of them keeps `members`.
const PROBE = {
  members: [{ value: 'm', $ref: 'r', display: 'd', type: 'User' }],
} as const;

/**
 * Tells whether a response shaped by `project` shows a group's `members` (no projection: it
 * does). Asked of the projector itself, so the rule of what `attributes` /
 * `excludedAttributes` keep stays in one place; `excludedAttributes=members` reads none.
 */
export function keepsMembers(project: Projector | undefined): boolean {
  return project === undefined || project(PROBE).members !== undefined;
}

// What a member adds to the text of its group, counted before the text exists:
// `{"value":"…","$ref":"<base>/Users/…","display":"…","type":"User"},` as ASCII.
const memberBytes = (m: GroupMember, baseUrl: number) =>
  60 + 2 * m.value.length + baseUrl + (m.display?.length ?? 0);

/**
 * Adds their members to the groups of a response, read page by page from the store
 * (`members`), each page reserved in the answer's `allowance` as it arrives, and presented
 * (`$ref`). The groups come back in order, as many as fit: the read stops at the first group
 * whose members do not, so no more than the allowance (and one page) is ever held. When not
 * even the answer's first part fits, it throws the allowance's refusal (400 `tooMany`, or 503
 * when other answers hold the room). Groups are returned as they are when the
 * response does not show `members`.
 *
 * On any failure the allowance is closed, so a read that throws holds nothing.
 */
export async function readMembers(
  store: GroupStore,
  tenant: string,
  groups: readonly ScimGroup[],
  project: Projector | undefined,
  baseUrl: string,
  allowance: ResponseAllowance,
): Promise<readonly ScimGroup[]> {
  return keepsMembers(project) ? await readEach(store, tenant, groups, baseUrl, allowance) : groups;
}

async function readEach(
  store: GroupStore,
  tenant: string,
  groups: readonly ScimGroup[],
  baseUrl: string,
  allowance: ResponseAllowance,
): Promise<readonly ScimGroup[]> {
  const out: ScimGroup[] = [];
  try {
    const heads =
      store.firstMembers && groups.length > 1
        ? await store.firstMembers(
            tenant,
            groups.map((g) => g.id),
            FIRST_MEMBERS,
          )
        : undefined;
    for (const group of groups) {
      // The answer's first part: no group before it, nothing kept before it (the root search).
      const first = out.length === 0 && allowance.held === 0;
      const head = heads && (heads.get(group.id) ?? []);
      const read = await readGroupMembers(store, tenant, group.id, baseUrl, allowance, head);
      if (typeof read === 'number') {
        if (first) throw allowance.refusal(read);
        break;
      }
      const { members: _stored, meta, ...rest } = group;
      out.push(read.length === 0 ? group : ({ ...rest, members: read, meta } as ScimGroup));
    }
  } catch (error) {
    allowance.close();
    throw error;
  }
  return out;
}

// A group's members, presented; or, when they do not fit, the bytes counted up to the page
// that did not (what the group needs at least). `head`: its first members, read already with
// the page's other groups (see FIRST_MEMBERS).
async function readGroupMembers(
  store: GroupStore,
  tenant: string,
  id: string,
  baseUrl: string,
  allowance: ResponseAllowance,
  head: readonly GroupMember[] | undefined,
): Promise<GroupMember[] | number> {
  const members: GroupMember[] = [];
  let counted = 0;
  let after: string | undefined;
  let page: readonly GroupMember[] | null | undefined = head;
  // A page shorter than asked for is the group's last.
  let asked = FIRST_MEMBERS;
  for (;;) {
    if (page === undefined) {
      asked = MEMBER_PAGE;
      page = await store.members(
        tenant,
        id,
        after === undefined ? { count: asked } : { after, count: asked },
      );
    }
    if (page === null || page.length === 0) return members;
    let bytes = 0;
    for (const m of page) bytes += memberBytes(m, baseUrl.length);
    counted += bytes;
    if (!allowance.reserve(bytes)) return counted;
    for (const m of presentMembers(page, baseUrl)) members.push(m);
    if (page.length < asked) return members;
    after = page[page.length - 1]?.value;
    page = undefined;
  }
}
