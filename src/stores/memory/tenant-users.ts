import type { ScimUser } from '../../schema/user-resource.js';
import { userNameKey } from '../../schema/user-name-key.js';
import { TenantTable } from './tenant-table.js';

/**
 * Holds one tenant's users and the indexes that answer every lookup without a scan: the
 * userName's key and the externalId, beside the table's id order.
 *
 * @internal
 */
export class TenantUsers extends TenantTable<ScimUser> {
  /** userName key (`userNameKey`: NFC, simple case folding) → id. */
  readonly idByUserName = new Map<string, string>();
  /**
   * externalId (caseExact) → the id holding it, or a set of ids when clients reused it (it is
   * not unique): most externalIds are held by one user, and a string costs far less than a set.
   */
  readonly #byExternalId = new Map<string, string | Set<string>>();

  /** Returns the id holding `userName` in this tenant, whatever its case. */
  ownerOf(userName: string): string | undefined {
    return this.idByUserName.get(userNameKey(userName));
  }

  /** Returns the ids of the users holding `externalId` (caseExact), in no particular order. */
  idsWithExternalId(externalId: string): string[] {
    const held = this.#byExternalId.get(externalId);
    if (held === undefined) return [];
    return typeof held === 'string' ? [held] : [...held];
  }

  /**
   * Indexes a user that is not stored yet, unless its userName is taken: then it returns false
   * and changes nothing. The userName's key is computed once for the check and the index.
   */
  addUnlessTaken(user: ScimUser): boolean {
    const key = userNameKey(user.userName);
    if (this.idByUserName.has(key)) return false;
    this.add(user);
    this.idByUserName.set(key, user.id);
    if (typeof user.externalId === 'string') this.#addExternalId(user.externalId, user.id);
    return true;
  }

  /** Swaps a stored user for its new version, moving only the index entries that changed. */
  swap(previous: ScimUser, next: ScimUser): void {
    this.byId.set(next.id, next);
    if (previous.userName !== next.userName) {
      const oldKey = userNameKey(previous.userName);
      const newKey = userNameKey(next.userName);
      if (oldKey !== newKey) {
        this.idByUserName.delete(oldKey);
        this.idByUserName.set(newKey, next.id);
      }
    }
    if (previous.externalId !== next.externalId) {
      if (typeof previous.externalId === 'string')
        this.#removeExternalId(previous.externalId, next.id);
      if (typeof next.externalId === 'string') this.#addExternalId(next.externalId, next.id);
    }
  }

  /** Removes a stored user from every index. */
  override remove(user: ScimUser): void {
    super.remove(user);
    this.idByUserName.delete(userNameKey(user.userName));
    if (typeof user.externalId === 'string') this.#removeExternalId(user.externalId, user.id);
  }

  #addExternalId(externalId: string, id: string): void {
    const held = this.#byExternalId.get(externalId);
    if (held === undefined) this.#byExternalId.set(externalId, id);
    else if (typeof held === 'string') this.#byExternalId.set(externalId, new Set([held, id]));
    else held.add(id);
  }

  #removeExternalId(externalId: string, id: string): void {
    const held = this.#byExternalId.get(externalId);
    if (held === id) this.#byExternalId.delete(externalId);
    else if (typeof held === 'object') {
      held.delete(id);
      // Back to a string when one holder is left.
      if (held.size === 1) this.#byExternalId.set(externalId, held.values().next().value as string);
    }
  }
}
